import { CandidateSearch } from './client';
import {
  AuthenticationError,
  CandidateSearchError,
  ConflictError,
  ConnectionError,
  GoneError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './errors';
import { fakeFetch, type Route } from './testing/fake-fetch';
import type { RetryEvent } from './transport';

const DOC = '7d2a0000-0000-4000-8000-000000000001';
const docBody = { documentId: DOC, status: 'completed' };

function client(route: Route, maxRetries = 2) {
  const fetch = fakeFetch(route);
  return { fetch, cs: new CandidateSearch({ baseUrl: 'https://api.test/', apiKey: 'csk_test', fetch, maxRetries }) };
}

/** Runs a promise to its end while the fake clock advances, and returns how it settled. */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const result = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  for (let i = 0; i < 200; i++) await jest.advanceTimersByTimeAsync(1_000);
  return result;
}

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-24T12:00:00Z') }));
afterEach(() => jest.useRealTimers());

describe('requests', () => {
  it('send the key, a user agent and JSON to the path under baseUrl', async () => {
    const { cs, fetch } = client(() => ({ status: 200, body: docBody }));
    await expect(cs.getDocument(DOC)).resolves.toEqual(docBody);
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls[0].url.toString()).toBe(`https://api.test/v1/public/documents/${DOC}`);
    expect(fetch.calls[0].headers['x-api-key']).toBe('csk_test');
    expect(fetch.calls[0].headers['user-agent']).toMatch(/^candidate-search-client\/\d+\.\d+\.\d+$/);
    expect(fetch.calls[0].headers['idempotency-key']).toBeUndefined();
  });

  it('keep a path prefix of baseUrl (a gateway behind /api)', async () => {
    const fetch = fakeFetch(() => ({ status: 200, body: docBody }));
    await new CandidateSearch({ baseUrl: 'https://host.test/api', apiKey: 'k', fetch }).getDocument(DOC);
    expect(fetch.calls[0].url.pathname).toBe(`/api/v1/public/documents/${DOC}`);
  });
});

describe('error mapping', () => {
  const cases: [number, string, new (...args: never[]) => CandidateSearchError][] = [
    [400, 'invalid_request', ValidationError],
    [401, 'unauthorized', AuthenticationError],
    [404, 'not_found', NotFoundError],
    [409, 'conflict', ConflictError],
    [410, 'gone', GoneError],
    [413, 'payload_too_large', ValidationError],
    [415, 'unsupported_media_type', ValidationError],
    [422, 'unprocessable', ValidationError],
    [500, 'internal_error', ServerError],
    [503, 'service_unavailable', ServerError],
  ];
  it.each(cases)('maps %i %s to its class with the body, request id and rate-limit headers', async (status, code, Class) => {
    const { cs } = client(() => ({
      status,
      body: { error: code, message: `a ${code}` },
      headers: { 'x-request-id': 'req-1', 'ratelimit-limit': '100', 'ratelimit-remaining': '7', 'ratelimit-reset': '1795000000' },
    }));
    const { error } = await settle(cs.getDocument(DOC));
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(CandidateSearchError);
    expect(error).toMatchObject({
      status,
      error: code,
      message: `a ${code}`,
      requestId: 'req-1',
      limit: 100,
      remaining: 7,
      reset: 1795000000,
      retryable: status >= 500,
    });
  });

  it('reads a 429’s limit, window, hint and retryAfter (header first, body when the header is absent)', async () => {
    const body = { error: 'rate_limit_exceeded', message: 'slow down', limit: 10, window: '1 minute', retryAfter: '42', hint: 'pace' };
    const { cs } = client(() => ({ status: 429, body }), 0);
    const { error } = await settle(cs.getDocument(DOC));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfter: 42, window: '1 minute', hint: 'pace', retryable: true });
  });

  it('gives a 409 on results its search status, error and errorRetryable', async () => {
    const body = { error: 'conflict', message: 'failed', status: 'failed', searchError: 'no documents', errorRetryable: false };
    const { cs } = client(() => ({ status: 409, body }));
    const { error } = await settle(cs.getResults(DOC));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ searchStatus: 'failed', searchError: 'no documents', errorRetryable: false });
  });

  it('turns a network failure into a ConnectionError (status 0) after its retries', async () => {
    const { cs, fetch } = client(() => new TypeError('fetch failed'));
    const { error } = await settle(cs.getDocument(DOC));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ status: 0, error: 'network_error', retryable: true });
    expect(fetch.calls).toHaveLength(3);
  });
});

