import { getEventListeners } from 'node:events';
import { CandidateSearch } from './client';
import { CandidateSearchError, ConflictError, NotFoundError, SearchFailedError, TimeoutError, ValidationError } from './errors';
import { fakeFetch, type Reply, type Route, type SeenRequest } from './testing/fake-fetch';

const SID = '5b0f0000-0000-4000-8000-000000000001';
const GID = '9c1e0000-0000-4000-8000-000000000002';
const created = { searchId: SID, searchGroupId: GID, status: 'processing', searchType: 'dense', query: 'q', estimatedTime: 'x' };
const running = { searchId: SID, searchGroupId: GID, status: 'processing', searchType: 'dense', query: 'q', estimatedCompletion: 'x' };
const completed = { searchId: SID, searchGroupId: GID, status: 'completed', searchType: 'dense', query: 'q', resultsCount: 1 };
const failed = {
  searchId: SID,
  searchGroupId: GID,
  status: 'failed',
  searchType: 'dense',
  query: 'q',
  error: 'no documents',
  errorRetryable: false,
};
const page = (offset: number, limit: number, total: number) => ({
  searchId: SID,
  results: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({ rank: offset + i + 1 })),
  pagination: { limit, offset, total, hasMore: offset + limit < total },
});

function client(route: Route, options: { directUploadMaxBytes?: number } = {}) {
  const fetch = fakeFetch(route);
  return { fetch, cs: new CandidateSearch({ baseUrl: 'https://api.test', apiKey: 'csk_test', fetch, ...options }) };
}
const isStatusPoll = (r: SeenRequest) => r.method === 'GET' && r.url.pathname === `/v1/public/searches/${SID}`;
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

async function settle<T>(promise: Promise<T>, seconds = 200): Promise<{ value?: T; error?: unknown; at: number }> {
  let at = 0;
  const result = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  void result.then(() => (at = Date.now()));
  for (let i = 0; i < seconds * 10; i++) await jest.advanceTimersByTimeAsync(100);
  return { ...(await result), at };
}

const T0 = new Date('2026-11-24T12:00:00Z').getTime();
beforeEach(() => jest.useFakeTimers({ now: T0 }));
afterEach(() => jest.useRealTimers());

