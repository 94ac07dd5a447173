import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import { FetchRefused, describeNetworkError, guardAddress, guardedLookup, parseFetchUrl } from './safe-fetch';

export interface SafePostOptions {
  allowPrivateNetworks: boolean;
  /** One deadline for everything: the lookup, the connection, the answer's head and its excerpt. */
  timeoutMs: number;
  /** Bytes of the answer kept; the rest is not read. */
  maxResponseBytes: number;
}

/**
 * POSTs a body to a URL someone registered, without letting it reach our own network: http(s)
 * only, the address checked at the connection (so a name that changed since it was registered is
 * checked again), no redirect followed (a 3xx is the answer), a deadline over everything, and only
 * the first `maxResponseBytes` of the answer read. Throws {@link FetchRefused} when no answer came,
 * saying why without naming an address.
 */
export async function safePost(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: SafePostOptions,
): Promise<{ statusCode: number; response: string }> {
  const url = parseFetchUrl(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) guardAddress(host, options.allowPrivateNetworks);
  const client = url.protocol === 'https:' ? https : http;
  const seconds = `${options.timeoutMs / 1000} s`;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        // A connection of its own: a pooled one would skip the address check of this attempt.
        agent: false,
        lookup: guardedLookup(options.allowPrivateNetworks),
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          res.destroy();
          resolve({
            statusCode: res.statusCode ?? 0,
            response: Buffer.concat(chunks).subarray(0, options.maxResponseBytes).toString('utf8'),
          });
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= options.maxResponseBytes) done();
        });
        res.on('end', done);
        // The status came: a body cut short still leaves an answer to record.
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => req.destroy(new FetchRefused(`no answer within ${seconds}`)), options.timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (e) => reject(e instanceof FetchRefused ? e : new FetchRefused(`the request failed: ${describeNetworkError(e)}`)));
    req.end(body);
  });
}

/**
 * Checks a URL before it is registered: http(s), no credentials, and every address its host
 * resolves to now public (unless private networks are allowed). Throws {@link FetchRefused};
 * `badUrl` when the URL itself is malformed.
 */
export async function checkPublicUrl(rawUrl: string, options: { allowPrivateNetworks: boolean; timeoutMs: number }): Promise<URL> {
  const url = parseFetchUrl(rawUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    guardAddress(host, options.allowPrivateNetworks);
    return url;
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new FetchRefused(`its host name did not resolve within ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    );
  });
  try {
    const addresses = await Promise.race([
      dns.promises.lookup(host, { all: true }).catch((error: unknown) => {
        throw new FetchRefused(describeNetworkError(error as NodeJS.ErrnoException));
      }),
      deadline,
    ]);
    for (const { address } of addresses) guardAddress(address, options.allowPrivateNetworks);
    return url;
  } finally {
    clearTimeout(timer);
  }
}
