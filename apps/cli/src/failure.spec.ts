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
  type FailedSearch,
} from '@candidate-search/client/node';
import { CliError, ExitCode, exitCodeForStatus } from './exit-codes';
import { describeFailure } from './failure';

const init = (status: number, error: string, message = 'm') => ({ status, error, message, retryable: status >= 500 || status === 429 });
const failed = (errorRetryable: boolean): FailedSearch =>
  ({
    searchId: '5b0f0000-0000-4000-8000-000000000000',
    searchGroupId: '9c1e0000-0000-4000-8000-000000000000',
    status: 'failed',
    query: 'q',
    searchType: 'dense',
    createdAt: '2026-11-24T19:00:00.000Z',
    error: 'no word of the query is known',
    errorRetryable,
  }) as FailedSearch;

describe('describeFailure', () => {
  it.each([
    ['a refused key (401)', new AuthenticationError(init(401, 'unauthorized')), ExitCode.auth],
    ['an unknown document (404)', new NotFoundError(init(404, 'not_found')), ExitCode.notFound],
    ['a deleted upload (410)', new GoneError(init(410, 'gone')), ExitCode.notFound],
    ['a rate limit (429)', new RateLimitError({ ...init(429, 'rate_limit_exceeded'), retryAfter: 12 }), ExitCode.rateLimited],
    ['a server error (500)', new ServerError(init(500, 'internal_error')), ExitCode.unavailable],
    ['no answer at all', new ConnectionError(init(0, 'network_error')), ExitCode.unavailable],
    ['a wait that gave up', new TimeoutError({ message: 'still processing' }), ExitCode.unavailable],
    ['a refused request (400)', new ValidationError(init(400, 'invalid_request')), ExitCode.usage],
    ['a file the client refused before sending', new ValidationError(init(0, 'payload_too_large')), ExitCode.usage],
    ['a conflict (409)', new ConflictError(init(409, 'conflict')), ExitCode.unexpected],
    ['a search that failed for good', new SearchFailedError(failed(false)), ExitCode.usage],
    ['a search that failed for now', new SearchFailedError(failed(true)), ExitCode.unavailable],
    ['an SDK error of another status', new CandidateSearchError(init(503, 'service_unavailable')), ExitCode.unavailable],
    ['the CLI’s own error', new CliError('no such file or folder: x', ExitCode.usage), ExitCode.usage],
    ['an abort (Ctrl-C)', new DOMException('aborted', 'AbortError'), ExitCode.interrupted],
    ['anything else', new TypeError('x is undefined'), ExitCode.unexpected],
  ])('exits with the code of %s', (_, error, code) => {
    expect(describeFailure(error).exitCode).toBe(code);
  });

  it('says how to recover where it can: log in again, start the service, wait for the limit', () => {
    expect(describeFailure(new AuthenticationError(init(401, 'unauthorized', 'invalid or revoked API key')))).toEqual({
      exitCode: 3,
      message: 'the API refused the key: invalid or revoked API key',
      hint: expect.stringContaining('candidate-search login'),
    });
    expect(describeFailure(new ConnectionError(init(0, 'network_error', 'fetch failed')), 'http://localhost:8080')).toMatchObject({
      message: 'cannot reach the service at http://localhost:8080: fetch failed',
      hint: expect.stringContaining('npm start'),
    });
    expect(
      describeFailure(new RateLimitError({ ...init(429, 'rate_limit_exceeded', 'Search rate limit exceeded'), retryAfter: 12 })).message,
    ).toBe('rate limited: Search rate limit exceeded; retry in 12 s');
    expect(describeFailure(new ServerError({ ...init(500, 'internal_error', 'internal error'), requestId: 'req-1' })).message).toContain(
      'request id req-1',
    );
  });
});

describe('exitCodeForStatus', () => {
  it('maps each kind of HTTP status to the code that names it', () => {
    expect([400, 401, 403, 404, 408, 409, 410, 413, 415, 422, 429, 500, 502, 503].map(exitCodeForStatus)).toEqual([
      2, 3, 3, 4, 6, 1, 4, 2, 2, 2, 5, 6, 6, 6,
    ]);
  });
});
