/**
 * Stable error codes of the public API (see docs/api-decisions.md). Domain code throws
 * {@link DomainError} with one of these; each transport maps them in one exhaustive switch.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'conflict'
  | 'idempotency_key_in_use'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'idempotency_key_reused'
  | 'rate_limit_exceeded'
  | 'request_header_fields_too_large'
  | 'internal_error'
  | 'service_unavailable';

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra fields merged into the error body (for example `status` on a 409). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (what: string): DomainError => new DomainError('not_found', `${what} not found`);
export const invalid = (message: string): DomainError => new DomainError('invalid_request', message);

/** Failure of a dependency or a job: carries whether a retry may succeed. */
export class JobFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}
