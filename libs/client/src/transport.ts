import {
  CandidateSearchError,
  ConflictError,
  ConnectionError,
  RateLimitError,
  abortError,
  errorClassFor,
  type CandidateSearchErrorInit,
  type RateLimitInfo,
} from './errors';
import { fullJitter, randomId, sleep, withDeadline } from './timing';
import type { SearchState } from './types';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** A retry the client is about to make, passed to `onRetry` before it waits. */
export interface RetryEvent {
  /** The retry about to be made: 1 for the first. */
  attempt: number;
  /** How long the client waits before it (ms): a 429's Retry-After (with a little jitter), or backoff. */
  delayMs: number;
  /**
   * `rate-limited` (429), `server-error` (5xx), `connection` (no answer, or none within the request's
   * deadline), `in-flight` (409 idempotency_key_in_use: an earlier attempt of this POST still runs).
   */
  reason: 'rate-limited' | 'server-error' | 'connection' | 'in-flight';
  /** The failure retried; a RateLimitError carries retryAfter, limit, remaining, reset, window and hint. */
  error: CandidateSearchError;
  method: RequestSpec['method'];
  /** The request's path (or the presigned URL), without its query. */
  path: string;
}

export type OnRetry = (retry: RetryEvent) => void;

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  fetch: FetchLike;
  maxRetries: number;
  requestTimeoutMs: number;
  userAgent?: string;
  random?: () => number;
  /** Told of every retry of every request. */
  onRetry?: OnRetry;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path under baseUrl, or an absolute URL (the presigned PUT). */
  path: string;
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  body?: Blob | Uint8Array;
  /** With body bytes: report the bytes as fetch reads them (Node, where a streamed body may carry Content-Length). */
  onBodyProgress?: (bytesSent: number) => void;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** This request's own deadline (default requestTimeoutMs); for a raw answer it covers the headers only. */
  timeoutMs?: number;
  /** Retries are not started past this time (epoch ms): a caller's overall deadline. */
  notAfter?: number;
  /** Send X-API-Key (default true; false for the presigned PUT, which must not carry it). */
  auth?: boolean;
  /** Answer the Response unread (for SSE). */
  raw?: boolean;
  /** Told of this request's retries (after the client-wide onRetry). */
  onRetry?: OnRetry;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  data: T;
  requestId?: string;
  /** A raw (streamed) answer's: unhooks it from the caller's signal once the stream is read. */
  release?: () => void;
}

