import { createHash, createHmac } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeBlobStoreContract } from '@cs/ports/testing';
import { startContainer } from '@cs/test-services';
import { S3BlobStore, type S3Options } from './s3-blob.store';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> };

/** An S3-compatible server from npm, started for this test file only. */
async function startS3(
  publicEndpointFor?: (port: number) => S3Options['publicEndpoint'],
): Promise<{ store: S3BlobStore; cleanup: () => Promise<void>; port: number }> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  const { port } = await server.run();
  const store = await S3BlobStore.open({
    endPoint: '127.0.0.1',
    port,
    useSSL: false,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    region: 'us-east-1',
    bucket: 'cvs',
    publicEndpoint: publicEndpointFor?.(port),
  });
  return {
    store,
    port,
    cleanup: async () => {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

describeBlobStoreContract('S3 (minio client against s3rver)', startS3);

describe('S3BlobStore presigned PUT', () => {
  it('gives a URL that takes the file without credentials', async () => {
    const { store, cleanup } = await startS3();
    try {
      const url = await store.presignPut('uploads/c1/u9', 600);
      expect(url).toMatch(/X-Amz-Signature=/);
      const put = await fetch(url, { method: 'PUT', body: 'the CV bytes' });
      expect(put.status).toBe(200);
      expect((await store.get('uploads/c1/u9')).toString()).toBe('the CV bytes');
    } finally {
      await cleanup();
    }
  });
});

/** Whether a presigned PUT URL's AWS signature V4 holds for a request carrying this Host header (secret: s3rver's). */
function signedFor(url: URL, host: string, secretKey = 'S3RVER'): boolean {
  const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  const q = url.searchParams;
  const [, date, region, service] = /^[^/]+\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request$/.exec(q.get('X-Amz-Credential') ?? '') ?? [];
  if (q.get('X-Amz-SignedHeaders') !== 'host' || !date) return false;
  const query = [...q]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [encodeURIComponent(name), encodeURIComponent(value)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonical = ['PUT', url.pathname, query, `host:${host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', q.get('X-Amz-Date'), scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = [date, region, service, 'aws4_request'].reduce<string | Buffer>((k, part) => hmac(k, part), `AWS4${secretKey}`);
  return hmac(key, toSign).toString('hex') === q.get('X-Amz-Signature');
}

/** A port forwarding to S3's, as an ingress does for clients outside the cluster; its port is known before S3's. */
async function startIngress(): Promise<{ port: number; forwardTo: (target: number) => void; close: () => Promise<void> }> {
  let target = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target, '127.0.0.1');
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => (socket === inbound ? outbound : inbound).destroy());
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    forwardTo: (port) => (target = port),
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('S3BlobStore with a public endpoint', () => {
  it('signs presigned URLs for the public host and port, where the PUT then succeeds', async () => {
    const ingress = await startIngress();
    const {
      store,
      cleanup,
      port: s3Port,
    } = await startS3((port) => {
      ingress.forwardTo(port);
      return { endPoint: 'localhost', port: ingress.port, useSSL: false };
    });
    try {
      const url = new URL(await store.presignPut('uploads/c1/u10', 600));
      expect({ protocol: url.protocol, hostname: url.hostname, port: url.port }).toEqual({
        protocol: 'http:',
        hostname: 'localhost',
        port: String(ingress.port),
      });
      expect(url.pathname).toBe('/cvs/uploads/c1/u10');
      // s3rver does not check V4 signatures, so this does: valid for the public host only.
      expect(signedFor(url, `localhost:${ingress.port}`)).toBe(true);
      expect(signedFor(url, `127.0.0.1:${s3Port}`)).toBe(false);
      const put = await fetch(url, { method: 'PUT', body: 'the CV bytes, through the ingress' });
      expect(put.status).toBe(200);
      expect((await store.get('uploads/c1/u10')).toString()).toBe('the CV bytes, through the ingress');
    } finally {
      await ingress.close();
      await cleanup();
    }
  });
});

describeBlobStoreContract(
  'S3 (minio client against MinIO, testcontainers)',
  async () => {
    const minio = await startContainer('minio/minio:RELEASE.2025-04-22T22-12-26Z', 9000, {
      command: ['server', '/data'],
      env: { MINIO_ROOT_USER: 'contract', MINIO_ROOT_PASSWORD: 'contract-secret' },
      waitPath: '/minio/health/ready',
    });
    const url = new URL(minio.url);
    const store = await S3BlobStore.open({
      endPoint: url.hostname,
      port: Number(url.port),
      useSSL: false,
      accessKey: 'contract',
      secretKey: 'contract-secret',
      region: 'us-east-1',
      bucket: 'cvs',
    });
    return { store, cleanup: minio.stop };
  },
  ['docker'],
);
