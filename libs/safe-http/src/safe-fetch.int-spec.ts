import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchRefused, isPublicAddress, safeFetch } from './safe-fetch';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '::1',
    'fe80::1',
    '0.0.0.0',
    '::ffff:127.0.0.1',
    '100.64.0.1',
    '::7f00:1',
    '::a00:1',
    '::',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    'fc00::1',
  ])('refuses %s', (address) => expect(isPublicAddress(address)).toBe(false));
  it.each(['93.184.216.34', '2606:4700::1'])('allows %s', (address) => expect(isPublicAddress(address)).toBe(true));
});

describe('safeFetch', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/cv.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('plain CV');
      else if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(2048));
      else if (req.url === '/hop') res.writeHead(302, { location: '/cv.txt' }).end();
      else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
      else if (req.url === '/bad-location') res.writeHead(302, { location: 'http://[::1' }).end();
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  const open = { allowPrivateNetworks: true, maxBytes: 1024, timeoutMs: 20_000, maxRedirects: 3 };

  it('refuses loopback unless the operator allows private networks', async () => {
    await expect(safeFetch(`${base}/cv.txt`, { ...open, allowPrivateNetworks: false })).rejects.toThrow(/private or reserved/);
    await expect(safeFetch(`http://localhost:${new URL(base).port}/cv.txt`, { ...open, allowPrivateNetworks: false })).rejects.toThrow(
      /private or reserved/,
    );
  });

  it('never says what a name resolved to', async () => {
    const refusal = safeFetch(`http://localhost:${new URL(base).port}/cv.txt`, { ...open, allowPrivateNetworks: false });
    await expect(refusal).rejects.toThrow(FetchRefused);
    await expect(refusal).rejects.not.toThrow(/127\.0\.0\.1|::1/);
    const closed = safeFetch('http://127.0.0.1:9/cv.pdf', open);
    await expect(closed).rejects.toThrow('the URL could not be fetched: the connection was refused');
  });

  it("marks a URL that cannot be fetched at all as the request's fault", async () => {
    for (const url of ['not a url', 'ftp://example.com/cv.pdf', 'file:///etc/passwd', 'http://user:pw@example.com/cv.pdf']) {
      await expect(safeFetch(url, open)).rejects.toMatchObject({ badUrl: true });
    }
  });

  it('follows redirects up to the limit', async () => {
    const file = await safeFetch(`${base}/hop`, open);
    expect(file.bytes.toString()).toBe('plain CV');
    expect(file.finalUrl.pathname).toBe('/cv.txt');
    await expect(safeFetch(`${base}/loop`, open)).rejects.toThrow(/more than 3 redirects/);
    await expect(safeFetch(`${base}/bad-location`, open)).rejects.toThrow(new FetchRefused('a redirect led to an invalid URL'));
  });

  it('names the cause of a failed fetch', async () => {
    await expect(safeFetch(`${base}/missing`, open)).rejects.toThrow('the server answered HTTP 404');
    await expect(safeFetch(`${base}/big`, open)).rejects.toThrow(/larger than/);
    await expect(safeFetch('ftp://example.com/cv.pdf', open)).rejects.toBeInstanceOf(FetchRefused);
    await expect(safeFetch('not a url', open)).rejects.toThrow(/valid absolute URL/);
  });
});