describe('search() without Prefer: wait applied (polling)', () => {
  /** A search that completes on the nth status poll; results answer page 1. */
  const pollingServer =
    (completeOnPoll: number, extra: (poll: number) => Partial<Exclude<Reply, Error>> = () => ({})): Route =>
    (req, calls) => {
      if (req.method === 'POST') return { status: 202, body: created };
      if (req.url.pathname.endsWith('/results')) return { status: 200, body: page(0, 100, 1) };
      const poll = calls.filter(isStatusPoll).length;
      return { status: 200, body: poll >= completeOnPoll ? completed : running, ...extra(poll) };
    };

  it('asks for Prefer: wait, then polls at most once a second with a growing delay, and returns the first page', async () => {
    const { cs, fetch } = client(pollingServer(8));
    const { value } = await settle(cs.search('dense', 'accountant', { topK: 5 }));
    expect(value).toEqual({ search: completed, page: page(0, 100, 1) });
    expect(fetch.calls[0].headers.prefer).toBe('wait=30');
    expect(fetch.calls[0].body).toEqual({ query: 'accountant', top_k: 5 });
    const times = [fetch.calls[0].at, ...fetch.calls.filter(isStatusPoll).map((c) => c.at)];
    const between = gaps(times);
    expect(between).toHaveLength(8);
    for (const gap of between) expect(gap).toBeGreaterThanOrEqual(1_000);
    for (let i = 1; i < between.length; i++) expect(between[i]).toBeGreaterThanOrEqual(between[i - 1]);
    expect(between.at(-1)).toBeGreaterThan(between[0]);
  });

  it('waits at least a status answer’s Retry-After before the next poll', async () => {
    const { cs, fetch } = client(pollingServer(3, (poll) => (poll === 1 ? { headers: { 'retry-after': '6' } } : {})));
    await settle(cs.search('dense', 'q'));
    const polls = fetch.calls.filter(isStatusPoll).map((c) => c.at);
    expect(polls[1] - polls[0]).toBeGreaterThanOrEqual(6_000);
  });

  it('gives up after timeoutMs with a TimeoutError carrying the last status, having polled about once every few seconds', async () => {
    const { cs, fetch } = client(pollingServer(Infinity));
    const { error, at } = await settle(cs.search('hybrid', 'q'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ error: 'timeout', lastSeen: running });
    expect((error as Error).message).toContain(SID);
    expect(at - T0).toBeGreaterThanOrEqual(60_000);
    expect(at - T0).toBeLessThan(61_000);
    const polls = fetch.calls.filter(isStatusPoll).length;
    expect(polls).toBeGreaterThanOrEqual(10);
    expect(polls).toBeLessThanOrEqual(20);
  });

  it('honours a shorter timeoutMs, asking the server to wait only what fits', async () => {
    const { cs, fetch } = client(pollingServer(Infinity));
    const { error, at } = await settle(cs.search('dense', 'q', { timeoutMs: 10_000 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(at - T0).toBeLessThan(10_100);
    expect(fetch.calls[0].headers.prefer).toBe('wait=8');
    for (const poll of fetch.calls.filter(isStatusPoll)) {
      const wait = Number(/wait=(\d+)/.exec(poll.headers.prefer ?? 'wait=0')?.[1]);
      expect(poll.at - T0 + wait * 1000).toBeLessThanOrEqual(10_000);
    }
  });

  it('rejects a failed search with SearchFailedError carrying its error and errorRetryable, reading no results', async () => {
    const { cs, fetch } = client((req) => (req.method === 'POST' ? { status: 202, body: created } : { status: 200, body: failed }));
    const { error } = await settle(cs.search('sparse', 'the'));
    expect(error).toBeInstanceOf(SearchFailedError);
    expect(error).toBeInstanceOf(CandidateSearchError);
    expect(error).toMatchObject({
      searchId: SID,
      searchError: 'no documents',
      errorRetryable: false,
      retryable: false,
      error: 'search_failed',
    });
    expect(fetch.calls.some((c) => c.url.pathname.endsWith('/results'))).toBe(false);
  });

  it('rejects promptly with an AbortError when the signal aborts between polls, and polls no more', async () => {
    const { cs, fetch } = client(pollingServer(Infinity));
    const controller = new AbortController();
    const pending = cs.search('dense', 'q', { signal: controller.signal }).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(3_000);
    const before = fetch.calls.length;
    controller.abort();
    await jest.advanceTimersByTimeAsync(0);
    await expect(pending).resolves.toMatchObject({ name: 'AbortError' });
    await jest.advanceTimersByTimeAsync(30_000);
    expect(fetch.calls).toHaveLength(before);
  });
});

describe('search() where the server applies Prefer: wait', () => {
  const applied = { 'preference-applied': 'wait=30' };

  it('takes the status from creation’s 200 without polling', async () => {
    const { cs, fetch } = client((req) =>
      req.method === 'POST' ? { status: 200, body: completed, headers: applied } : { status: 200, body: page(0, 100, 1) },
    );
    const { value } = await settle(cs.search('dense', 'q'));
    expect(value?.search).toEqual(completed);
    expect(fetch.calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([
      'POST /v1/public/searches/dense',
      `GET /v1/public/searches/${SID}/results`,
    ]);
  });

  it('long polls the status right after a 202, keeping polls a second apart even when answers come back early', async () => {
    const { cs, fetch } = client((req, calls) => {
      if (req.method === 'POST') return { status: 202, body: created, headers: applied };
      if (req.url.pathname.endsWith('/results')) return { status: 200, body: page(0, 100, 1) };
      return { status: 200, body: calls.filter(isStatusPoll).length >= 4 ? completed : running, headers: applied };
    });
    await settle(cs.search('dense', 'q'));
    const polls = fetch.calls.filter(isStatusPoll);
    expect(polls[0].at - fetch.calls[0].at).toBeLessThan(1_000);
    expect(polls.every((p) => /^wait=\d+$/.test(p.headers.prefer ?? ''))).toBe(true);
    for (const gap of gaps(polls.map((p) => p.at))) expect(gap).toBeGreaterThanOrEqual(1_000);
  });
});

describe('similar()', () => {
  const DOC = '0b6f3c1e-8f4a-4c8e-9a57-1d2e3f4a5b6c';
  const similarCompleted = { ...completed, searchType: 'similar', query: '', similarTo: DOC };
  const applied = { 'preference-applied': 'wait=30' };

  it('creates a similar search from the document with Prefer: wait, and resolves with it and its first page', async () => {
    const { cs, fetch } = client((req) =>
      req.method === 'POST' ? { status: 200, body: similarCompleted, headers: applied } : { status: 200, body: page(0, 5, 1) },
    );
    const filters = { skills: { all: ['php'] } };
    const { value } = await settle(cs.similar(DOC, { topK: 40, filters, facets: ['seniority', 'skills'], limit: 5 }));
    expect(value).toEqual({ search: similarCompleted, page: page(0, 5, 1) });
    expect(fetch.calls.map((c) => `${c.method} ${c.url.pathname}${c.url.search}`)).toEqual([
      'POST /v1/public/searches/similar',
      `GET /v1/public/searches/${SID}/results?limit=5`,
    ]);
    expect(fetch.calls[0].headers.prefer).toBe('wait=30');
    expect(fetch.calls[0].body).toStrictEqual({ documentId: DOC, top_k: 40, filters, facets: ['seniority', 'skills'] });
  });

  it('never sends rerank_top_n, which the API refuses for a similar search, even when the options object carries one', async () => {
    const { cs, fetch } = client((req) =>
      req.method === 'POST' ? { status: 200, body: similarCompleted, headers: applied } : { status: 200, body: page(0, 100, 1) },
    );
    const shared = { topK: 10, rerankTopN: 5, searchGroupId: GID };
    await settle(cs.similar(DOC, shared));
    expect(fetch.calls[0].body).toStrictEqual({ documentId: DOC, top_k: 10, searchGroupId: GID });
  });

  it('follows a 202 as search() does, polling the status until it completes', async () => {
    const { cs, fetch } = client((req, calls) => {
      if (req.method === 'POST') return { status: 202, body: { ...created, searchType: 'similar', query: '', similarTo: DOC } };
      if (req.url.pathname.endsWith('/results')) return { status: 200, body: page(0, 100, 1) };
      return { status: 200, body: calls.filter(isStatusPoll).length >= 3 ? similarCompleted : running };
    });
    const { value } = await settle(cs.similar(DOC));
    expect(value?.search).toEqual(similarCompleted);
    expect(fetch.calls[0].body).toStrictEqual({ documentId: DOC });
    const polls = fetch.calls.filter(isStatusPoll);
    expect(polls).toHaveLength(3);
    for (const gap of gaps([fetch.calls[0].at, ...polls.map((p) => p.at)])) expect(gap).toBeGreaterThanOrEqual(1_000);
  });

  it('rejects with NotFoundError for a document the company does not have, and ConflictError for one not read yet, without waiting', async () => {
    const unknown = client(() => ({ status: 404, body: { error: 'not_found', message: 'document not found' } }));
    const notFound = await settle(unknown.cs.similar(DOC));
    expect(notFound.error).toBeInstanceOf(NotFoundError);
    expect(unknown.fetch.calls).toHaveLength(1);
    const message = `document ${DOC} is pending: a similar search starts from a CV that was read (status completed)`;
    const pending = client(() => ({ status: 409, body: { error: 'conflict', message } }));
    const conflict = await settle(pending.cs.similar(DOC));
    expect(conflict.error).toBeInstanceOf(ConflictError);
    expect(conflict.error).toMatchObject({ status: 409, message, retryable: false });
    expect(pending.fetch.calls).toHaveLength(1);
  });

  it('createSimilarSearch() starts one and returns the 202 body without waiting', async () => {
    const body = { ...created, searchType: 'similar', query: '', similarTo: DOC };
    const { cs, fetch } = client(() => ({ status: 202, body }));
    await expect(cs.createSimilarSearch(DOC, { topK: 5, searchGroupId: GID })).resolves.toEqual(body);
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls[0].headers.prefer).toBeUndefined();
    expect(fetch.calls[0].body).toStrictEqual({ documentId: DOC, top_k: 5, searchGroupId: GID });
  });
});

describe('match()', () => {
  const criteria = {
    title: 'Staff Accountant',
    summary: null,
    skills: { required: [{ name: 'General Ledger', weight: 1 }], preferred: [] },
    experienceYears: { min: 2 },
    seniority: null,
    location: null,
    degree: null,
    languages: [],
  };
  const matchCompleted = { ...completed, searchType: 'match', query: '', criteria, strict: false };
  const applied = { 'preference-applied': 'wait=30' };

  it('sends a posting’s text as jobDescription with Prefer: wait, and resolves with the search and its first page', async () => {
    const { cs, fetch } = client((req) =>
      req.method === 'POST' ? { status: 200, body: matchCompleted, headers: applied } : { status: 200, body: page(0, 5, 1) },
    );
    const { value } = await settle(cs.match('Staff Accountant\n- general ledger', { topK: 10, limit: 5, rerankTopN: 3 } as object));
    expect(value).toEqual({ search: matchCompleted, page: page(0, 5, 1) });
    expect(fetch.calls[0].url.pathname).toBe('/v1/public/searches/match');
    expect(fetch.calls[0].headers.prefer).toBe('wait=30');
    expect(fetch.calls[0].body).toStrictEqual({ jobDescription: 'Staff Accountant\n- general ledger', top_k: 10 });
  });

  it('sends criteria as criteria, and strict when asked; createMatchSearch() does not wait', async () => {
    const { cs, fetch } = client(() => ({ status: 202, body: { ...created, searchType: 'match', query: '', criteria, strict: true } }));
    await cs.createMatchSearch(criteria, { strict: true, filters: { seniority: ['senior'] } });
    expect(fetch.calls[0].headers.prefer).toBeUndefined();
    expect(fetch.calls[0].body).toStrictEqual({ criteria, strict: true, filters: { seniority: ['senior'] } });
  });
});

describe('waitForSearch({ events: true })', () => {
  const sse = (...events: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        // Split mid-event, as a network does.
        const bytes = new TextEncoder().encode(events.join(''));
        controller.enqueue(bytes.slice(0, 17));
        controller.enqueue(bytes.slice(17));
        controller.close();
      },
    });
  const event = (id: string, data: unknown) => `id: ${id}\nevent: status\ndata: ${JSON.stringify(data)}\n\n`;

  it('follows the status events, reconnecting with Last-Event-ID when the stream drops before the end', async () => {
    const { cs, fetch } = client((_req, calls) =>
      calls.length === 1
        ? { status: 200, body: sse('retry: 1500\n\n', event('1', running)), headers: { 'content-type': 'text/event-stream' } }
        : { status: 200, body: sse(event('2', completed)), headers: { 'content-type': 'text/event-stream' } },
    );
    const seen: string[] = [];
    const { value } = await settle(cs.waitForSearch(SID, { events: true, onStatus: (s) => seen.push(s.status) }));
    expect(value).toEqual(completed);
    expect(seen).toEqual(['processing', 'completed']);
    expect(fetch.calls.map((c) => c.url.pathname)).toEqual([`/v1/public/searches/${SID}/events`, `/v1/public/searches/${SID}/events`]);
    expect(fetch.calls[0].headers['last-event-id']).toBeUndefined();
    expect(fetch.calls[1].headers['last-event-id']).toBe('1');
    expect(fetch.calls[1].at - fetch.calls[0].at).toBeGreaterThanOrEqual(1_500);
  });

  it('reconnects for as long as the server ends quiet streams cleanly (heartbeats), without counting them as drops', async () => {
    const { cs, fetch } = client((_req, calls) =>
      calls.length <= 7
        ? { status: 200, body: sse('retry: 10\n\n', ': heartbeat\n\n'), headers: { 'content-type': 'text/event-stream' } }
        : { status: 200, body: sse(event('3', completed)), headers: { 'content-type': 'text/event-stream' } },
    );
    const seen: unknown[] = [];
    const caller = new AbortController();
    const drain = (async () => {
      for await (const e of cs.searchEvents(SID, { lastEventId: '2', maxReconnects: 2, signal: caller.signal })) seen.push(e.data);
    })();
    const { error } = await settle(drain);
    expect(error).toBeUndefined();
    expect(seen).toEqual([completed]);
    expect(fetch.calls).toHaveLength(8);
    // Each of the eight answers let go of the caller's signal once read.
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('ends at a 204 (Last-Event-ID was already the final state)', async () => {
    const { cs, fetch } = client(() => ({ status: 204 }));
    const seen: unknown[] = [];
    for await (const e of cs.searchEvents(SID, { lastEventId: '3' })) seen.push(e);
    expect(seen).toEqual([]);
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls[0].headers['last-event-id']).toBe('3');
  });

  it('polls instead where the server has no events route (404)', async () => {
    const { cs, fetch } = client((req) =>
      req.url.pathname.endsWith('/events')
        ? { status: 404, body: { error: 'not_found', message: 'no route' } }
        : { status: 200, body: completed },
    );
    const { value } = await settle(cs.waitForSearch(SID, { events: true }));
    expect(value).toEqual(completed);
    expect(fetch.calls.filter(isStatusPoll)).toHaveLength(1);
  });
});

describe('pagination', () => {
  it('results() walks every page of a search in order', async () => {
    const { cs, fetch } = client((req) => {
      const offset = Number(req.url.searchParams.get('offset'));
      return { status: 200, body: page(offset, Number(req.url.searchParams.get('limit')), 5) };
    });
    const ranks: number[] = [];
    for await (const item of cs.results(SID, { limit: 2 })) ranks.push(item.rank);
    expect(ranks).toEqual([1, 2, 3, 4, 5]);
    expect(fetch.calls.map((c) => c.url.searchParams.get('offset'))).toEqual(['0', '2', '4']);
  });

  it('documents() walks every page of a status, and stops early when the loop breaks', async () => {
    const { cs, fetch } = client((req) => {
      const offset = Number(req.url.searchParams.get('offset'));
      const limit = Number(req.url.searchParams.get('limit'));
      const data = Array.from({ length: Math.max(0, Math.min(limit, 7 - offset)) }, (_, i) => ({ documentId: `d${offset + i}` }));
      return { status: 200, body: { data, pagination: { limit, offset, total: 7, hasMore: offset + limit < 7 } } };
    });
    const ids: string[] = [];
    for await (const doc of cs.documents({ status: 'completed', pageSize: 3 })) ids.push(doc.documentId);
    expect(ids).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6']);
    expect(fetch.calls.every((c) => c.url.searchParams.get('status') === 'completed')).toBe(true);
    const before = fetch.calls.length;
    for await (const _doc of cs.documents({ pageSize: 3 })) break;
    expect(fetch.calls.length - before).toBe(1);
  });
});

describe('group()', () => {
  it('creates the searches in one group, one after another, waits for the group and returns its results', async () => {
    const members: string[] = [];
    const { cs, fetch } = client((req, calls) => {
      if (req.method === 'POST') {
        members.push(req.url.pathname.split('/').pop()!);
        return { status: 202, body: { ...created, searchGroupId: (req.body as { searchGroupId: string }).searchGroupId } };
      }
      if (req.url.pathname.endsWith('/results')) return { status: 200, body: { searchGroupId: GID, groupStatus: 'partial', searches: [] } };
      const groupPolls = calls.filter((c) => c.method === 'GET').length;
      return { status: 200, body: { searchGroupId: GID, groupStatus: groupPolls >= 3 ? 'partial' : 'processing', searches: [] } };
    });
    const { value } = await settle(cs.group('accountant', { topK: 10 }));
    expect(value).toMatchObject({ groupStatus: 'partial' });
    expect(members).toEqual(['dense', 'sparse', 'hybrid', 'builtin-rerank']);
    const posts = fetch.calls.filter((c) => c.method === 'POST');
    const groupId = (posts[0].body as { searchGroupId: string }).searchGroupId;
    expect(groupId).toMatch(/^[0-9a-f-]{36}$/);
    for (const post of posts) expect(post.body).toEqual({ query: 'accountant', top_k: 10, searchGroupId: groupId });
    const gets = fetch.calls.filter((c) => c.method === 'GET').map((c) => c.url.pathname);
    expect(gets).toEqual([...Array(3).fill(`/v1/public/searches/groups/${groupId}`), `/v1/public/searches/groups/${groupId}/results`]);
    for (const gap of gaps(
      fetch.calls
        .filter((c) => c.method === 'GET')
        .slice(0, 3)
        .map((c) => c.at),
    ))
      expect(gap).toBeGreaterThanOrEqual(1_000);
  });
});

describe('uploadFile()', () => {
  const accepted = { documentId: 'doc-1', status: 'uploading', duplicate: false };
  const bytes = new TextEncoder().encode('Anna Müller, Senior Accountant, Zürich');

  it('sends a small file as upload-direct’s body with its name, date and type', async () => {
    const { cs, fetch } = client(() => ({ status: 201, body: accepted }));
    const progress: string[] = [];
    const value = await cs.uploadFile(bytes, {
      fileName: 'anna.txt',
      documentDate: '03-2024',
      onProgress: (p) => progress.push(`${p.route} ${p.phase} ${p.bytesSent}/${p.totalBytes}`),
    });
    expect(value).toEqual(accepted);
    const [call] = fetch.calls;
    expect(`${call.method} ${call.url.pathname}`).toBe('POST /v1/public/documents/upload-direct');
    expect(Object.fromEntries(call.url.searchParams)).toEqual({ documentName: 'anna', documentDate: '03-2024', fileName: 'anna.txt' });
    expect(call.headers['content-type']).toBe('text/plain');
    expect(call.headers['idempotency-key']).toBeDefined();
    expect(call.body).toEqual(bytes);
    expect(progress).toEqual([`direct uploading 0/${bytes.length}`, `direct done ${bytes.length}/${bytes.length}`]);
  });

  it('counts the bytes as fetch reads them (Node), sending them with their Content-Length', async () => {
    const { cs, fetch } = client(() => ({ status: 201, body: accepted }));
    const big = new Uint8Array(200_000).fill(65);
    const sent: number[] = [];
    await cs.uploadFile(big, { fileName: 'long.txt', onProgress: (p) => sent.push(p.bytesSent) });
    expect(sent).toEqual([0, 65_536, 131_072, 196_608, 200_000]);
    expect(fetch.calls[0].headers['content-length']).toBe('200000');
    expect(fetch.calls[0].body).toEqual(big);
  });

  it('sends a file over directUploadMaxBytes through a presigned URL: create, PUT without the key, finalize', async () => {
    const { cs, fetch } = client(
      (req) => {
        if (req.url.pathname.endsWith('/upload-presigned'))
          return {
            status: 200,
            body: {
              uploadId: 'up-1',
              presignedUrl: 'https://storage.test/uploads/up-1?sig=abc',
              method: 'PUT',
              headers: { 'Content-Type': 'application/pdf' },
            },
          };
        if (req.method === 'PUT') return { status: 200, body: { uploadId: 'up-1', status: 'uploaded' } };
        return { status: 201, body: accepted };
      },
      { directUploadMaxBytes: 10 },
    );
    const blob = new Blob([bytes], { type: 'application/pdf' });
    await cs.uploadFile(blob, { fileName: 'cv.pdf', documentName: 'Anna', documentDate: '01-2025', documentType: 'cv' });
    expect(fetch.calls.map((c) => `${c.method} ${c.url.host}${c.url.pathname}`)).toEqual([
      'POST api.test/v1/public/documents/upload-presigned',
      'PUT storage.test/uploads/up-1',
      'POST api.test/v1/public/documents/upload-presigned-finalize',
    ]);
    expect(fetch.calls[0].body).toEqual({ fileName: 'cv.pdf', contentType: 'application/pdf', fileSize: bytes.length });
    expect(fetch.calls[1].headers['x-api-key']).toBeUndefined();
    expect(fetch.calls[1].headers['content-type']).toBe('application/pdf');
    expect(fetch.calls[1].url.searchParams.get('sig')).toBe('abc');
    expect(fetch.calls[2].body).toEqual({ uploadId: 'up-1', documentName: 'Anna', documentDate: '01-2025', documentType: 'cv' });
    expect(fetch.calls[0].headers['idempotency-key']).not.toBe(fetch.calls[2].headers['idempotency-key']);
  });

  it.each([
    ['a type the API does not take', new Uint8Array(3), 'photo.png', 'unsupported_media_type'],
    ['an empty file', new Uint8Array(0), 'cv.pdf', 'invalid_request'],
    ['a file over 10 MB', new Uint8Array(10 * 1024 * 1024 + 1), 'cv.pdf', 'payload_too_large'],
  ])('refuses %s before sending anything', async (_what, data, fileName, code) => {
    const { cs, fetch } = client(() => ({ status: 201, body: accepted }));
    await expect(cs.uploadFile(data, { fileName })).rejects.toMatchObject({ constructor: ValidationError, error: code, status: 0 });
    expect(fetch.calls).toHaveLength(0);
  });
});

describe('waitForDocuments()', () => {
  it('lists the in-flight documents each round and reads only those that left the lists, until all are final', async () => {
    const inFlight: Record<string, string[]> = { uploading: ['a'], pending: ['b', 'c', 'other'] };
    let round = 0;
    const { cs, fetch } = client((req) => {
      const status = req.url.searchParams.get('status');
      if (status) {
        if (status === 'uploading') round++;
        // Round 2: a and b are done; round 3: c too.
        const ids =
          round === 1
            ? inFlight[status]
            : round === 2
              ? status === 'pending'
                ? ['c', 'other']
                : []
              : status === 'pending'
                ? ['other']
                : [];
        return {
          status: 200,
          body: {
            data: ids.map((documentId) => ({ documentId })),
            pagination: { limit: 100, offset: 0, total: ids.length, hasMore: false },
          },
        };
      }
      const documentId = req.url.pathname.split('/').pop()!;
      return {
        status: 200,
        body: { documentId, status: documentId === 'b' ? 'invalid' : 'completed', message: documentId === 'b' ? 'not a CV' : null },
      };
    });
    const seen: string[] = [];
    const { value } = await settle(cs.waitForDocuments(['a', 'b', 'c'], { onDocument: (d) => seen.push(d.documentId) }));
    expect(value?.map((d) => `${d.documentId} ${d.status}`)).toEqual(['a completed', 'b invalid', 'c completed']);
    expect(seen).toEqual(['a', 'b', 'c']);
    const reads = fetch.calls.filter((c) => !c.url.searchParams.has('status')).map((c) => c.url.pathname.split('/').pop());
    expect(reads).toEqual(['a', 'b', 'c']);
  });

  it('gives up after timeoutMs with the documents that did finish', async () => {
    const { cs } = client((req) =>
      req.url.searchParams.get('status') === 'pending'
        ? { status: 200, body: { data: [{ documentId: 'slow' }], pagination: { limit: 100, offset: 0, total: 1, hasMore: false } } }
        : req.url.searchParams.has('status')
          ? { status: 200, body: { data: [], pagination: { limit: 100, offset: 0, total: 0, hasMore: false } } }
          : { status: 200, body: { documentId: 'fast', status: 'completed' } },
    );
    const { error } = await settle(cs.waitForDocuments(['fast', 'slow'], { timeoutMs: 20_000 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).lastSeen).toEqual([{ documentId: 'fast', status: 'completed' }]);
  });
});

describe('documentStatuses()', () => {
  const list = (ids: string[]) => ({
    status: 200,
    body: { data: ids.map((documentId) => ({ documentId })), pagination: { limit: 100, offset: 0, total: ids.length, hasMore: false } },
  });

  it('takes in-flight documents from the two lists, reads only the others, and reports a 404 as deleted, in the order asked', async () => {
    const { cs, fetch } = client((req) => {
      const status = req.url.searchParams.get('status');
      if (status === 'uploading') return list(['up', 'someone-else']);
      if (status === 'pending') return list(['pend']);
      const documentId = req.url.pathname.split('/').pop()!;
      if (documentId === 'gone') return { status: 404, body: { error: 'not_found', message: 'document not found' } };
      return documentId === 'bad'
        ? { status: 200, body: { documentId, status: 'invalid', message: 'Only 10 letters of text', error: null } }
        : {
            status: 200,
            body: { documentId, status: 'failed', message: null, error: { message: 'The file is encrypted', retryable: false } },
          };
    });
    const states = await cs.documentStatuses(['gone', 'up', 'bad', 'pend', 'locked', 'up']);
    expect([...states.keys()]).toEqual(['gone', 'up', 'bad', 'pend', 'locked']);
    expect([...states.values()].map((s) => [s.status, s.reason, s.document?.documentId])).toEqual([
      ['deleted', undefined, undefined],
      ['uploading', undefined, undefined],
      ['invalid', 'Only 10 letters of text', 'bad'],
      ['pending', undefined, undefined],
      ['failed', 'The file is encrypted', 'locked'],
    ]);
    const reads = fetch.calls.filter((c) => !c.url.searchParams.has('status')).map((c) => c.url.pathname.split('/').pop());
    expect(reads).toEqual(['gone', 'bad', 'locked']);
  });

  it('rejects with what else went wrong (a refused key), not a deleted document', async () => {
    const { cs } = client(() => ({ status: 401, body: { error: 'unauthorized', message: 'no key' } }));
    await expect(cs.documentStatuses(['a'])).rejects.toMatchObject({ status: 401 });
  });
});

describe('waitForDocuments() and a deleted document', () => {
  const route: Route = (req) => {
    if (req.url.searchParams.has('status'))
      return { status: 200, body: { data: [], pagination: { limit: 100, offset: 0, total: 0, hasMore: false } } };
    const documentId = req.url.pathname.split('/').pop()!;
    return documentId === 'gone'
      ? { status: 404, body: { error: 'not_found', message: 'document not found' } }
      : { status: 200, body: { documentId, status: 'completed' } };
  };

  it('reports it to onDeleted and resolves with the others', async () => {
    const { cs } = client(route);
    const deleted: string[] = [];
    const { value } = await settle(cs.waitForDocuments(['a', 'gone', 'b'], { onDeleted: (id) => deleted.push(id) }));
    expect(value?.map((d) => d.documentId)).toEqual(['a', 'b']);
    expect(deleted).toEqual(['gone']);
  });

  it('rejects with NotFoundError naming it without onDeleted', async () => {
    const { cs } = client(route);
    const { error } = await settle(cs.waitForDocuments(['a', 'gone']));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toContain('gone');
  });
});
