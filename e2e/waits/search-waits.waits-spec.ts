import { request as httpRequest, type IncomingMessage } from 'node:http';
import { ApiClient } from '../support/api-client';
import { ClusterServices } from '../support/cluster-services';
import { TEXT, TEXT_CVS, createCompany } from '../support/fixtures';
import { MODES, clusterAvailable, describeMode, type ServiceUnderTest } from '../support/service-under-test';
import { StandaloneService } from '../support/standalone-service';

jest.setTimeout(300_000);

interface StreamEvent {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/** An event stream read as it arrives: its status and headers, each event parsed, and its end. */
class EventStream {
  readonly events: StreamEvent[] = [];
  private buffer = '';
  private waiters: (() => void)[] = [];
  ended = false;
  readonly done: Promise<void>;

  private constructor(readonly res: IncomingMessage) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.buffer += chunk;
      let at: number;
      while ((at = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 2);
        const event: StreamEvent = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) event.comment = line.slice(1).trim();
          else {
            const [field, ...rest] = line.split(':');
            (event as Record<string, string>)[field] = rest.join(':').replace(/^ /, '');
          }
        }
        this.events.push(event);
      }
      this.wake();
    });
    this.done = new Promise((resolve) =>
      res.once('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      }),
    );
  }

  static open(baseUrl: string, path: string, headers: Record<string, string>): Promise<EventStream> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${baseUrl}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) =>
        resolve(new EventStream(res)),
      );
      req.on('error', reject);
      req.end();
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  /** The status events so far, as [id, status]. */
  statuses(): [string | undefined, string][] {
    return this.events.filter((e) => e.event === 'status').map((e) => [e.id, (JSON.parse(e.data!) as { status: string }).status]);
  }

  /** Waits until `ready` holds of the events (or the stream ended), at most `ms`. */
  async until(ready: (s: EventStream) => boolean, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!ready(this) && !this.ended) {
      if (Date.now() > deadline) throw new Error(`the stream did not get there in ${ms} ms: ${JSON.stringify(this.events)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  close(): void {
    this.res.destroy();
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

/** A company with room for the suite's requests, four CVs uploaded and searchable. */
async function setUpCompany(service: ServiceUnderTest, name: string): Promise<ApiClient> {
  const { apiKey } = await createCompany(service, name, 100_000);
  const client = new ApiClient(service.baseUrl, apiKey);
  const ids: string[] = [];
  for (const [i, text] of Object.values(TEXT_CVS).entries())
    ids.push((await client.upload(Buffer.from(text), TEXT, { documentName: `cv${i}`, documentDate: '01-2024' })).body.documentId);
  await client.waitForDocuments(ids);
  return client;
}

const timed = async <T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> => {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
};

for (const mode of MODES)
  describeMode(mode)(`no blind polling: Prefer: wait, event streams, ETags (${mode.name} mode)`, () => {
    let service: ServiceUnderTest;
    let client: ApiClient;

    beforeAll(async () => {
      service = await mode.start();
      client = await setUpCompany(service, 'waits');
    });
    afterAll(() => service?.destroy());

    const createDense = (prefer?: string) =>
      client.request('POST', '/v1/public/searches/dense', {
        json: { query: 'accountant general ledger' },
        headers: prefer ? { prefer } : {},
      });

    it('answers a dense search created with Prefer: wait=10 with 200 and its completed status, in one round trip', async () => {
      const { value: answer, ms } = await timed(() => createDense('wait=10'));
      console.log(
        `${mode.name}: POST /v1/public/searches/dense with Prefer: wait=10 answered ${answer.status} ${answer.body.status} in ${ms.toFixed(0)} ms (client-seen)`,
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('preference-applied')).toBe('wait=10');
      expect(answer.headers.get('vary')).toMatch(/\bPrefer\b/);
      expect(answer.body).toMatchObject({ status: 'completed', searchType: 'dense', resultsUrl: expect.any(String) });
      // The same body as the status GET.
      const status = await client.get(`/v1/public/searches/${answer.body.searchId}`);
      expect(status.body).toEqual(answer.body);
      expect(ms).toBeLessThan(10_000);
    });

    it('answers 202 with the creation body without a wait, or with a malformed one (no Preference-Applied)', async () => {
      for (const prefer of [undefined, 'wait=-1', 'wait=abc', 'wait=1.5', 'wait="3"']) {
        const answer = await createDense(prefer);
        expect({ prefer, status: answer.status, applied: answer.headers.get('preference-applied') }).toEqual({
          prefer,
          status: 202,
          applied: null,
        });
        expect(answer.body).toMatchObject({ status: 'processing', statusUrl: expect.any(String) });
        expect(answer.headers.get('vary')).toMatch(/\bPrefer\b/);
      }
    });

    it('caps a huge wait at 30 seconds, and answers a status GET with wait once the search has ended', async () => {
      const created = await createDense(`wait=${'9'.repeat(50)}`);
      expect(created.headers.get('preference-applied')).toBe('wait=30');
      const { value: status, ms } = await timed(() =>
        client.request('GET', `/v1/public/searches/${created.body.searchId}`, { headers: { prefer: 'wait=30' } }),
      );
      expect(status.status).toBe(200);
      expect(status.body.status).toBe('completed');
      expect(status.headers.get('preference-applied')).toBe('wait=30');
      expect(ms).toBeLessThan(15_000); // not the 30 s of the wait
    });

    it('waits on a group until every search of it ended', async () => {
      const first = await createDense();
      const group = first.body.searchGroupId as string;
      await client.post('/v1/public/searches/sparse', { query: 'accountant, ledger', searchGroupId: group });
      const answer = await client.request('GET', `/v1/public/searches/groups/${group}`, { headers: { prefer: 'wait=20' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('preference-applied')).toBe('wait=20');
      expect(answer.body.groupStatus).toBe('completed');
      expect(answer.body.searches.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed']);
    });

    it('answers 304 to If-None-Match with the current ETag, with ETag, X-Request-Id and RateLimit-*; result pages have ETags of their own', async () => {
      const { body } = await createDense('wait=10');
      const path = `/v1/public/searches/${body.searchId}`;
      const first = await client.get(path);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"[\w-]+"$/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      const again = await client.request('GET', path, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.body).toBeNull();
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('x-request-id')).toBeTruthy();
      expect(again.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
      expect((await client.request('GET', path, { headers: { 'if-none-match': 'W/"other"' } })).status).toBe(200);

      const results = `${path}/results`;
      const pages = await Promise.all([results, `${results}?limit=1`, `${results}?include=extractedText`].map((p) => client.get(p)));
      const etags = pages.map((p) => p.headers.get('etag'));
      expect(new Set(etags).size).toBe(3);
      expect((await client.request('GET', `${results}?limit=1`, { headers: { 'if-none-match': etags[1]! } })).status).toBe(304);
      expect((await client.request('GET', results, { headers: { 'if-none-match': etags[1]! } })).status).toBe(200);

      const group = `/v1/public/searches/groups/${body.searchGroupId}`;
      for (const p of [group, `${group}/results`]) {
        const answer = await client.get(p);
        expect((await client.request('GET', p, { headers: { 'if-none-match': answer.headers.get('etag')! } })).status).toBe(304);
      }
    });

    it('streams an ended search’s status as one event and closes; the client that has it gets 204', async () => {
      const { body } = await createDense('wait=10');
      const events = `/v1/public/searches/${body.searchId}/events`;
      const stream = await EventStream.open(service.baseUrl, events, { 'x-api-key': client.apiKey!, 'accept-encoding': 'gzip' });
      await stream.done;
      expect(stream.status).toBe(200);
      expect(stream.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      // Not compressed, so never held back by the compression middleware.
      expect(stream.res.headers['content-encoding']).toBeUndefined();
      expect(stream.events[0]).toEqual({ retry: '3000' });
      expect(stream.statuses()).toEqual([['3', 'completed']]);
      const status = await client.get(`/v1/public/searches/${body.searchId}`);
      expect(JSON.parse(stream.events[1].data!)).toEqual(status.body);

      const resumed = await EventStream.open(service.baseUrl, events, { 'x-api-key': client.apiKey!, 'last-event-id': '3' });
      await resumed.done;
      expect(resumed.status).toBe(204);
      // An id that is not one of ours counts as none: the state is sent.
      const bogus = await EventStream.open(service.baseUrl, events, { 'x-api-key': client.apiKey!, 'last-event-id': 'x' });
      await bogus.done;
      expect(bogus.statuses()).toEqual([['3', 'completed']]);
    });

    it('answers a stream it cannot serve with the JSON error body: 406, 404, 400, 401', async () => {
      const { body } = await createDense();
      const events = `/v1/public/searches/${body.searchId}/events`;
      const json = await client.request('GET', events, { headers: { accept: 'application/json' } });
      expect(json.status).toBe(406);
      expect(json.body).toEqual({ error: 'not_acceptable', message: expect.stringContaining('text/event-stream') });
      const unknown = await client.get(`/v1/public/searches/${crypto.randomUUID()}/events`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('not_found');
      const other = new ApiClient(service.baseUrl, (await createCompany(service, 'other')).apiKey);
      expect((await other.get(events)).status).toBe(404);
      expect((await client.get('/v1/public/searches/not-a-uuid/events')).body).toEqual({
        error: 'invalid_request',
        message: 'searchId must be a UUID',
      });
      expect((await client.request('GET', events, { withoutKey: true })).status).toBe(401);
    });
  });

describeMode(MODES[0])('event streams across a restart (standalone mode, the same data folder)', () => {
  let service: StandaloneService;
  afterAll(() => service?.destroy());

  it('sends a client resuming with Last-Event-ID only the states it lacks', async () => {
    service = await StandaloneService.start();
    const client = await setUpCompany(service, 'restart');
    const { body } = await client.request('POST', '/v1/public/searches/dense', {
      json: { query: 'accountant' },
      headers: { prefer: 'wait=10' },
    });
    await service.restart();
    const stream = await EventStream.open(service.baseUrl, `/v1/public/searches/${body.searchId}/events`, {
      'x-api-key': client.apiKey!,
      'last-event-id': '2',
    });
    await stream.done;
    expect(stream.statuses()).toEqual([['3', 'completed']]);
  });
});

const describeCluster = clusterAvailable ? describe : describe.skip;

describeCluster('waiting on a search held back by a hung dense service (cluster mode)', () => {
  let cluster: ClusterServices;
  let client: ApiClient;
  const key = () => ({ 'x-api-key': client.apiKey! });

  beforeAll(async () => {
    cluster = (await ClusterServices.start({ WAITS_PER_COMPANY: '3', EVENT_STREAMS_PER_COMPANY: '2', GRPC_TIMEOUT_MS: '20000' }))!;
    client = await setUpCompany(cluster, 'held');
  });
  afterAll(() => cluster?.destroy());

  /** A dense search that stays `processing` while the dense service is frozen (SIGSTOP): its gRPC call hangs until resumed or its 20 s deadline. */
  const heldSearch = async (): Promise<string> => {
    const { body } = await client.post('/v1/public/searches/dense', { query: 'accountant general ledger' });
    const status = await client.request('GET', `/v1/public/searches/${body.searchId}`, { headers: { prefer: 'wait=0' } });
    expect(['initiated', 'processing']).toContain(status.body.status);
    return body.searchId as string;
  };
  const frozen = async (run: () => Promise<void>) => {
    cluster.signal('dense', 'SIGSTOP');
    try {
      await run();
    } finally {
      cluster.signal('dense', 'SIGCONT');
    }
  };

  it('answers a wait that times out after about N seconds with the status then, and one that ends early as soon as the search ends', async () => {
    await frozen(async () => {
      const created = await timed(() =>
        client.request('POST', '/v1/public/searches/dense', { json: { query: 'accountant' }, headers: { prefer: 'wait=2' } }),
      );
      expect(created.value.status).toBe(202);
      expect(created.value.headers.get('preference-applied')).toBe('wait=2');
      expect(created.ms).toBeGreaterThanOrEqual(1900);
      expect(created.ms).toBeLessThan(10_000); // the upper bounds: far below any other end, with room for a loaded machine
      const id = created.value.body.searchId as string;
      const timedOut = await timed(() => client.request('GET', `/v1/public/searches/${id}`, { headers: { prefer: 'wait=3' } }));
      console.log(
        `cluster: a status GET with Prefer: wait=3 on a held search answered ${timedOut.value.body.status} after ${timedOut.ms.toFixed(0)} ms`,
      );
      expect(timedOut.value.status).toBe(200);
      expect(timedOut.value.body.status).toBe('processing');
      expect(timedOut.ms).toBeGreaterThanOrEqual(2900);
      expect(timedOut.ms).toBeLessThan(10_000);

      // Resumed 1.5 s into a 20 s wait: the answer comes when the search ends, not at the end of the wait.
      const early = timed(() => client.request('GET', `/v1/public/searches/${id}`, { headers: { prefer: 'wait=20' } }));
      await new Promise((r) => setTimeout(r, 1500));
      cluster.signal('dense', 'SIGCONT');
      const { value, ms } = await early;
      console.log(
        `cluster: a status GET with Prefer: wait=20 answered ${value.body.status} ${ms.toFixed(0)} ms after it was sent (the dense service resumed at 1500 ms)`,
      );
      expect(value.body.status).toBe('completed');
      expect(ms).toBeLessThan(15_000); // not the 20 s of the wait
    });
  });

  it('streams processing, then completed, and ends the stream', async () => {
    await frozen(async () => {
      const id = await heldSearch();
      const stream = await EventStream.open(cluster.baseUrl, `/v1/public/searches/${id}/events`, key());
      await stream.until((s) => s.statuses().some(([, status]) => status === 'processing'));
      cluster.signal('dense', 'SIGCONT');
      await stream.done;
      expect(stream.statuses().map(([, status]) => status)).toEqual(expect.arrayContaining(['processing', 'completed']));
      expect(stream.statuses().at(-1)).toEqual(['3', 'completed']);
    });
  });

  it('answers waiters past the company’s bound at once without Preference-Applied, and refuses a third stream with 429', async () => {
    await frozen(async () => {
      const id = await heldSearch();
      const path = `/v1/public/searches/${id}`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => timed(() => client.request('GET', path, { headers: { prefer: 'wait=3' } }))),
      );
      const applied = answers.filter((a) => a.value.headers.get('preference-applied') === 'wait=3');
      const refused = answers.filter((a) => a.value.headers.get('preference-applied') === null);
      expect(applied).toHaveLength(3);
      expect(refused).toHaveLength(3);
      // At once: each refused one answered before any applied one, which waited its 3 s.
      expect(Math.max(...refused.map((a) => a.ms))).toBeLessThan(Math.min(...applied.map((a) => a.ms)));
      for (const a of applied) expect(a.ms).toBeGreaterThanOrEqual(2900);

      const streams = await Promise.all([1, 2].map(() => EventStream.open(cluster.baseUrl, `${path}/events`, key())));
      const third = await client.get(`${path}/events`);
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('5');
      expect(third.body).toMatchObject({ error: 'rate_limit_exceeded', limit: 2, window: 'open at once', retryAfter: '5' });
      for (const s of streams) s.close();
      // A closed stream frees its place.
      await new Promise((r) => setTimeout(r, 300));
      const again = await EventStream.open(cluster.baseUrl, `${path}/events`, key());
      expect(again.status).toBe(200);
      again.close();
    });
  });

  it('answers waiting requests at once when the gateway drains, and resumes a stream after its restart with only what the client lacks', async () => {
    await frozen(async () => {
      const id = await heldSearch();
      const stream = await EventStream.open(cluster.baseUrl, `/v1/public/searches/${id}/events`, key());
      await stream.until((s) => s.statuses().some(([, status]) => status === 'processing'));
      const waiting = timed(() => client.request('GET', `/v1/public/searches/${id}`, { headers: { prefer: 'wait=30' } }));
      await new Promise((r) => setTimeout(r, 500));
      const stopping = cluster.stopService('gateway');
      const { value, ms } = await waiting;
      expect(value.status).toBe(200);
      expect(value.body.status).toBe('processing');
      expect(ms).toBeLessThan(15_000); // not the 30 s of the wait
      await stream.done; // the server closed it
      const code = await stopping;
      if (code !== 0) console.log(cluster.logOf('gateway').slice(-4000));
      expect(code).toBe(0);

      await cluster.startService('gateway');
      const resumed = await EventStream.open(cluster.baseUrl, `/v1/public/searches/${id}/events`, { ...key(), 'last-event-id': '2' });
      await new Promise((r) => setTimeout(r, 500));
      expect(resumed.statuses()).toEqual([]); // it has processing already
      cluster.signal('dense', 'SIGCONT');
      await resumed.done;
      expect(resumed.statuses()).toEqual([['3', 'completed']]);
    });
  });
});
