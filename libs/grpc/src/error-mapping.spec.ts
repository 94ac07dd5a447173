import { status, type ServiceError } from '@grpc/grpc-js';
import { fromServiceError } from './error-mapping';

const failed = (code: status, details: string) =>
  Object.assign(new Error(details), { code, details, metadata: undefined }) as unknown as ServiceError;

describe('fromServiceError', () => {
  it('says a method an older service lacks may succeed later, once it is upgraded', () => {
    const failure = fromServiceError('sparse', 'DocumentsWithPhrase', failed(status.UNIMPLEMENTED, 'Method not found'));
    expect(failure.retryable).toBe(true);
    expect(failure.message).toMatch(/sparse service does not have this method yet \(it is older than this caller\) on DocumentsWithPhrase/);
  });

  it('says a refused argument will be refused again', () => {
    expect(fromServiceError('dense', 'Search', failed(status.INVALID_ARGUMENT, 'filter_json: bad')).retryable).toBe(false);
    expect(fromServiceError('dense', 'Search', failed(status.UNAVAILABLE, 'down')).retryable).toBe(true);
  });
});
