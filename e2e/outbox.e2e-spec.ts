import { Client } from 'pg';
import { eventually, testEnvironment } from '@cs/test-services';
import { ApiClient } from './support/api-client';
import { TEXT, TEXT_CVS, createCompany } from './support/fixtures';
import { ClusterServices, SERVICE_NAMES } from './support/cluster-services';
import { clusterAvailable } from './support/service-under-test';
import { TcpProxy } from './support/tcp-proxy';

jest.setTimeout(240_000);
const describeCluster = clusterAvailable ? describe : describe.skip;

describeCluster('the outbox in cluster mode: the gateway loses NATS between the commit and the publish', () => {
  let cluster: ClusterServices;
  let proxy: TcpProxy;
  let client: ApiClient;
  let db: Client;

  beforeAll(async () => {
    const nats = new URL(testEnvironment().natsUrl!);
    proxy = await TcpProxy.start({ host: nats.hostname, port: Number(nats.port || 4222) });
    cluster = (await ClusterServices.start(
      {},
      SERVICE_NAMES.filter((name) => name !== 'gateway'),
    ))!;
    await cluster.startService('gateway', 'gateway', { NATS_URL: proxy.urlFor('nats:') });
    db = new Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    const { apiKey } = await createCompany(cluster, 'outbox', 100_000);
    client = new ApiClient(cluster.baseUrl, apiKey);
    // Something to find, ingested while NATS is reachable.
    const first = await client.upload(Buffer.from(Object.values(TEXT_CVS)[0]), TEXT, { documentName: 'before', documentDate: '01-2024' });
    await client.waitForDocuments([first.body.documentId], 60_000);
  });
  afterAll(async () => {
    await db?.end();
    await cluster?.destroy();
    await proxy?.close();
  });

  it('answers an upload and a search at once while NATS is cut, and completes both once it is back', async () => {
    proxy.cut();
    const outbox = (ids: string[]) =>
      db
        .query<{ id: string; attempts: number }>('SELECT id, attempts FROM outbox WHERE id = ANY($1::text[]) ORDER BY id', [ids])
        .then((r) => r.rows);
    // A publish waits up to 5 s for NATS and records its failure in the row before it returns: a job
    // whose row has no failure yet when its request is answered was not waited for.
    let started = Date.now();
    const upload = await client.upload(Buffer.from(`${Object.values(TEXT_CVS)[1]}\nCertified while the queue was away.`), TEXT, {
      documentName: 'during',
      documentDate: '02-2024',
    });
    let answeredMs = Date.now() - started;
    expect(upload.status).toBe(201);
    // Kept in the outbox (its first publish, timing out against the cut NATS, may have been counted already on a loaded machine).
    expect(await outbox([`ingestion:${upload.body.documentId}`])).toEqual([
      { id: `ingestion:${upload.body.documentId}`, attempts: expect.any(Number) },
    ]);
    started = Date.now();
    const search = await client.post('/v1/public/searches/dense', { query: 'accountant, general ledger' });
    answeredMs += Date.now() - started;
    expect(search.status).toBe(202);
    expect(await outbox([`search:${search.body.searchId}`])).toEqual([
      { id: `search:${search.body.searchId}`, attempts: expect.any(Number) },
    ]);
    const ids = [`ingestion:${upload.body.documentId}`, `search:${search.body.searchId}`];

    // Both jobs wait in the outbox, each publish having failed at least once; the records wait too.
    const failed = await eventually(
      async () => {
        const rows = await outbox(ids);
        expect(rows).toEqual(ids.map((id) => ({ id, attempts: expect.any(Number) })));
        expect(rows.filter((r) => r.attempts < 1)).toEqual([]);
        return rows;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    expect((await client.get(`/v1/public/documents/${upload.body.documentId}`)).body.status).toBe('uploading');
    expect((await client.get(`/v1/public/searches/${search.body.searchId}`)).body.status).toBe('initiated');

    proxy.restore();
    const restored = Date.now();
    const [document] = [...(await client.waitForDocuments([upload.body.documentId], 90_000)).values()];
    const finished = await client.waitForSearch(search.body.searchId, 90_000, 100);
    console.log(
      `outbox: upload and search answered in ${answeredMs} ms with NATS cut; ${failed.map((r) => `${r.id.split(':')[0]} ${r.attempts} failed publishes`).join(', ')}; ` +
        `after NATS came back, document ${document.status} and search ${finished.status} in ${Date.now() - restored} ms`,
    );
    expect(document.status).toBe('completed');
    expect(finished.status).toBe('completed');
    await eventually(async () => expect(await outbox(ids)).toEqual([]), { timeoutMs: 10_000, intervalMs: 200 });
  });
});