const int = (v: string | null | undefined): number | undefined => {
  if (v === null || v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

export function rateLimitOf(headers: Headers): RateLimitInfo {
  return {
    limit: int(headers.get('ratelimit-limit')),
    remaining: int(headers.get('ratelimit-remaining')),
    reset: int(headers.get('ratelimit-reset')),
  };
}

/** Seconds from Retry-After (delta seconds or an HTTP date). */
export function retryAfterOf(headers: Headers, now = Date.now()): number | undefined {
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const seconds = int(raw);
  if (seconds !== undefined) return Math.max(0, seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/** The typed error of a non-2xx answer whose body was already read. */
export function errorFromAnswer(status: number, headers: Headers, body: unknown): CandidateSearchError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const retryAfter = retryAfterOf(headers) ?? int(str(b.retryAfter));
  const init: CandidateSearchErrorInit = {
    status,
    error: str(b.error) ?? `http_${status}`,
    message: str(b.message) ?? (typeof body === 'string' && body ? body.slice(0, 300) : `HTTP ${status}`),
    retryable: status === 429 || status >= 500,
    requestId: headers.get('x-request-id') ?? undefined,
    rateLimit: rateLimitOf(headers),
    retryAfter,
    body,
  };
  const Class = errorClassFor(status);
  if (Class === RateLimitError) return new RateLimitError({ ...init, window: str(b.window), hint: str(b.hint) });
  if (Class === ConflictError)
    return new ConflictError({
      ...init,
      searchStatus: str(b.status) as SearchState | undefined,
      searchError: b.searchError as string | null | undefined,
      errorRetryable: b.errorRetryable as boolean | null | undefined,
    });
  return new Class(init);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Sends requests with the key, deadlines and retries. Retried: network errors and per-request
 * timeouts, 5xx, and 429 after its Retry-After (never sooner); a 409 only when its code is
 * `idempotency_key_in_use` (an earlier attempt of this POST is still running under the same
 * Idempotency-Key; the retry gets its answer). Nothing else: other 4xx say the request must change. Every POST carries one Idempotency-Key for all its
 * attempts, so a retried POST is answered with the first one's result, never run twice.
 */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  url(path: string, query?: RequestSpec['query']): string {
    const url = /^https?:\/\//i.test(path) ? new URL(path) : new URL(path.replace(/^\//, ''), this.options.baseUrl.replace(/\/?$/, '/'));
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  async request<T>(spec: RequestSpec): Promise<ApiResponse<T>> {
    const idempotencyKey = spec.method === 'POST' ? (spec.headers?.['Idempotency-Key'] ?? randomId()) : undefined;
    const { maxRetries } = this.options;
    for (let attempt = 0; ; attempt++) {
      if (spec.signal?.aborted) throw abortError(spec.signal);
      let failure: CandidateSearchError;
      try {
        return await this.once<T>(spec, idempotencyKey);
      } catch (err) {
        if (!(err instanceof CandidateSearchError)) throw err;
        failure = err;
      }
      const retry = failure.retryable || (failure instanceof ConflictError && failure.error === 'idempotency_key_in_use');
      if (!retry || attempt >= maxRetries) throw failure;
      // A 429 waits its Retry-After (never sooner); so does any other answer that names one (a 503, an in-flight 409).
      const retryAfter = failure.retryAfter ?? (failure instanceof RateLimitError ? 1 : undefined);
      const wait =
        retryAfter !== undefined
          ? retryAfter * 1000 + fullJitter(0, 250, 250, this.options.random)
          : fullJitter(attempt, 500, 8_000, this.options.random);
      if (spec.notAfter !== undefined && Date.now() + wait > spec.notAfter) throw failure;
      // The path without its query: a presigned URL's signature stays out of the caller's logs.
      const event: RetryEvent = {
        attempt: attempt + 1,
        delayMs: wait,
        reason: retryReason(failure),
        error: failure,
        method: spec.method,
        path: spec.path.split('?')[0],
      };
      this.options.onRetry?.(event);
      spec.onRetry?.(event);
      await sleep(wait, spec.signal);
    }
  }

  private async once<T>(spec: RequestSpec, idempotencyKey: string | undefined): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { Accept: 'application/json', ...spec.headers };
    if (spec.auth !== false) headers['X-API-Key'] = this.options.apiKey;
    if (this.options.userAgent) headers['User-Agent'] = this.options.userAgent;
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    let body: RequestInit['body'];
    let streamed = false;
    if (spec.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.body instanceof Uint8Array && spec.onBodyProgress) {
      // A new stream per attempt (a stream is read once); Content-Length keeps it a sized body, which the API requires.
      headers['Content-Length'] = String(spec.body.byteLength);
      body = progressStream(spec.body, spec.onBodyProgress);
      streamed = true;
    } else if (spec.body !== undefined) body = spec.body as RequestInit['body'];

    const timeoutMs = spec.timeoutMs ?? this.options.requestTimeoutMs;
    const deadline = withDeadline(spec.signal, timeoutMs);
    let keepDeadline = false;
    try {
      // fetch takes a streamed body only half-duplex (it sends all of it before reading the answer).
      const init: RequestInit & { duplex?: 'half' } = { method: spec.method, headers, body, signal: deadline.signal };
      if (streamed) init.duplex = 'half';
      const response = await this.options.fetch(this.url(spec.path, spec.query), init);
      const requestId = response.headers.get('x-request-id') ?? undefined;
      if (response.ok && spec.raw) {
        keepDeadline = true;
        deadline.stopTimer();
        return { status: response.status, headers: response.headers, data: response as T, requestId, release: () => deadline.dispose() };
      }
      const data = await readBody(response);
      if (!response.ok) throw errorFromAnswer(response.status, response.headers, data);
      return { status: response.status, headers: response.headers, data: data as T, requestId };
    } catch (err) {
      if (err instanceof CandidateSearchError) throw err;
      if (spec.signal?.aborted) throw abortError(spec.signal);
      const timedOut = deadline.expired();
      throw new ConnectionError({
        status: 0,
        error: 'network_error',
        message: timedOut
          ? `${spec.method} ${spec.path}: no answer within ${timeoutMs} ms`
          : `${spec.method} ${spec.path}: ${err instanceof Error ? err.message : String(err)}`,
        retryable: true,
        cause: err,
      });
    } finally {
      // A raw answer's stream still needs the caller's signal: only its timer was cleared.
      if (!keepDeadline) deadline.dispose();
    }
  }
}

function retryReason(failure: CandidateSearchError): RetryEvent['reason'] {
  if (failure instanceof RateLimitError) return 'rate-limited';
  if (failure instanceof ConflictError) return 'in-flight';
  return failure.status === 0 ? 'connection' : 'server-error';
}

const CHUNK_BYTES = 64 * 1024;

/** The bytes as a stream of 64 KB chunks, calling onProgress with the total handed to fetch so far. */
function progressStream(bytes: Uint8Array, onProgress: (bytesSent: number) => void): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes.byteLength) {
        controller.close();
        return;
      }
      const chunk = bytes.subarray(sent, sent + CHUNK_BYTES);
      sent += chunk.byteLength;
      controller.enqueue(chunk);
      onProgress(sent);
    },
  });
}
