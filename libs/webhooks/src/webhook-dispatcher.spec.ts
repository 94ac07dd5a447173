import { eventually } from '@cs/test-services';
import { verifyWebhook } from './signing';
import { WebhookDispatcher, type AttemptRecord, type ClaimedDelivery, type WebhookSender, type WebhookStore } from './webhook-dispatcher';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const schedule = { delaysMs: [1000, 5000], retryForMs: 60_000 };

function delivery(id: string, overrides: Partial<ClaimedDelivery> = {}): ClaimedDelivery {
  return {
    id,
    endpointId: 'ep1',
    url: 'https://hooks.example.com/cv',
    secret: SECRET,
    attempts: 0,
    createdAt: new Date(),
    event: {
      id: `event-${id}`,
      type: 'document.completed',
      createdAt: new Date('2026-11-24T10:00:00.000Z'),
      data: { documentId: 'd1', documentName: 'Jane', documentType: 'cv', status: 'completed', message: 'Searchable' },
    },
    ...overrides,
  };
}

/** The store's contract as the dispatcher uses it, in memory: due rows are handed out once, in claims of at most `limit`. */
class MemoryStore implements WebhookStore {
  due: ClaimedDelivery[] = [];
  newEvents = 0;
  fanOutCalls: number[] = [];
  readonly attempts: { deliveryId: string; record: AttemptRecord }[] = [];
  tests = new Map<string, ClaimedDelivery>();
  pruned = 0;

  fanOut(limit: number): Promise<number> {
    this.fanOutCalls.push(limit);
    const taken = Math.min(limit, this.newEvents);
    this.newEvents -= taken;
    return Promise.resolve(taken);
  }
  claims = 0;
  claimDue(
    limit: number,
    _leaseMs: number,
    fairness?: { perEndpoint: number; busyEndpoints: readonly string[] },
  ): Promise<ClaimedDelivery[]> {
    this.claims++;
    const taken: ClaimedDelivery[] = [];
    const perEndpoint = new Map<string, number>();
    for (const d of [...this.due]) {
      if (taken.length === limit) break;
      if (fairness?.busyEndpoints.includes(d.endpointId)) continue;
      const n = perEndpoint.get(d.endpointId) ?? 0;
      if (fairness && n >= fairness.perEndpoint) continue;
      perEndpoint.set(d.endpointId, n + 1);
      taken.push(d);
      this.due.splice(this.due.indexOf(d), 1);
    }
    return Promise.resolve(taken);
  }
  recordAttempt(deliveryId: string, record: AttemptRecord): Promise<void> {
    this.attempts.push({ deliveryId, record });
    return Promise.resolve();
  }
  createTestDelivery(endpointId: string): Promise<ClaimedDelivery | null> {
    return Promise.resolve(this.tests.get(endpointId) ?? null);
  }
  prune(): Promise<number> {
    this.pruned++;
    return Promise.resolve(0);
  }
}

type Sent = Parameters<WebhookSender['send']>[0];

class ScriptedSender implements WebhookSender {
  readonly sent: Sent[] = [];
  inFlight = 0;
  maxInFlight = 0;
  constructor(private readonly answer: (request: Sent) => Promise<{ statusCode: number; response: string }>) {}
  async send(request: Sent) {
    this.sent.push(request);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await this.answer(request);
    } finally {
      this.inFlight--;
    }
  }
}

const ok = () => Promise.resolve({ statusCode: 204, response: '' });

