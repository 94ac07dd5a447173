import { promises as fs } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeBlobStoreContract } from '@cs/ports/testing';
import { startContainer } from '@cs/test-services';
import { S3BlobStore } from './s3-blob.store';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> };

/** An S3-compatible server from npm, started for this test file only. */
async function startS3(): Promise<{ store: S3BlobStore; cleanup: () => Promise<void>; port: number }> {
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