describe('retries', () => {
  it.each([400, 401, 403, 404, 410, 413, 415, 422])('never retry a %i', async (status) => {
    const { cs, fetch } = client(() => ({ status, body: { error: 'x', message: 'no' } }), 5);
    await settle(cs.getDocument(DOC));
    expect(fetch.calls).toHaveLength(1);
  });

  it('retry 5xx and network errors with full jitter, up to maxRetries, then succeed', async () => {
    const { cs, fetch } = client((_req, calls) =>
      calls.length === 1
        ? new TypeError('socket hang up')
        : calls.length === 2
          ? { status: 502, body: {} }
          : { status: 200, body: docBody },
    );
    const { value } = await settle(cs.getDocument(DOC));
    expect(value).toEqual(docBody);
    expect(fetch.calls).toHaveLength(3);
    // Full jitter: each pause is below base * 2^attempt (500 ms, then 1 s).
    expect(fetch.calls[1].at - fetch.calls[0].at).toBeLessThan(500 + 1_000);
    expect(fetch.calls[2].at - fetch.calls[1].at).toBeLessThan(1_000 + 1_000);
  });

  it('stop after maxRetries 5xx answers and throw the last', async () => {
    const { cs, fetch } = client(() => ({ status: 500, body: { error: 'internal_error', message: 'boom' } }), 3);
    const { error } = await settle(cs.getDocument(DOC));
    expect(error).toBeInstanceOf(ServerError);
    expect(fetch.calls).toHaveLength(4);
  });

  it('wait a 429’s Retry-After before retrying, never sooner', async () => {
    const { cs, fetch } = client((_req, calls) =>
      calls.length === 1
        ? {
            status: 429,
            body: { error: 'rate_limit_exceeded', message: 'x', limit: 100, window: '1 minute', retryAfter: '7' },
            headers: { 'retry-after': '7' },
          }
        : { status: 200, body: docBody },
    );
    const { value } = await settle(cs.getDocument(DOC));
    expect(value).toEqual(docBody);
    expect(fetch.calls[1].at - fetch.calls[0].at).toBeGreaterThanOrEqual(7_000);
    expect(fetch.calls[1].at - fetch.calls[0].at).toBeLessThan(8_000);
  });

  it('wait a 503’s Retry-After, when it names one, rather than the jittered pause', async () => {
    const { cs, fetch } = client((_req, calls) =>
      calls.length === 1
        ? { status: 503, body: { error: 'service_unavailable', message: 'x' }, headers: { 'retry-after': '5' } }
        : { status: 200, body: docBody },
    );
    await settle(cs.getDocument(DOC));
    expect(fetch.calls[1].at - fetch.calls[0].at).toBeGreaterThanOrEqual(5_000);
  });

  it('send one Idempotency-Key across a POST’s retries, and a new one for the next call', async () => {
    const created = { searchId: DOC, searchGroupId: DOC, status: 'processing' };
    const { cs, fetch } = client((_req, calls) => (calls.length === 1 ? { status: 503, body: {} } : { status: 202, body: created }));
    await settle(cs.createSearch('dense', 'accountant'));
    await settle(cs.createSearch('dense', 'accountant'));
    const keys = fetch.calls.map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(fetch.calls[0].body).toEqual({ query: 'accountant' });
  });

  it('retry a 409 only when an earlier attempt of the POST is still running (idempotency_key_in_use), after its Retry-After', async () => {
    const created = { searchId: DOC, searchGroupId: DOC, status: 'processing' };
    const inUse = {
      status: 409,
      body: { error: 'idempotency_key_in_use', message: 'a request with this Idempotency-Key is in progress' },
      headers: { 'retry-after': '2' },
    };
    const retried = client((_req, calls) =>
      calls.length === 1 ? new TypeError('reset') : calls.length === 2 ? inUse : { status: 202, body: created },
    );
    expect((await settle(retried.cs.createSearch('dense', 'q'))).value).toEqual(created);
    expect(retried.fetch.calls).toHaveLength(3);
    expect(retried.fetch.calls[2].at - retried.fetch.calls[1].at).toBeGreaterThanOrEqual(2_000);

    const full = client(() => ({ status: 409, body: { error: 'conflict', message: 'the search group is full' } }));
    expect((await settle(full.cs.createSearch('dense', 'q'))).error).toBeInstanceOf(ConflictError);
    expect(full.fetch.calls).toHaveLength(1);
  });

  it('abort promptly, mid-pause, with an AbortError and no further request', async () => {
    const { cs, fetch } = client(() => ({ status: 503, body: {} }), 5);
    const controller = new AbortController();
    const pending = cs.getDocument(DOC, { signal: controller.signal }).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(1);
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(fetch.calls).toHaveLength(1);
  });
});

