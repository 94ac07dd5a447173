import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIXTURE_CVS, fixtureCvFile, textlessPdf } from '@cs/document-parsing/testing';
import { eventually } from '@cs/test-services';
import { verifyWebhook, type WebhookMessage } from '@cs/webhooks';
import { ApiClient } from '../support/api-client';
import { TEXT_CVS } from '../support/fixtures';
import { ClusterServices } from '../support/cluster-services';
import { ROOT, freePort } from '../support/local-ports';
import { MODES, clusterAvailable, describeMode, type ServiceUnderTest } from '../support/service-under-test';
import { StandaloneService } from '../support/standalone-service';

jest.setTimeout(300_000);

/** Fast retries, so that a receiver failing twice is delivered to within a second; loopback allowed for the receiver; saved searches run again soon. */
const WEBHOOK_ENV = {
  WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOKS_RETRY_SCHEDULE: '300ms',
  WEBHOOKS_POLL_MS: '100',
  SAVED_SEARCHES_POLL_MS: '200',
};

/**
 * The admin CLI as fixtures' adminCli runs it (`npm run -s admin -- ...`), but without blocking:
 * the receiver lives in this process, and a test event is sent while the CLI waits for its answer.
 */
function adminCli(args: string[], env: Record<string, string>): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '-s', 'admin', '--', ...args],
      { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env }, encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The verified message, or null when its signature did not verify. */
  message: WebhookMessage | null;
}

/**
 * A receiver as a company would write one: it verifies every delivery's signature with the secret
 * of the endpoint it came to (401 when it does not verify), and `/flaky` answers 500 to its first requests.
 */
class TestReceiver {
  readonly received: Received[] = [];
  readonly secrets = new Map<string, string>();
  private flakyFailures = 0;
  private readonly failedOnce = new Set<string>();
  /** `/flaky` answers 500 to this many requests first, or ('each once') to each message's first attempt. */
  constructor(private readonly flakyFailuresWanted: number | 'each once' = 2) {}

