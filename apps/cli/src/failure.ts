import {
  AuthenticationError,
  CandidateSearchError,
  ConflictError,
  ConnectionError,
  GoneError,
  NotFoundError,
  RateLimitError,
  SearchFailedError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '@candidate-search/client/node';
import { CliError, ExitCode, exitCodeForStatus } from './exit-codes';

/** What the CLI prints for an error, and the code it exits with. */
export interface Failure {
  exitCode: ExitCode;
  message: string;
  hint?: string;
}

// By name: fetch's AbortError is a DOMException, not always an Error of this realm.
const isAbort = (error: unknown) => typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
const withRequestId = (error: CandidateSearchError) => (error.requestId ? ` (request id ${error.requestId})` : '');

/**
 * Any error a command ends with, as a message, a hint and an exit code (exit-codes.ts): the
 * CLI's own, each SDK error class by what it means, an abort as an interruption, and anything
 * else as unexpected.
 */
export function describeFailure(error: unknown, baseUrl?: string): Failure {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message, hint: error.hint };
  if (isAbort(error)) return { exitCode: ExitCode.interrupted, message: 'interrupted' };
  if (error instanceof AuthenticationError)
    return {
      exitCode: ExitCode.auth,
      message: `the API refused the key: ${error.message}`,
      hint: 'run candidate-search login with a valid key, or check --api-key and CANDIDATE_SEARCH_API_KEY',
    };
  if (error instanceof NotFoundError || error instanceof GoneError) return { exitCode: ExitCode.notFound, message: error.message };
  if (error instanceof RateLimitError) {
    const wait = error.retryAfter === undefined ? '' : `; retry in ${error.retryAfter} s`;
    return { exitCode: ExitCode.rateLimited, message: `rate limited: ${error.message}${wait}`, hint: error.hint };
  }
  if (error instanceof ConnectionError)
    return {
      exitCode: ExitCode.unavailable,
      message: `cannot reach the service${baseUrl ? ` at ${baseUrl}` : ''}: ${error.message}`,
      hint: 'is it running (npm start)? Set the address with --base-url or CANDIDATE_SEARCH_URL',
    };
  if (error instanceof ServerError)
    return { exitCode: ExitCode.unavailable, message: `the service failed: ${error.message}${withRequestId(error)}` };
  if (error instanceof TimeoutError) return { exitCode: ExitCode.unavailable, message: `gave up waiting: ${error.message}` };
  if (error instanceof SearchFailedError)
    return error.errorRetryable
      ? { exitCode: ExitCode.unavailable, message: error.message, hint: 'the failure is temporary: search again in a few seconds' }
      : { exitCode: ExitCode.usage, message: error.message, hint: 'change the query: a new search fails the same way' };
  if (error instanceof ValidationError) return { exitCode: ExitCode.usage, message: `the API refused the request: ${error.message}` };
  if (error instanceof ConflictError) return { exitCode: ExitCode.unexpected, message: error.message };
  if (error instanceof CandidateSearchError)
    return {
      exitCode: error.status ? exitCodeForStatus(error.status) : ExitCode.unexpected,
      message: `${error.message}${withRequestId(error)}`,
    };
  return { exitCode: ExitCode.unexpected, message: `unexpected error: ${error instanceof Error ? error.message : String(error)}` };
}
