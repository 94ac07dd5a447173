import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { COMPRESSION_THRESHOLD, contentCodingFor, ENCODERS } from './content-coding';

const request = (acceptEncoding: string | undefined, method = 'GET') =>
  ({ method, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }) as unknown as IncomingMessage;

describe('the content coding of an answer', () => {
  const big = COMPRESSION_THRESHOLD;

  it('prefers br, then gzip, by the client’s weights', () => {
    expect(contentCodingFor(request('gzip, deflate, br'), big)).toBe('br');
    expect(contentCodingFor(request('gzip, deflate'), big)).toBe('gzip');
    expect(contentCodingFor(request('deflate'), big)).toBe('deflate');
    expect(contentCodingFor(request('br;q=0.1, gzip;q=0.9'), big)).toBe('gzip');
  });

  it('is identity for a HEAD, a body under the threshold, no Accept-Encoding, or only unknown codings', () => {
    expect(contentCodingFor(request('gzip', 'HEAD'), big)).toBeNull();
    expect(contentCodingFor(request('gzip'), big - 1)).toBeNull();
    expect(contentCodingFor(request(undefined), big)).toBeNull();
    expect(contentCodingFor(request('compress'), big)).toBeNull();
    expect(contentCodingFor(request('identity'), big)).toBeNull();
  });

  it('encodes bytes that decode back', async () => {
    const bytes = Buffer.from(JSON.stringify({ items: Array.from({ length: 100 }, (_, i) => ({ i })) }));
    expect(brotliDecompressSync(await ENCODERS.br(bytes))).toEqual(bytes);
    expect(gunzipSync(await ENCODERS.gzip(bytes))).toEqual(bytes);
    expect(inflateSync(await ENCODERS.deflate(bytes))).toEqual(bytes);
  });
});