  /** Whether `/flaky` fails this attempt of `message`. */
  private failsFlaky(message: WebhookMessage): boolean {
    if (this.flakyFailuresWanted !== 'each once') return this.flakyFailures < this.flakyFailuresWanted;
    if (this.failedOnce.has(message.id)) return false;
    this.failedOnce.add(message.id);
    return true;
  }

  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = req.url ?? '';
        const body = Buffer.concat(chunks).toString('utf8');
        let message: WebhookMessage | null = null;
        try {
          message = verifyWebhook(this.secrets.get(path) ?? 'whsec_bm9uZQ==', req.headers, body) as WebhookMessage;
        } catch {
          // recorded as unverified below
        }
        this.received.push({ path, headers: req.headers, body, message });
        if (!message) res.writeHead(401).end('bad signature');
        else if (path === '/flaky' && this.failsFlaky(message)) res.writeHead(500).end(`failure ${++this.flakyFailures}`);
        else res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Verified messages that came to `path`. */
  messages(path: string): WebhookMessage[] {
    return this.received.filter((r) => r.path === path && r.message).map((r) => r.message!);
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

for (const mode of MODES)
  describeMode(mode)(`webhooks (${mode.name} mode)`, () => {
    let service: ServiceUnderTest;
    let acme: ApiClient;
    let companyId = '';
    const receiver = new TestReceiver();
    const cli = async (...args: string[]) => {
      const { status, stdout, stderr } = await adminCli(args, { ADMIN_URL: service.baseUrl, DATA_DIR: service.dataDir });
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
      return JSON.parse(stdout) as Record<string, any>;
    };
    const register = async (path: string, events?: string) => {
      const created = await cli(
        'webhooks',
        'add',
        '--company',
        companyId,
        '--url',
        `${receiver.url}${path}`,
        ...(events ? ['--events', events] : []),
      );
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
      receiver.secrets.set(path, created.secret as string);
      return created;
    };

    beforeAll(async () => {
      await receiver.start();
      service = await mode.start(WEBHOOK_ENV);
      const company = await cli('companies', 'create', '--name', 'acme');
      companyId = company.companyId as string;
      acme = new ApiClient(service.baseUrl, company.apiKey as string);
    });

    afterAll(async () => {
      await service?.destroy();
      await receiver.close();
    });

    it('signs document.completed, document.invalid and search.completed, which the receiver verifies', async () => {
      const hook = await register('/all');
      expect(hook).toMatchObject({
        companyId,
        url: `${receiver.url}/all`,
        events: [
          'search.completed',
          'search.failed',
          'document.completed',
          'document.invalid',
          'document.failed',
          'saved_search.new_matches',
        ],
        enabled: true,
      });
      const listed = await cli('webhooks', 'list', '--company', companyId);
      expect(listed.data).toEqual([expect.objectContaining({ webhookId: hook.webhookId })]);
      expect(JSON.stringify(listed)).not.toContain(hook.secret as string);

      const accountant = FIXTURE_CVS.find((cv) => cv.profession === 'accountant')!;
      const cv = await fixtureCvFile(accountant.text, 'pdf');
      const uploaded = await acme.upload(cv.bytes, cv.mime, { documentName: 'Anna Müller', documentDate: '06-2024' });
      expect(uploaded.status).toBe(201);
      const scan = await acme.upload(await textlessPdf(), 'application/pdf', { documentName: 'A scan', documentDate: '06-2024' });
      expect(scan.status).toBe(201);

      const completed = await eventually(
        () => {
          const found = receiver.messages('/all').find((m) => m.type === 'document.completed');
          expect(found).toBeDefined();
          return found!;
        },
        { timeoutMs: 120_000, intervalMs: 100 },
      );
      expect(completed).toEqual({
        id: expect.any(String),
        type: 'document.completed',
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: {
          documentId: uploaded.body.documentId,
          documentName: 'Anna Müller',
          documentType: 'cv',
          status: 'completed',
          message: expect.any(String),
          statusUrl: `/v1/public/documents/${uploaded.body.documentId}`,
        },
      });
      const invalid = await eventually(
        () => {
          const found = receiver.messages('/all').find((m) => m.type === 'document.invalid');
          expect(found).toBeDefined();
          return found!;
        },
        { timeoutMs: 120_000, intervalMs: 100 },
      );
      expect(invalid.data).toMatchObject({ documentId: scan.body.documentId, status: 'invalid', message: expect.stringMatching(/text/i) });
      // What the event says is what the API says.
      expect((await acme.get(`/v1/public/documents/${scan.body.documentId as string}`)).body).toMatchObject({
        status: 'invalid',
        message: invalid.data.message,
      });

      const search = await acme.post('/v1/public/searches/dense', { query: 'accountant month-end close' });
      expect(search.status).toBe(202);
      const done = await eventually(
        () => {
          const found = receiver.messages('/all').find((m) => m.type === 'search.completed');
          expect(found).toBeDefined();
          return found!;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );
      expect(done.data).toEqual({
        searchId: search.body.searchId,
        searchGroupId: search.body.searchGroupId,
        searchType: 'dense',
        status: 'completed',
        completedAt: expect.any(String),
        statusUrl: `/v1/public/searches/${search.body.searchId as string}`,
        resultsCount: 1,
        processingTimeMs: expect.any(Number),
        resultsUrl: `/v1/public/searches/${search.body.searchId as string}/results`,
      });
      const status = (await acme.get(`/v1/public/searches/${search.body.searchId as string}`)).body;
      expect(done.data).toMatchObject({ completedAt: status.completedAt, resultsCount: status.resultsCount });

      // Every delivery verified, each event delivered once, under its event id.
      const all = receiver.received.filter((r) => r.path === '/all');
      expect(all.every((r) => r.message !== null)).toBe(true);
      expect(all.map((r) => r.headers['webhook-id'])).toEqual(all.map((r) => r.message!.id));
      expect(new Set(all.map((r) => r.message!.id)).size).toBe(all.length);
      expect(all.map((r) => r.headers['user-agent'])).toEqual(all.map(() => 'candidate-search-webhooks/1'));
      // Recorded delivered after the receiver's 200, so possibly a moment after the receiver has it.
      await eventually(
        async () => {
          const log = await cli('webhooks', 'deliveries', hook.webhookId as string);
          expect(log.pagination).toMatchObject({ total: 3, hasMore: false });
          expect(log.data.map((d: { status: string }) => d.status)).toEqual(['delivered', 'delivered', 'delivered']);
        },
        { timeoutMs: 30_000, intervalMs: 500 },
      );
    });

    it('sends saved_search.new_matches with the CVs read that entered a saved search’s first page', async () => {
      await register('/saved', 'saved_search.new_matches');
      const saved = await acme.post('/v1/public/saved-searches', { name: 'Chefs', searchType: 'sparse', query: 'chef "food safety"' });
      expect(saved.status).toBe(201);
      const savedSearchId = saved.body.savedSearchId as string;
      const chef = await acme.upload(Buffer.from(TEXT_CVS.chef), 'text/plain', { documentName: 'A chef', documentDate: '06-2024' });
      const teacher = await acme.upload(Buffer.from(TEXT_CVS.teacher), 'text/plain', {
        documentName: 'A teacher',
        documentDate: '06-2024',
      });
      await acme.waitForDocuments([chef.body.documentId as string, teacher.body.documentId as string]);
      const event = await eventually(
        () => {
          const found = receiver.messages('/saved').find((m) => m.type === 'saved_search.new_matches');
          expect(found).toBeDefined();
          return found!;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );
      expect(event.data).toEqual({
        savedSearchId,
        name: 'Chefs',
        searchType: 'sparse',
        newMatches: [
          {
            documentId: chef.body.documentId,
            documentName: 'A chef',
            rank: 1,
            score: expect.any(Number),
            arrivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
        ],
        newUrl: `/v1/public/saved-searches/${savedSearchId}/new`,
      });
      // What the event says is what the API lists.
      const listed = (await acme.get(`/v1/public/saved-searches/${savedSearchId}/new`)).body;
      expect(listed.data.map((m: { documentId: string }) => m.documentId)).toEqual([chef.body.documentId]);
      expect(receiver.messages('/saved').every((m) => m.type === 'saved_search.new_matches')).toBe(true);
    });

    it('retries a receiver that fails twice, and the delivery log shows each attempt', async () => {
      const flaky = await register('/flaky', 'search.failed');
      const test = await cli('webhooks', 'test', flaky.webhookId as string);
      expect(test.attempt).toMatchObject({
        attempt: 1,
        outcome: 'retrying',
        statusCode: 500,
        error: 'the endpoint answered HTTP 500',
        response: 'failure 1',
      });
      expect(test.attempt.nextAttemptAt).toEqual(expect.any(String));
      const delivery = await eventually(
        async () => {
          const { data } = await cli('webhooks', 'deliveries', flaky.webhookId as string);
          expect(data[0]).toMatchObject({ deliveryId: test.deliveryId, status: 'delivered' });
          return data[0] as Record<string, any>;
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
      expect(delivery).toMatchObject({
        eventId: test.eventId,
        eventType: 'webhook.test',
        attemptCount: 3,
        lastStatusCode: 200,
        lastError: null,
        lastResponse: 'ok',
        nextAttemptAt: null,
      });
      expect(delivery.attempts.map((a: Record<string, unknown>) => [a.attempt, a.outcome, a.statusCode, a.response])).toEqual([
        [1, 'retrying', 500, 'failure 1'],
        [2, 'retrying', 500, 'failure 2'],
        [3, 'delivered', 200, 'ok'],
      ]);
      // The same message each time, signed anew at each attempt.
      const sent = receiver.received.filter((r) => r.path === '/flaky');
      expect(sent).toHaveLength(3);
      expect(new Set(sent.map((r) => r.body)).size).toBe(1);
      expect(sent.every((r) => r.message?.type === 'webhook.test' && r.message.id === test.eventId)).toBe(true);
    });

    it('stops sending to a disabled endpoint and removes one with its log', async () => {
      const hook = await register('/paused', 'search.completed');
      expect(await cli('webhooks', 'disable', hook.webhookId as string)).toMatchObject({ enabled: false });
      const search = await acme.post('/v1/public/searches/dense', { query: 'accountant' });
      await acme.waitForSearch(search.body.searchId as string);
      // The /all endpoint hears of it; the disabled one does not.
      await eventually(() => expect(receiver.messages('/all').some((m) => m.data.searchId === search.body.searchId)).toBe(true), {
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      expect(receiver.messages('/paused')).toEqual([]);
      expect((await cli('webhooks', 'deliveries', hook.webhookId as string)).data).toEqual([]);
      expect(await cli('webhooks', 'enable', hook.webhookId as string)).toMatchObject({ enabled: true });
      expect(await cli('webhooks', 'remove', hook.webhookId as string)).toEqual({ webhookId: hook.webhookId, removed: true });
      const gone = await adminCli(['webhooks', 'deliveries', hook.webhookId as string], {
        ADMIN_URL: service.baseUrl,
        DATA_DIR: service.dataDir,
      });
      expect(gone.status).toBe(1);
      expect(gone.stderr).toContain('HTTP 404: webhook not found');
    });

    it('answers bad registrations with 400 and the error body', async () => {
      const admin = new ApiClient(service.baseUrl, undefined);
      const post = (json: unknown) =>
        admin.request('POST', `/admin/v1/companies/${companyId}/webhooks`, {
          json,
          headers: { authorization: `Bearer ${service.adminToken}` },
        });
      for (const [json, message] of [
        [{ url: 'ftp://example.com/hook' }, 'url must be http or https, not ftp'],
        [{ url: `${receiver.url}/x`, events: ['search.done'] }, /events must be a non-empty list of distinct event types/],
        [{ url: `${receiver.url}/x`, secret: 'mine' }, 'unknown field "secret"'],
      ] as const) {
        const answer = await post(json);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ error: 'invalid_request', message: expect.stringMatching(message) });
      }
      expect(
        (await admin.request('POST', `/admin/v1/companies/${companyId}/webhooks`, { json: { url: `${receiver.url}/x` } })).status,
      ).toBe(401);
    });
  });

describe('webhook registration without WEBHOOKS_ALLOW_PRIVATE_NETWORKS', () => {
  let service: StandaloneService;
  beforeAll(async () => {
    service = await StandaloneService.start();
  });
  afterAll(() => service?.destroy());

  it('refuses an endpoint on a private or loopback address with 422, naming the setting and no address', async () => {
    const admin = new ApiClient(service.baseUrl, undefined);
    const headers = { authorization: `Bearer ${service.adminToken}` };
    const company = (await admin.request('POST', '/admin/v1/companies', { json: { name: 'careful' }, headers })).body;
    for (const url of [
      `http://127.0.0.1:${await freePort()}/hook`,
      'http://10.0.0.7/hook',
      'http://localhost/hook',
      'http://169.254.169.254/latest',
    ]) {
      const answer = await admin.request('POST', `/admin/v1/companies/${company.companyId as string}/webhooks`, { json: { url }, headers });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ error: 'unprocessable', message: expect.stringContaining('private or reserved network address') });
      expect(answer.body.message).toContain('WEBHOOKS_ALLOW_PRIVATE_NETWORKS');
      expect(answer.body.message).not.toMatch(/127\.0\.0\.1|::1/);
    }
    expect((await admin.request('GET', `/admin/v1/companies/${company.companyId as string}/webhooks`, { headers })).body).toEqual({
      data: [],
    });
  });
});

(clusterAvailable ? describe : describe.skip)('webhooks with two gateway replicas (cluster mode)', () => {
  let cluster: ClusterServices;
  // Every test event's first attempt fails (each its own, however long the six sends take): their
  // retries fall due together, for the pollers of both replicas to race for.
  const receiver = new TestReceiver('each once');
  beforeAll(async () => {
    await receiver.start();
    cluster = (await ClusterServices.start(WEBHOOK_ENV, ['gateway']))!;
    await cluster.startService('gateway', 'gateway-2', { PORT: String(await freePort()) });
  });
  afterAll(async () => {
    await cluster?.destroy();
    await receiver.close();
  });

  it('sends each delivery once, whichever replica claims it, the retries included', async () => {
    const admin = new ApiClient(cluster.baseUrl, undefined);
    const headers = { authorization: `Bearer ${cluster.adminToken}` };
    const company = (await admin.request('POST', '/admin/v1/companies', { json: { name: 'replicated' }, headers })).body;
    const hook = (
      await admin.request('POST', `/admin/v1/companies/${company.companyId as string}/webhooks`, {
        json: { url: `${receiver.url}/flaky` },
        headers,
      })
    ).body;
    receiver.secrets.set('/flaky', hook.secret as string);
    for (let i = 0; i < 6; i++) {
      const test = await admin.request('POST', `/admin/v1/webhooks/${hook.webhookId as string}/test`, { headers });
      expect(test.body.attempt).toMatchObject({ outcome: 'retrying', statusCode: 500 });
    }
    await eventually(
      async () => {
        const log = (await admin.request('GET', `/admin/v1/webhooks/${hook.webhookId as string}/deliveries?status=delivered`, { headers }))
          .body;
        expect(log.pagination.total).toBe(6);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    // 6 failed first attempts, then exactly one retry each: no delivery sent by both replicas.
    const ids = receiver.messages('/flaky').map((m) => m.id);
    const perEvent = new Map<string, number>();
    for (const id of ids) perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
    expect([...perEvent.values()]).toEqual([2, 2, 2, 2, 2, 2]);
  });
});
