import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders } from 'node:http';
import { DomainError, invalid } from '@cs/contracts';
import type { IdempotencyRecord, IdempotentRequest } from '@cs/records';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** 1 to 255 visible ASCII characters (no spaces): a UUID, a ULID, a hash, a client's own scheme. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * The request's Idempotency-Key, or undefined when it has none; a 400 naming the header when it
 * is malformed. Two of them arrive joined by a comma and a space, so they are refused too.
 */
export function idempotencyKeyOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !KEY_PATTERN.test(value))
    throw invalid('the Idempotency-Key header must be given once, as 1 to 255 visible ASCII characters (no spaces)');
  return value;
}

/**
 * What makes a retry the same request: the method, the target as sent (the path and the query
 * string, which carries upload-direct's fields), the Content-Type and the body's SHA-256. One
 * digest, so a row holds no request data but the path it names in a mismatch's message.
 */
export function fingerprintOf(request: { method: string; target: string; contentType: string | undefined; bodySha256: string }): string {
  // JSON, so that no text moved from one part to the next makes two requests one.
  return createHash('sha256')
    .update(JSON.stringify([request.method, request.target, request.contentType ?? null, request.bodySha256]))
    .digest('hex');
}

/**
 * Whether an answer is kept for retries: successes, and client errors that a retry of the same
 * request would get again. Not kept, so that a retry runs: 5xx (our fault, maybe passing), 429
 * (the limit frees), 401 (a key can be fixed) and 408 (the request did not arrive).
 */
export function isReplayable(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429;
}

/**
 * Headers of an answer that belong to it (its type, where its resource is, its validators) and
 * are replayed with it; the others (X-Request-Id, RateLimit-*, Cache-Control) are each request's own.
 */
// Vary too: a replayed search creation is still an answer chosen by Prefer, as the first was.
const REPLAYED_HEADERS = ['content-type', 'location', 'content-location', 'etag', 'last-modified', 'link', 'preference-applied', 'vary'];

export function replayedHeaders(headers: OutgoingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return out;
}

/**
 * What a request finds when another holds its key: the stored answer, to replay; or a 422 when it
 * is not the request that used the key (another body, query or route); or a 409 while that one is
 * still in flight.
 */
export function answerOf(record: IdempotencyRecord, request: IdempotentRequest): NonNullable<IdempotencyRecord['answer']> {
  if (record.fingerprint !== request.fingerprint) {
    const first = `${record.method} ${record.path}`;
    const other = record.method === request.method && record.path === request.path ? ` with another body or query string` : '';
    throw new DomainError(
      'idempotency_key_reused',
      `this Idempotency-Key was already used for ${first}${other}: a key names one request; send a new key for a new request`,
    );
  }
  if (record.state === 'processing' || !record.answer)
    throw new DomainError('idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed: retry in a second');
  return record.answer;
}