describe('WebhookDispatcher', () => {
  it('POSTs the event as signed JSON that a receiver verifies, and records it delivered', async () => {
    const store = new MemoryStore();
    const sender = new ScriptedSender(ok);
    store.due = [delivery('a')];
    const outcomes: string[] = [];
    const dispatcher = new WebhookDispatcher(store, sender, { schedule, onAttempt: (outcome) => outcomes.push(outcome) });
    expect(await dispatcher.pass()).toBe(true);
    await dispatcher.close(); // the attempts the pass started
    const [request] = sender.sent;
    expect(request.url).toBe('https://hooks.example.com/cv');
    expect(request.timeoutMs).toBe(10_000);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toBe('event-a');
    expect(verifyWebhook(SECRET, request.headers, request.body)).toEqual({
      id: 'event-a',
      type: 'document.completed',
      timestamp: '2026-11-24T10:00:00.000Z',
      data: expect.objectContaining({ documentId: 'd1', status: 'completed' }),
    });
    expect(store.attempts).toEqual([
      {
        deliveryId: 'a',
        record: expect.objectContaining({ attempt: 1, outcome: 'delivered', statusCode: 204, error: null, nextAttemptInMs: null }),
      },
    ]);
    expect(outcomes).toEqual(['delivered']);
  });

  it('retries a non-2xx answer, a redirect (not followed) and a network error on the schedule, keeping the answer', async () => {
    const store = new MemoryStore();
    const answers: Record<string, () => Promise<{ statusCode: number; response: string }>> = {
      '/500': () => Promise.resolve({ statusCode: 500, response: 'down for maintenance' }),
      '/302': () => Promise.resolve({ statusCode: 302, response: '' }),
      '/net': () => Promise.reject(new Error('the request failed: the connection was refused')),
    };
    const sender = new ScriptedSender((request) => answers[new URL(request.url).pathname]());
    store.due = ['/500', '/302', '/net'].map((path, i) =>
      delivery(path, { endpointId: path, url: `https://hooks.example.com${path}`, attempts: i }),
    );
    const dispatcher = new WebhookDispatcher(store, sender, { schedule });
    await dispatcher.pass();
    await dispatcher.close();
    const byId = Object.fromEntries(store.attempts.map((a) => [a.deliveryId, a.record]));
    expect(byId['/500']).toMatchObject({
      attempt: 1,
      outcome: 'retrying',
      statusCode: 500,
      error: 'the endpoint answered HTTP 500',
      response: 'down for maintenance',
    });
    expect(byId['/302']).toMatchObject({
      attempt: 2,
      outcome: 'retrying',
      error: 'the endpoint answered HTTP 302; redirects are not followed',
    });
    expect(byId['/net']).toMatchObject({
      attempt: 3,
      outcome: 'retrying',
      statusCode: null,
      error: 'the request failed: the connection was refused',
    });
    // The wait of the n-th failure, within the ±20 % jitter.
    expect(byId['/500'].nextAttemptInMs).toBeGreaterThanOrEqual(800);
    expect(byId['/500'].nextAttemptInMs).toBeLessThanOrEqual(1200);
    expect(byId['/net'].nextAttemptInMs).toBeGreaterThanOrEqual(4000);
    expect(byId['/net'].nextAttemptInMs).toBeLessThanOrEqual(6000);
  });

  it('fails a delivery for good once its next attempt would fall outside the retry window', async () => {
    const store = new MemoryStore();
    store.due = [delivery('old', { attempts: 5, createdAt: new Date(Date.now() - 59_500) })];
    const dispatcher = new WebhookDispatcher(store, new ScriptedSender(() => Promise.resolve({ statusCode: 503, response: '' })), {
      schedule,
    });
    await dispatcher.pass();
    await dispatcher.close();
    expect(store.attempts[0].record).toMatchObject({ attempt: 6, outcome: 'failed', nextAttemptInMs: null });
  });

  it('fans out every new event a batch at a time, and drains a backlog as attempts finish, never more than `concurrency` at once', async () => {
    const store = new MemoryStore();
    store.newEvents = 25;
    // Eleven endpoints, one delivery each: only the slots bound the attempts in flight.
    store.due = Array.from({ length: 11 }, (_, i) => delivery(`d${i}`, { endpointId: `ep${i}` }));
    const sender = new ScriptedSender(() => new Promise((resolve) => setTimeout(() => resolve({ statusCode: 200, response: 'ok' }), 5)));
    // A poll interval far past the test: finished attempts start the next polls themselves.
    const dispatcher = new WebhookDispatcher(store, sender, { schedule, concurrency: 4, fanOutBatch: 10, pollMs: 60_000 });
    dispatcher.start();
    await eventually(() => expect(store.attempts).toHaveLength(11), { timeoutMs: 20_000 });
    await dispatcher.close();
    expect(store.fanOutCalls.slice(0, 3)).toEqual([10, 10, 10]);
    expect(store.newEvents).toBe(0);
    expect(sender.sent).toHaveLength(11);
    expect(sender.maxInFlight).toBe(4);
    expect(store.pruned).toBe(1);
  }, 60_000);

  it('gives an endpoint that does not answer at most `perEndpoint` slots, so the others are delivered meanwhile', async () => {
    const store = new MemoryStore();
    const hanging: (() => void)[] = [];
    const sender = new ScriptedSender((request) =>
      request.url.includes('hangs')
        ? new Promise((resolve) => hanging.push(() => resolve({ statusCode: 200, response: '' })))
        : Promise.resolve({ statusCode: 200, response: 'ok' }),
    );
    store.due = [
      ...Array.from({ length: 6 }, (_, i) => delivery(`h${i}`, { endpointId: 'hangs', url: 'https://hangs.example.com/' })),
      ...Array.from({ length: 6 }, (_, i) => delivery(`q${i}`, { endpointId: `quick${i % 2}` })),
    ];
    const dispatcher = new WebhookDispatcher(store, sender, { schedule, concurrency: 4, perEndpoint: 2, pollMs: 60_000 });
    dispatcher.start();
    await eventually(() => expect(store.attempts.filter((a) => a.deliveryId.startsWith('q'))).toHaveLength(6), { timeoutMs: 20_000 });
    expect(hanging).toHaveLength(2);
    expect(sender.sent.filter((r) => r.url.includes('hangs'))).toHaveLength(2);
    // Its attempts finish: the next two of its backlog go out, never more than two at once.
    hanging.splice(0).forEach((finish) => finish());
    await eventually(() => expect(hanging).toHaveLength(2), { timeoutMs: 20_000 });
    hanging.splice(0).forEach((finish) => finish());
    await eventually(() => expect(hanging).toHaveLength(2), { timeoutMs: 20_000 });
    hanging.splice(0).forEach((finish) => finish());
    await eventually(() => expect(store.attempts).toHaveLength(12), { timeoutMs: 20_000 });
    await dispatcher.close();
    expect(sender.maxInFlight).toBeLessThanOrEqual(4);
  }, 60_000);

  it('stops a pass when the database fails, and says so', async () => {
    const store = new MemoryStore();
    store.claimDue = () => Promise.reject(new Error('connection terminated'));
    const errors: string[] = [];
    const dispatcher = new WebhookDispatcher(store, new ScriptedSender(ok), {
      schedule,
      onError: (message, error) => errors.push(`${message}: ${(error as Error).message}`),
    });
    expect(await dispatcher.pass()).toBe(false);
    expect(errors).toEqual(['reading or writing webhook deliveries failed; polling again later: connection terminated']);
  });

  it('sends a test event at once and answers with its first attempt; null for an unknown endpoint', async () => {
    const store = new MemoryStore();
    store.tests.set(
      'ep1',
      delivery('t1', { event: { id: 'event-t1', type: 'webhook.test', createdAt: new Date(), data: { webhookId: 'ep1' } } }),
    );
    const dispatcher = new WebhookDispatcher(store, new ScriptedSender(ok), { schedule });
    expect(await dispatcher.sendTest('ep1')).toEqual({
      deliveryId: 't1',
      eventId: 'event-t1',
      attempt: expect.objectContaining({ attempt: 1, outcome: 'delivered', statusCode: 204 }),
    });
    expect(await dispatcher.sendTest('unknown')).toBeNull();
  });

  it('lets the attempts in flight finish before close() resolves, and polls no more after it', async () => {
    const store = new MemoryStore();
    store.due = [delivery('slow')];
    let release: () => void = () => undefined;
    const sender = new ScriptedSender(() => new Promise((resolve) => (release = () => resolve({ statusCode: 200, response: '' }))));
    const dispatcher = new WebhookDispatcher(store, sender, { schedule, pollMs: 10 });
    dispatcher.start();
    while (sender.sent.length === 0) await new Promise((r) => setTimeout(r, 5));
    const closed = dispatcher.close();
    let done = false;
    void closed.then(() => (done = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(done).toBe(false);
    release();
    await closed;
    expect(store.attempts).toHaveLength(1);
    const fanOuts = store.fanOutCalls.length;
    await new Promise((r) => setTimeout(r, 40));
    expect(store.fanOutCalls.length).toBe(fanOuts);
  });
});
