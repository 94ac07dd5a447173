import type { FailedSearch, SearchState } from './types';

/** The RateLimit-* headers of an answer (decisions: on every /v1/public answer). */
export interface RateLimitInfo {
  /** Requests allowed in the window of the limit closest to exhaustion. */
  limit?: number;
  /** Requests left in that window. */
  remaining?: number;
  /** Unix time (seconds) when that window resets. */
  reset?: number;
}

export interface CandidateSearchErrorInit {
  status: number;
  error: string;
  message: string;
  retryable: boolean;
  requestId?: string;
  rateLimit?: RateLimitInfo;
  retryAfter?: number;
  body?: unknown;
  cause?: unknown;
}

/**
 * Every error the client throws for an answer, a network failure or a wait that gave up. `error` is
 * the API's stable code (`invalid_request`, `not_found`, ...) or the client's own (`network_error`,
 * `timeout`, `search_failed`); `status` is the HTTP status, 0 when no answer came.
 */
export class CandidateSearchError extends Error {
  override name = 'CandidateSearchError';
  readonly status: number;
  readonly error: string;
  /** Whether the same request may succeed later (the client already retried it up to maxRetries). */
  readonly retryable: boolean;
  /** The answer's X-Request-Id: quote it to support. */
  readonly requestId?: string;
  readonly limit?: number;
  readonly remaining?: number;
  readonly reset?: number;
  /** Seconds to wait before retrying (Retry-After, or the 429 body's retryAfter). */
  readonly retryAfter?: number;
  /** The answer's parsed body, when it had one. */
  readonly body?: unknown;

  constructor(init: CandidateSearchErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.error = init.error;
    this.retryable = init.retryable;
    this.requestId = init.requestId;
    this.limit = init.rateLimit?.limit;
    this.remaining = init.rateLimit?.remaining;
    this.reset = init.rateLimit?.reset;
    this.retryAfter = init.retryAfter;
    this.body = init.body;
  }
}

/** 401: a missing, wrong or revoked X-API-Key. */
export class AuthenticationError extends CandidateSearchError {
  override name = 'AuthenticationError';
}
/** 404: no such id, or another company's. */
export class NotFoundError extends CandidateSearchError {
  override name = 'NotFoundError';
}
/** 410: an expired presigned upload, or one whose document was deleted. */
export class GoneError extends CandidateSearchError {
  override name = 'GoneError';
}
/**
 * The request itself must change: 400 `invalid_request` (the message names the field and rule),
 * 413 `payload_too_large`, 415 `unsupported_media_type`, 422 `unprocessable`. Also thrown before
 * sending for what the client can check itself (a file over 10 MB, an unknown file type).
 */
export class ValidationError extends CandidateSearchError {
  override name = 'ValidationError';
}
/** 429: a rate limit is spent; `retryAfter` says for how many seconds. */
export class RateLimitError extends CandidateSearchError {
  override name = 'RateLimitError';
  /** `10 seconds` or `1 minute`. */
  readonly window?: string;
  /** On upload and search limits: how to pace requests. */
  readonly hint?: string;
  constructor(init: CandidateSearchErrorInit & { window?: string; hint?: string }) {
    super(init);
    this.window = init.window;
    this.hint = init.hint;
  }
}
/**
 * 409: in conflict with the current state (a full search group, results of a search that is not
 * completed, a presigned upload finalized before its bytes arrived, an Idempotency-Key in flight).
 */
export class ConflictError extends CandidateSearchError {
  override name = 'ConflictError';
  /** On the results of a search that is not completed: its status. */
  readonly searchStatus?: SearchState;
  /** On the results of a failed search: why it failed, and whether a new search may succeed. */
  readonly searchError?: string | null;
  readonly errorRetryable?: boolean | null;
  constructor(
    init: CandidateSearchErrorInit & { searchStatus?: SearchState; searchError?: string | null; errorRetryable?: boolean | null },
  ) {
    super(init);
    this.searchStatus = init.searchStatus;
    this.searchError = init.searchError;
    this.errorRetryable = init.errorRetryable;
  }
}
/** 5xx: the server failed; retried with backoff before this is thrown. */
export class ServerError extends CandidateSearchError {
  override name = 'ServerError';
}
/** No answer: the connection failed or a request passed its own deadline (status 0, `network_error`). */
export class ConnectionError extends CandidateSearchError {
  override name = 'ConnectionError';
}
/** A wait (search, group, document) passed its timeoutMs (`timeout`, status 0). */
export class TimeoutError extends CandidateSearchError {
  override name = 'TimeoutError';
  /** What was last seen of the awaited thing (a search status, a group, documents). */
  readonly lastSeen?: unknown;
  constructor(init: Omit<CandidateSearchErrorInit, 'status' | 'error' | 'retryable'> & { lastSeen?: unknown }) {
    super({ ...init, status: 0, error: 'timeout', retryable: true });
    this.lastSeen = init.lastSeen;
  }
}
/**
 * A search ended `failed` (not an HTTP error: the status endpoint answered 200). `searchError` is
 * the search's `error`; `errorRetryable` (also `retryable`) says whether a new search may succeed:
 * wait 5 to 10 s and search again when true, fix the query when false.
 */
export class SearchFailedError extends CandidateSearchError {
  override name = 'SearchFailedError';
  readonly searchId: string;
  readonly searchError: string;
  readonly errorRetryable: boolean;
  readonly search: FailedSearch;
  constructor(search: FailedSearch, requestId?: string) {
    super({
      status: 200,
      error: 'search_failed',
      message: `${search.searchType} search ${search.searchId} failed: ${search.error}`,
      retryable: search.errorRetryable,
      requestId,
    });
    this.searchId = search.searchId;
    this.searchError = search.error;
    this.errorRetryable = search.errorRetryable;
    this.search = search;
  }
}

/** The error class of an HTTP error status: one exhaustive table, so each status maps to one class. */
export function errorClassFor(status: number): typeof CandidateSearchError {
  if (status >= 500) return ServerError;
  switch (status) {
    case 400:
    case 413:
    case 415:
    case 422:
    case 431:
      return ValidationError;
    case 401:
      return AuthenticationError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 410:
      return GoneError;
    case 429:
      return RateLimitError;
    default:
      return CandidateSearchError;
  }
}

/** An AbortError like fetch's: the signal's reason when it is an Error, else a DOMException. */
export function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'This operation was aborted', 'AbortError');
}

/** A ValidationError found before sending (status 0): the request would be refused anyway. */
export function clientValidation(error: string, message: string): ValidationError {
  return new ValidationError({ status: 0, error, message, retryable: false });
}
