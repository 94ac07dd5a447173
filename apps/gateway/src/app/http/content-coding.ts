import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, deflate, gzip, type BrotliOptions } from 'node:zlib';
import compression from 'compression';
import type { RequestHandler } from 'express';

/** The content codings the gateway answers in, besides identity. */
export type ContentCoding = 'br' | 'gzip' | 'deflate';

/** Result pages and groups are JSON of tens of kilobytes; gzip makes them a fifth of that. Smaller bodies go as they are. */
export const COMPRESSION_THRESHOLD = 1024;

const CODINGS = ['br', 'gzip', 'deflate', 'identity'];
const PREFERRED_CODINGS = ['br', 'gzip'];
const BROTLI: BrotliOptions = { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * The negotiator the compression middleware itself loads (its own dependency), so that the
 * framework's answers and the kept answers read an Accept-Encoding alike, down to its malformed ones.
 */
const CompressionNegotiator = createRequire(require.resolve('compression'))('negotiator') as new (req: IncomingMessage) => {
  encoding(available: readonly string[], preferred: readonly string[]): string | undefined;
};

/** The framework's answers: compressed by the middleware, with these settings. */
export function compressAnswers(): RequestHandler {
  return compression({ threshold: COMPRESSION_THRESHOLD, brotli: BROTLI });
}

/** The coding a body of `length` bytes goes in, as the compression middleware chooses it; null for identity. */
export function contentCodingFor(req: IncomingMessage, length: number): ContentCoding | null {
  // As the compression middleware: a HEAD, a small body, or no Accept-Encoding go as they are.
  if (req.method === 'HEAD' || length < COMPRESSION_THRESHOLD || !req.headers['accept-encoding']) return null;
  const coding = new CompressionNegotiator(req).encoding(CODINGS, PREFERRED_CODINGS);
  return coding === 'br' || coding === 'gzip' || coding === 'deflate' ? coding : null;
}

/** Compresses as the compression middleware does (its settings, on the thread pool). */
export const ENCODERS: Record<ContentCoding, (bytes: Buffer) => Promise<Buffer>> = {
  br: (bytes) => promisify(brotliCompress)(bytes, BROTLI),
  gzip: (bytes) => promisify(gzip)(bytes),
  deflate: (bytes) => promisify(deflate)(bytes),
};