describe('onRetry', () => {
  const limited = {
    status: 429,
    body: { error: 'rate_limit_exceeded', message: 'x', limit: 10, window: '10 seconds', retryAfter: '3' },
    headers: { 'retry-after': '3', 'ratelimit-limit': '10', 'ratelimit-remaining': '0' },
  };

  it('tells the client’s and the call’s hooks of each retry before its pause: attempt, delay, reason and the 429’s limits', async () => {
    const fetch = fakeFetch((_req, calls) =>
      calls.length === 1 ? limited : calls.length === 2 ? { status: 502, body: {} } : { status: 200, body: docBody },
    );
    const seenByClient: RetryEvent[] = [];
    const seenByCall: RetryEvent[] = [];
    const cs = new CandidateSearch({ baseUrl: 'https://api.test', apiKey: 'k', fetch, onRetry: (r) => seenByClient.push(r) });
    const pending = settle(cs.getDocument(DOC, { onRetry: (r) => seenByCall.push(r) }));
    await jest.advanceTimersByTimeAsync(0);
    // Told at once, while the 3 s wait is still ahead.
    expect(seenByCall).toHaveLength(1);
    expect(fetch.calls).toHaveLength(1);
    expect((await pending).value).toEqual(docBody);
    expect(seenByClient.map((r) => [r.attempt, r.reason, r.method, r.path])).toEqual([
      [1, 'rate-limited', 'GET', `/v1/public/documents/${DOC}`],
      [2, 'server-error', 'GET', `/v1/public/documents/${DOC}`],
    ]);
    expect(seenByCall.map((r) => r.reason)).toEqual(['rate-limited', 'server-error']);
    const [first] = seenByClient;
    expect(first.error).toBeInstanceOf(RateLimitError);
    expect(first.error).toMatchObject({ retryAfter: 3, limit: 10, remaining: 0, window: '10 seconds' });
    expect(first.delayMs).toBeGreaterThanOrEqual(3_000);
    expect(first.delayMs).toBeLessThan(3_250);
    expect(fetch.calls[1].at - fetch.calls[0].at).toBe(first.delayMs);
  });

  it('names a lost connection, and is not called for an answer that is not retried nor once retries are spent', async () => {
    const lost = client(() => new TypeError('fetch failed'), 1);
    const reasons: string[] = [];
    await settle(lost.cs.getDocument(DOC, { onRetry: (r) => reasons.push(r.reason) }));
    expect(reasons).toEqual(['connection']);
    expect(lost.fetch.calls).toHaveLength(2);

    const refused = client(() => ({ status: 401, body: { error: 'unauthorized', message: 'no' } }));
    const none: unknown[] = [];
    await settle(refused.cs.getDocument(DOC, { onRetry: (r) => none.push(r) }));
    expect(none).toEqual([]);
  });

  it('reaches the requests of a composite call (search() polls, reads results)', async () => {
    const reasons: string[] = [];
    const { cs } = client((req, calls) => {
      if (req.method === 'POST') return { status: 202, body: { searchId: DOC, searchGroupId: DOC, status: 'processing' } };
      if (req.url.pathname.endsWith('/results'))
        return calls.filter((c) => c.url.pathname.endsWith('/results')).length === 1
          ? { status: 503, body: {} }
          : { status: 200, body: { results: [], pagination: { limit: 100, offset: 0, total: 0, hasMore: false } } };
      return { status: 200, body: { searchId: DOC, status: 'completed', searchType: 'dense' } };
    });
    await settle(cs.search('dense', 'q', { onRetry: (r) => reasons.push(`${r.reason} ${r.path.split('/').pop()}`) }));
    expect(reasons).toEqual(['server-error results']);
  });
});
