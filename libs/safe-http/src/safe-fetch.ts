import * as dns from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import * as ipaddr from 'ipaddr.js';

export class FetchRefused extends Error {
  constructor(
    message: string,
    /** The URL as given cannot be fetched at all (malformed, another scheme): the request's fault. */
    readonly badUrl = false,
    /** Refused for the address it points to, which an operator setting may allow. */
    readonly privateAddress = false,
  ) {
    super(message);
    this.name = 'FetchRefused';
  }
}

export interface SafeFetchOptions {
  allowPrivateNetworks: boolean;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export interface FetchedFile {
  bytes: Buffer;
  contentType: string;
  finalUrl: URL;
}

/**
 * Public unicast only: loopback, private, link-local, multicast and reserved ranges are refused.
 * IPv4-compatible IPv6 (`::a.b.c.d`, deprecated, which ipaddr.js calls unicast) is refused too:
 * some stacks route `::7f00:1` to 127.0.0.1.
 */
export function isPublicAddress(address: string): boolean {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The refusal names no address: what a name resolves to inside our network is not the caller's to learn. */
export function guardAddress(address: string, allowPrivate: boolean): void {
  if (!allowPrivate && !isPublicAddress(address)) {
    throw new FetchRefused('the URL points to a private or reserved network address; only public addresses may be fetched', false, true);
  }
}

/** A URL we would try to fetch, or a refusal saying why not (before any connection). */
export function parseFetchUrl(rawUrl: string): URL {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new FetchRefused('url is not a valid absolute URL', true);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchRefused(`url must be http or https, not ${url.protocol.replace(':', '').slice(0, 20)}`, true);
  if (url.username || url.password) throw new FetchRefused('url must not hold credentials (user:password@)', true);
  return url;
}

/** DNS lookup that refuses private addresses, so the checked address is the one connected to. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 4);
        return;
      }
      const list = addresses;
      try {
        for (const a of list) guardAddress(a.address, allowPrivate);
      } catch (refusal) {
        callback(refusal as Error, '', 4);
        return;
      }
      if (options.all) {
        (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
        return;
      }
      callback(null, list[0].address, list[0].family);
    });
  };
}

/**
 * GET a file from a user-given URL without letting it reach our own network: http(s) only, every
 * hop's address checked (redirects followed by hand), a size cap, one deadline for everything.
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions): Promise<FetchedFile> {
  let url = parseFetchUrl(rawUrl);
  const deadline = Date.now() + options.timeoutMs;
  for (let hop = 0; hop <= options.maxRedirects; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new FetchRefused(`a redirect led to ${url.protocol.replace(':', '').slice(0, 20)}, not http or https`);
    if (url.username || url.password) throw new FetchRefused('a redirect led to a URL with credentials');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) guardAddress(host, options.allowPrivateNetworks);
    const response = await get(url, options, deadline);
    if (response.redirect) {
      try {
        url = new URL(response.redirect, url);
      } catch {
        throw new FetchRefused('a redirect led to an invalid URL');
      }
      continue;
    }
    return { bytes: response.bytes!, contentType: response.contentType, finalUrl: url };
  }
  throw new FetchRefused(`more than ${options.maxRedirects} redirects`);
}

function get(url: URL, options: SafeFetchOptions, deadline: number): Promise<{ redirect?: string; bytes?: Buffer; contentType: string }> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.reject(new FetchRefused(`the download took longer than ${options.timeoutMs / 1000} s`));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(
      url,
      {
        lookup: guardedLookup(options.allowPrivateNetworks),
        timeout: remaining,
        headers: { 'user-agent': 'candidate-search-fetcher/1', accept: '*/*' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const contentType = res.headers['content-type'] ?? '';
        if ([301, 302, 303, 307, 308].includes(status) && res.headers.location) {
          res.resume();
          resolve({ redirect: res.headers.location, contentType });
          return;
        }
        if (status < 200 || status >= 300) {
          res.resume();
          reject(new FetchRefused(`the server answered HTTP ${status}`));
          return;
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > options.maxBytes) {
          res.destroy();
          reject(new FetchRefused(`the file is larger than ${options.maxBytes / (1024 * 1024)} MB`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            res.destroy();
            reject(new FetchRefused(`the file is larger than ${options.maxBytes / (1024 * 1024)} MB`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ bytes: Buffer.concat(chunks), contentType }));
        res.on('error', (e) => reject(new FetchRefused(`the download failed: ${e.message}`)));
      },
    );
    req.on('timeout', () => req.destroy(new FetchRefused(`the download took longer than ${options.timeoutMs / 1000} s`)));
    req.on('error', (e) =>
      reject(e instanceof FetchRefused ? e : new FetchRefused(`the URL could not be fetched: ${describeNetworkError(e)}`)),
    );
    const timer = setTimeout(() => req.destroy(new FetchRefused(`the download took longer than ${options.timeoutMs / 1000} s`)), remaining);
    req.on('close', () => clearTimeout(timer));
  });
}

/** A network failure in words that name no address (Node's messages quote the one it tried). */
export function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its host name does not resolve';
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
      return 'the connection was reset';
    case 'ETIMEDOUT':
      return 'the connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    default:
      return error.code ? `network error ${error.code}` : 'network error';
  }
}
