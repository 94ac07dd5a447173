import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchRefused } from './safe-fetch';
import { checkPublicUrl, safePost } from './safe-post';

describe('safePost', () => {
  let server: Server;
  let base: string;
  const received: { url: string; headers: IncomingMessage['headers']; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ url: req.url ?? '', headers: req.headers, body });
        if (req.url === '/ok') res.writeHead(200).end('thanks');
        else if (req.url === '/big') res.writeHead(500).end('x'.repeat(100_000));
        else if (req.url === '/moved') res.writeHead(302, { location: '/ok' }).end();
        else if (req.url === '/silent')
          return; // never answers
        else res.writeHead(404).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  const open = { allowPrivateNetworks: true, timeoutMs: 20_000, maxResponseBytes: 1024 };

  it('POSTs the body with its headers and answers with the status and the start of the answer', async () => {
    expect(await safePost(`${base}/ok`, '{"a":1}', { 'content-type': 'application/json', 'webhook-id': 'e1' }, open)).toEqual({
      statusCode: 200,
      response: 'thanks',
    });
    const last = received[received.length - 1];
    expect(last).toMatchObject({
      url: '/ok',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'webhook-id': 'e1', 'content-length': '7' },
    });
  });

  it('keeps at most maxResponseBytes of an answer', async () => {
    const answer = await safePost(`${base}/big`, '{}', {}, open);
    expect(answer.statusCode).toBe(500);
    expect(answer.response).toBe('x'.repeat(1024));
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const before = received.filter((r) => r.url === '/ok').length;
    expect((await safePost(`${base}/moved`, '{}', {}, open)).statusCode).toBe(302);
    expect(received.filter((r) => r.url === '/ok').length).toBe(before);
  });

  it('gives up on an endpoint silent past the deadline', async () => {
    await expect(safePost(`${base}/silent`, '{}', {}, { ...open, timeoutMs: 300 })).rejects.toThrow(
      new FetchRefused('no answer within 0.3 s'),
    );
  });

  it('refuses loopback, by address or by name, unless private networks are allowed, naming no address', async () => {
    const closed = { ...open, allowPrivateNetworks: false };
    await expect(safePost(`${base}/ok`, '{}', {}, closed)).rejects.toMatchObject({ privateAddress: true });
    const byName = safePost(`http://localhost:${new URL(base).port}/ok`, '{}', {}, closed);
    await expect(byName).rejects.toThrow(/private or reserved/);
    await expect(byName).rejects.not.toThrow(/127\.0\.0\.1|::1/);
    await expect(safePost('http://127.0.0.1:9/', '{}', {}, open)).rejects.toThrow('the request failed: the connection was refused');
  });
});

describe('checkPublicUrl', () => {
  const closed = { allowPrivateNetworks: false, timeoutMs: 5000 };

  it("refuses what is not an http(s) URL as the request's fault", async () => {
    for (const url of ['not a url', 'ftp://example.com/hook', 'http://user:pw@example.com/hook'])
      await expect(checkPublicUrl(url, closed)).rejects.toMatchObject({ badUrl: true });
  });

  it('refuses private and reserved addresses, literal or resolved, unless allowed', async () => {
    for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest', 'http://localhost/hook'])
      await expect(checkPublicUrl(url, closed)).rejects.toMatchObject({ badUrl: false, privateAddress: true });
    expect((await checkPublicUrl('http://localhost:8080/hook', { ...closed, allowPrivateNetworks: true })).port).toBe('8080');
    expect((await checkPublicUrl('https://93.184.216.34/hook', closed)).hostname).toBe('93.184.216.34');
  });

  it('refuses a host name that does not resolve', async () => {
    await expect(checkPublicUrl('https://no-such-host.invalid/hook', closed)).rejects.toThrow('its host name does not resolve');
  });
});
