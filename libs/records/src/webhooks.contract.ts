import { randomUUID } from 'node:crypto';
import type { SqlClient } from '@cs/ports';
import { describeWith, type TestNeed } from '@cs/test-services';
import type { AttemptRecord, WebhookEventType } from '@cs/webhooks';
import { CompaniesRepository, DocumentsRepository, SearchesRepository, WebhooksRepository, migrate } from './index';
import { DENSE_METADATA } from './testing/stored-search';

const attempt = (n: number, outcome: AttemptRecord['outcome'], overrides: Partial<AttemptRecord> = {}): AttemptRecord => ({
  attempt: n,
  at: new Date(),
  statusCode: outcome === 'delivered' ? 200 : 500,
  error: outcome === 'delivered' ? null : 'the endpoint answered HTTP 500',
  response: outcome === 'delivered' ? 'ok' : 'down',
  durationMs: 12,
  outcome,
  nextAttemptInMs: outcome === 'retrying' ? 0 : null,
  ...overrides,
});

/** What the webhooks' store must do on every SqlClient (PGlite and PostgreSQL): the triggers of 0008_webhooks, fan-out, claims, the log. */
export function describeWebhooksContract(
  name: string,
  open: () => Promise<{ sql: SqlClient; cleanup: () => Promise<void> }>,
  needs: TestNeed[] = [],
): void {
  describeWith(needs)(`webhooks on ${name}`, () => {
    let sql: SqlClient;
    let cleanup: () => Promise<void> = async () => undefined;
    let companies: CompaniesRepository;
    let webhooks: WebhooksRepository;
    let searches: SearchesRepository;
    let documents: DocumentsRepository;
    beforeAll(async () => {
      ({ sql, cleanup } = await open());
      await migrate(sql);
      companies = new CompaniesRepository(sql);
      webhooks = new WebhooksRepository(sql);
      searches = new SearchesRepository(sql);
      documents = new DocumentsRepository(sql);
    }, 30_000);
    afterAll(async () => {
      await sql?.close();
      await cleanup();
    });

    const events = (companyId: string) =>
      sql.query<{ type: string; subject_id: string; payload: Record<string, unknown> }>(
        'SELECT type, subject_id, payload FROM webhook_events WHERE company_id = $1 ORDER BY created_at, type',
        [companyId],
      );
    const endpoint = async (companyId: string, eventTypes: WebhookEventType[], url = 'https://hooks.example.com/cv') =>
      (await webhooks.createEndpoint({ companyId, url, eventTypes, secret: 'whsec_c2VjcmV0' }, 20))!;
    const newSearch = (companyId: string) => ({
      id: randomUUID(),
      companyId,
      searchGroupId: randomUUID(),
      searchType: 'dense' as const,
      query: 'nurse',
      topK: 20,
      rerankTopN: 30,
    });
    const newDocument = (companyId: string) => ({
      id: randomUUID(),
      companyId,
      documentName: 'Jane Doe',
      documentType: 'cv',
      documentDate: '01-2024',
      contentHash: randomUUID(),
      fileName: 'jane.pdf',
      fileSize: 3,
      contentType: 'application/pdf',
      storageKey: 'k',
    });
    const processed = { extractedText: 'Nurse, ICU.', summary: null, contact: null, profile: null, chunks: [], understandingVersion: 1 };
    /** Fans out everything new and claims everything due, for the cases that need deliveries. */
    const fanOutAndClaim = async () => {
      while ((await webhooks.fanOut(100)) > 0);
      return webhooks.claimDue(100, 60_000);
    };

    test("records a search's and a document's final status in the transition's own statement, for subscribed companies only", async () => {
      const company = await companies.create('events');
      const silent = await companies.create('no endpoints');
      await endpoint(company.id, ['search.completed', 'search.failed', 'document.completed', 'document.invalid', 'document.failed']);

      const done = (await searches.create(newSearch(company.id)))!;
      await searches.markProcessing(done.id);
      expect(await events(company.id)).toEqual([]); // processing is not final
      await searches.complete(done.id, [], DENSE_METADATA, 42);
      const failed = (await searches.create(newSearch(company.id)))!;
      await searches.fail(failed.id, 'no searchable documents', false);
      const unheard = (await searches.create(newSearch(silent.id)))!;
      await searches.complete(unheard.id, [], DENSE_METADATA, 5);

      const cv = (await documents.createOrFindDuplicate(newDocument(company.id))).document;
      await documents.startProcessing(cv.id, 'Parsing and indexing');
      await documents.complete(cv.id, processed, 'Searchable');
      // Completed again (a redelivered job): no second event.
      await documents.complete(cv.id, processed, 'Searchable');
      const scan = (await documents.createOrFindDuplicate(newDocument(company.id))).document;
      await documents.setStatus(scan.id, 'invalid', 'No text could be extracted');
      const broken = (await documents.createOrFindDuplicate(newDocument(company.id))).document;
      await documents.setStatus(broken.id, 'failed', 'The file could not be read', { message: 'encrypted', retryable: false });

      const recorded = await events(company.id);
      expect(recorded.map((e) => [e.type, e.subject_id]).sort()).toEqual(
        [
          ['search.completed', done.id],
          ['search.failed', failed.id],
          ['document.completed', cv.id],
          ['document.invalid', scan.id],
          ['document.failed', broken.id],
        ].sort(),
      );
      expect(recorded.find((e) => e.type === 'search.completed')?.payload).toMatchObject({
        searchId: done.id,
        searchGroupId: done.searchGroupId,
        searchType: 'dense',
        status: 'completed',
        resultsCount: 0,
        processingTimeMs: 42,
      });
      expect(recorded.find((e) => e.type === 'search.failed')?.payload).toMatchObject({
        error: 'no searchable documents',
        errorRetryable: false,
      });
      expect(recorded.find((e) => e.type === 'document.failed')?.payload).toMatchObject({
        documentName: 'Jane Doe',
        status: 'failed',
        error: { message: 'encrypted', retryable: false },
      });
      expect(await events(silent.id)).toEqual([]);
    });

    test('records nothing for a transition that was rolled back, nor for a type no enabled endpoint subscribes to', async () => {
      const company = await companies.create('rolled back');
      const only = await endpoint(company.id, ['search.failed']);
      const search = (await searches.create(newSearch(company.id)))!;
      await expect(
        sql.transaction(async (tx) => {
          await new SearchesRepository(tx).fail(search.id, 'boom', true);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await events(company.id)).toEqual([]);
      await searches.complete(search.id, [], DENSE_METADATA, 1); // completed: not subscribed
      const other = (await searches.create(newSearch(company.id)))!;
      await webhooks.setEnabled(only.id, false);
      await searches.fail(other.id, 'boom', true); // subscribed, but disabled
      expect(await events(company.id)).toEqual([]);
    });

    test('fans each event out once, to the enabled endpoints of its company subscribed to its type, even when fan-outs race', async () => {
      const company = await companies.create('fan-out');
      const all = await endpoint(company.id, ['search.completed', 'document.completed']);
      const searchesOnly = await endpoint(company.id, ['search.completed']);
      const disabled = await endpoint(company.id, ['search.completed']);
      await webhooks.setEnabled(disabled.id, false);
      for (let i = 0; i < 6; i++) {
        const search = (await searches.create(newSearch(company.id)))!;
        await searches.complete(search.id, [], DENSE_METADATA, 1);
      }
      const cv = (await documents.createOrFindDuplicate(newDocument(company.id))).document;
      await documents.complete(cv.id, processed, 'Searchable');

      const [{ waiting }] = await sql.query<{ waiting: number }>(
        'SELECT count(*)::int AS waiting FROM webhook_events WHERE fanned_out_at IS NULL',
      );
      let taken = (await Promise.all([webhooks.fanOut(3), webhooks.fanOut(3), webhooks.fanOut(3)])).reduce((a, b) => a + b, 0);
      for (let n = await webhooks.fanOut(3); n > 0; n = await webhooks.fanOut(3)) taken += n;
      // Every waiting event (earlier cases' too) taken by exactly one fan-out.
      expect(taken).toBe(waiting);
      const deliveries = await sql.query<{ endpoint_id: string; n: number }>(
        `SELECT d.endpoint_id, count(*)::int AS n FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE e.company_id = $1 GROUP BY d.endpoint_id`,
        [company.id],
      );
      expect(Object.fromEntries(deliveries.map((d) => [d.endpoint_id, d.n]))).toEqual({ [all.id]: 7, [searchesOnly.id]: 6 });
      expect(await webhooks.fanOut(100)).toBe(0);
    });

    test('hands each due delivery to one claimer, leases it, and skips disabled endpoints until they are enabled again', async () => {
      await fanOutAndClaim(); // what earlier cases left due, out of the way of the claims counted here
      const company = await companies.create('claims');
      const hook = await endpoint(company.id, ['search.completed']);
      for (let i = 0; i < 9; i++) {
        const search = (await searches.create(newSearch(company.id)))!;
        await searches.complete(search.id, [], DENSE_METADATA, 1);
      }
      while ((await webhooks.fanOut(100)) > 0);
      await webhooks.setEnabled(hook.id, false);
      expect((await webhooks.claimDue(100, 60_000)).filter((d) => d.endpointId === hook.id)).toEqual([]);
      await webhooks.setEnabled(hook.id, true);

      const claims = await Promise.all([webhooks.claimDue(4, 60_000), webhooks.claimDue(4, 60_000), webhooks.claimDue(4, 60_000)]);
      const mine = claims.flat().filter((d) => d.endpointId === hook.id);
      expect(new Set(mine.map((d) => d.id)).size).toBe(9);
      expect(mine).toHaveLength(9);
      expect(mine[0]).toMatchObject({
        url: 'https://hooks.example.com/cv',
        secret: 'whsec_c2VjcmV0',
        attempts: 0,
        event: { type: 'search.completed', data: { status: 'completed' } },
      });
      expect(mine[0].createdAt).toBeInstanceOf(Date);
      // Leased: nobody else gets them while the attempts run.
      expect((await webhooks.claimDue(100, 60_000)).filter((d) => d.endpointId === hook.id)).toEqual([]);
    });

    test("takes at most `perEndpoint` of one endpoint's due deliveries in a claim, and none of a busy endpoint's", async () => {
      await fanOutAndClaim(); // what earlier cases left due
      const company = await companies.create('fairness');
      const backlog = await endpoint(company.id, ['search.completed'], 'https://slow.example.com/hook');
      const other = await endpoint(company.id, ['search.failed'], 'https://quick.example.com/hook');
      for (let i = 0; i < 5; i++) {
        const search = (await searches.create(newSearch(company.id)))!;
        await searches.complete(search.id, [], DENSE_METADATA, 1);
      }
      for (let i = 0; i < 2; i++) {
        const search = (await searches.create(newSearch(company.id)))!;
        await searches.fail(search.id, 'boom', true);
      }
      while ((await webhooks.fanOut(100)) > 0);
      const first = await webhooks.claimDue(10, 60_000, { perEndpoint: 2, busyEndpoints: [] });
      expect(first.filter((d) => d.endpointId === backlog.id)).toHaveLength(2);
      expect(first.filter((d) => d.endpointId === other.id)).toHaveLength(2);
      const second = await webhooks.claimDue(10, 60_000, { perEndpoint: 2, busyEndpoints: [backlog.id] });
      expect(second).toEqual([]);
      const third = await webhooks.claimDue(10, 60_000, { perEndpoint: 2, busyEndpoints: [other.id] });
      expect(third.map((d) => d.endpointId)).toEqual([backlog.id, backlog.id]);
    });

    test('records attempts: a failure is due again after its wait, a success or a final failure ends the delivery; each attempt once', async () => {
      const company = await companies.create('attempts');
      const hook = await endpoint(company.id, ['search.completed']);
      const search = (await searches.create(newSearch(company.id)))!;
      await searches.complete(search.id, [], DENSE_METADATA, 1);
      const [claimed] = (await fanOutAndClaim()).filter((d) => d.endpointId === hook.id);

      await webhooks.recordAttempt(claimed.id, attempt(1, 'retrying', { response: 'bad\u0000gateway' }));
      // The same attempt again (a lease that ran out mid-record): stored once.
      await webhooks.recordAttempt(claimed.id, attempt(1, 'retrying'));
      const [again] = (await webhooks.claimDue(100, 60_000)).filter((d) => d.endpointId === hook.id);
      expect(again).toMatchObject({ id: claimed.id, attempts: 1 });
      await webhooks.recordAttempt(
        claimed.id,
        attempt(2, 'retrying', { statusCode: null, error: 'no answer within 10 s', nextAttemptInMs: 3_600_000 }),
      );
      expect((await webhooks.claimDue(100, 60_000)).filter((d) => d.endpointId === hook.id)).toEqual([]);
      await sql.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1`, [claimed.id]);
      await webhooks.claimDue(100, 60_000);
      await webhooks.recordAttempt(claimed.id, attempt(3, 'delivered'));
      await sql.query(`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE id = $1`, [claimed.id]);
      expect((await webhooks.claimDue(100, 60_000)).filter((d) => d.endpointId === hook.id)).toEqual([]);

      const log = await webhooks.listDeliveries(hook.id, { limit: 10, offset: 0 });
      expect(log.total).toBe(1);
      expect(log.items[0]).toMatchObject({
        id: claimed.id,
        eventType: 'search.completed',
        status: 'delivered',
        attemptCount: 3,
        nextAttemptAt: null,
        lastStatusCode: 200,
        lastError: null,
        lastResponse: 'ok',
      });
      expect(log.items[0].finishedAt).toBeInstanceOf(Date);
      expect(log.items[0].attempts.map((a) => [a.attempt, a.outcome, a.statusCode, a.error])).toEqual([
        [1, 'retrying', 500, 'the endpoint answered HTTP 500'],
        [2, 'retrying', null, 'no answer within 10 s'],
        [3, 'delivered', 200, null],
      ]);
      expect(log.items[0].attempts[0].response).toBe('bad\uFFFDgateway');
    });

    test('pages the log newest first, filters it by status, and ends a delivery failed for good', async () => {
      const company = await companies.create('log');
      const hook = await endpoint(company.id, ['document.invalid']);
      for (let i = 0; i < 3; i++) {
        const doc = (await documents.createOrFindDuplicate(newDocument(company.id))).document;
        await documents.setStatus(doc.id, 'invalid', 'No text');
      }
      const claimed = (await fanOutAndClaim()).filter((d) => d.endpointId === hook.id);
      await webhooks.recordAttempt(claimed[0].id, attempt(1, 'failed'));
      const failed = await webhooks.listDeliveries(hook.id, { limit: 10, offset: 0, status: 'failed' });
      expect(failed).toMatchObject({ total: 1, items: [{ id: claimed[0].id, status: 'failed', nextAttemptAt: null }] });
      const page = await webhooks.listDeliveries(hook.id, { limit: 2, offset: 0 });
      expect(page.total).toBe(3);
      expect(page.items).toHaveLength(2);
      expect(page.items[0].createdAt.getTime()).toBeGreaterThanOrEqual(page.items[1].createdAt.getTime());
      expect((await webhooks.listDeliveries(hook.id, { limit: 2, offset: 2 })).items).toHaveLength(1);
      expect((await webhooks.listDeliveries(hook.id, { limit: 10, offset: 0, status: 'pending' })).total).toBe(2);
    });

    test('creates a test delivery already leased to its sender; none for an unknown endpoint', async () => {
      const company = await companies.create('test events');
      const hook = await endpoint(company.id, ['search.failed']);
      const test = await webhooks.createTestDelivery(hook.id, 60_000);
      expect(test).toMatchObject({ endpointId: hook.id, attempts: 0, event: { type: 'webhook.test', data: { webhookId: hook.id } } });
      expect((await webhooks.claimDue(100, 60_000)).filter((d) => d.endpointId === hook.id)).toEqual([]);
      expect(await webhooks.fanOut(100)).toBe(0);
      expect(await webhooks.createTestDelivery(randomUUID(), 60_000)).toBeNull();
    });

    test('bounds endpoints per company, refuses an unknown company, and removes an endpoint with its log', async () => {
      const company = await companies.create('bounded');
      const make = (companyId = company.id) =>
        webhooks.createEndpoint(
          { companyId, url: 'https://hooks.example.com/x', eventTypes: ['search.completed'], secret: 'whsec_c2VjcmV0' },
          2,
        );
      const first = (await make())!;
      expect(first).toMatchObject({ companyId: company.id, eventTypes: ['search.completed'], enabled: true });
      expect(await make()).not.toBeNull();
      expect(await make()).toBeNull();
      expect(await make(randomUUID())).toBeNull();
      // Oldest first (two made within the same millisecond may come either way: the clock's
      // resolution in the database decides, and Date has milliseconds).
      const listed = await webhooks.listEndpoints(company.id);
      expect(listed.map((e) => e.id)).toContain(first.id);
      expect(listed).toHaveLength(2);
      expect(listed[0].createdAt.getTime()).toBeLessThanOrEqual(listed[1].createdAt.getTime());
      const test = (await webhooks.createTestDelivery(first.id, 0))!;
      await webhooks.recordAttempt(test.id, attempt(1, 'delivered'));
      expect(await webhooks.deleteEndpoint(first.id)).toBe(true);
      expect(await webhooks.deleteEndpoint(first.id)).toBe(false);
      expect(await webhooks.getEndpoint(first.id)).toBeNull();
      expect(await sql.query('SELECT id FROM webhook_deliveries WHERE id = $1', [test.id])).toEqual([]);
      expect(await sql.query('SELECT attempt FROM webhook_attempts WHERE delivery_id = $1', [test.id])).toEqual([]);
      // An attempt that was in flight while its endpoint went: dropped, not an error.
      await expect(webhooks.recordAttempt(test.id, attempt(2, 'delivered'))).resolves.toBeUndefined();
    });

    test('prunes events past the retention with their deliveries and attempts, a batch at a time', async () => {
      const company = await companies.create('prune');
      const hook = await endpoint(company.id, ['search.completed']);
      const test = (await webhooks.createTestDelivery(hook.id, 0))!;
      await webhooks.recordAttempt(test.id, attempt(1, 'delivered'));
      const recent = (await webhooks.createTestDelivery(hook.id, 0))!;
      await sql.query(`UPDATE webhook_events SET created_at = now() - interval '8 days' WHERE id = $1`, [test.event.id]);
      const week = 7 * 24 * 3600_000;
      let pruned = 0;
      for (let n = await webhooks.prune(week, 1); n > 0; n = await webhooks.prune(week, 1)) pruned += n;
      expect(pruned).toBeGreaterThanOrEqual(1);
      expect(await sql.query('SELECT id FROM webhook_events WHERE id = $1', [test.event.id])).toEqual([]);
      expect(await sql.query('SELECT attempt FROM webhook_attempts WHERE delivery_id = $1', [test.id])).toEqual([]);
      expect(await sql.query('SELECT id FROM webhook_deliveries WHERE id = $1', [recent.id])).toHaveLength(1);
    });
  });
}
