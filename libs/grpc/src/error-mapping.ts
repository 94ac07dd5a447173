import { status, type ServiceError } from '@grpc/grpc-js';
import { DomainError, JobFailure, type ErrorCode } from '@cs/contracts';
import { EncoderUnavailableError } from '@cs/ports';

/** The one table from our error codes to gRPC status codes; a new code without a case fails to compile. */
export function grpcStatusOf(code: ErrorCode): status {
  switch (code) {
    case 'invalid_request':
      return status.INVALID_ARGUMENT;
    case 'unauthorized':
      return status.UNAUTHENTICATED;
    case 'not_found':
      return status.NOT_FOUND;
    case 'method_not_allowed':
      return status.UNIMPLEMENTED;
    case 'not_acceptable':
      return status.INVALID_ARGUMENT;
    case 'conflict':
      return status.FAILED_PRECONDITION;
    case 'idempotency_key_in_use':
      return status.ABORTED;
    case 'idempotency_key_reused':
      return status.INVALID_ARGUMENT;
    case 'gone':
      return status.NOT_FOUND;
    case 'payload_too_large':
      return status.RESOURCE_EXHAUSTED;
    case 'unsupported_media_type':
      return status.INVALID_ARGUMENT;
    case 'unprocessable':
      return status.INVALID_ARGUMENT;
    case 'rate_limit_exceeded':
      return status.RESOURCE_EXHAUSTED;
    case 'request_header_fields_too_large':
      return status.INVALID_ARGUMENT;
    case 'internal_error':
      return status.INTERNAL;
    case 'service_unavailable':
      return status.UNAVAILABLE;
  }
}

/** Server side: what a handler threw, as the error grpc-js sends. */
export function toServiceError(error: unknown): Partial<ServiceError> {
  if (error instanceof DomainError) return { code: grpcStatusOf(error.code), details: error.message };
  // A hosted encoder's outage: the caller's retry may find it back.
  if (error instanceof EncoderUnavailableError) return { code: status.UNAVAILABLE, details: error.message };
  if (error instanceof JobFailure)
    return { code: error.retryable ? status.UNAVAILABLE : status.FAILED_PRECONDITION, details: error.message };
  // An adapter's error that says no retry can help (a hosted API refusing the key or the input).
  if (error instanceof Error && (error as { retryable?: unknown }).retryable === false)
    return { code: status.FAILED_PRECONDITION, details: error.message };
  return { code: status.INTERNAL, details: error instanceof Error ? error.message : String(error) };
}

/** Statuses after which the same call may succeed later. */
const RETRYABLE = new Set<status>([
  status.UNAVAILABLE,
  status.DEADLINE_EXCEEDED,
  status.RESOURCE_EXHAUSTED,
  status.ABORTED,
  status.INTERNAL,
  status.UNKNOWN,
  status.CANCELLED,
  // A method an older service lacks: during a rolling upgrade, it has it once upgraded.
  status.UNIMPLEMENTED,
]);

/** Client side: a failed call as a JobFailure that says whether a retry may help. */
export function fromServiceError(service: string, method: string, error: ServiceError): JobFailure {
  const what =
    error.code === status.DEADLINE_EXCEEDED
      ? 'did not answer in time'
      : error.code === status.UNAVAILABLE
        ? 'is unavailable'
        : error.code === status.UNIMPLEMENTED
          ? 'does not have this method yet (it is older than this caller)'
          : `failed (${status[error.code]})`;
  return new JobFailure(`the ${service} service ${what} on ${method}: ${error.details || error.message}`, RETRYABLE.has(error.code));
}
