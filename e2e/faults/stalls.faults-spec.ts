import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { natsNames } from '@cs/nats';
import { eventually, testEnvironment } from '@cs/test-services';
import { ApiClient } from '../support/api-client';
import { ClusterServices, SERVICE_NAMES } from '../support/cluster-services';
import { TEXT, TEXT_CVS, createCompany } from '../support/fixtures';
import { freePort } from '../support/local-ports';
import { clusterAvailable } from '../support/service-under-test';
import { TcpProxy } from '../support/tcp-proxy';

jest.setTimeout(240_000);
const describeCluster = clusterAvailable ? describe : describe.skip;

interface Health {
  status: number;
  body: { status: string; problems?: string[] };
}

describeCluster('ingestion cannot stall silently (cluster mode)', () => {
  let cluster: ClusterServices;
  let nats: TcpProxy;
  let client: ApiClient;
  let healthUrl: string;
  let uploads = 0;

  const health = async (): Promise<Health> => {
    const answer = await fetch(healthUrl);
    return { status: answer.status, body: (await answer.json()) as Health['body'] };
  };
  /** Uploads a CV nobody uploaded before; its completion time in ms. */
  const uploadCompletes = async (): Promise<number> => {
    const started = Date.now();
    const upload = await client.upload(Buffer.from(`${TEXT_CVS.chef}\nReference ${++uploads} at ${Date.now()}.`), TEXT, {
      documentName: `stall-${uploads}`,
      documentDate: '03-2024',
    });
    const [document] = [...(await client.waitForDocuments([upload.body.documentId as string], 90_000)).values()];
    expect(document.status).toBe('completed');
    return Date.now() - started;
  };

  beforeAll(async () => {
    const url = new URL(testEnvironment().natsUrl!);
    nats = await TcpProxy.start({ host: url.hostname, port: Number(url.port || 4222) });
    cluster = (await ClusterServices.start(
      {},
      SERVICE_NAMES.filter((name) => name !== 'ingestion'),
    ))!;
    const metricsPort = await freePort();
    healthUrl = `http://127.0.0.1:${metricsPort}/healthz`;
    await cluster.startService('ingestion', 'ingestion', { NATS_URL: nats.urlFor('nats:'), METRICS_PORT: String(metricsPort) });
    const { apiKey } = await createCompany(cluster, 'stalls');
    client = new ApiClient(cluster.baseUrl, apiKey);
    await uploadCompletes();
  });
  afterAll(async () => {
    await cluster?.destroy();
    await nats?.close();
  });

  it('serves /healthz beside /metrics, healthy while it consumes', async () => {
    expect(await health()).toEqual({ status: 200, body: { status: 'ok', problems: [] } });
  });

  it('recreates its JetStream consumer when it is deleted, and later uploads complete', async () => {
    const nc = await connect({ servers: testEnvironment().natsUrl! });
    try {
      const names = natsNames(cluster.natsPrefix);
      await (await jetstreamManager(nc)).consumers.delete(names.stream, names.consumer('ingestion'));
    } finally {
      await nc.close();
    }
    const ms = await uploadCompletes();
    console.log(`stalls: after the ingestion consumer was deleted, a new upload completed in ${ms} ms`);
    expect(cluster.logOf('ingestion')).toMatch(/the ingestion consumer stopped .*creating it again/);
    await eventually(async () => expect((await health()).status).toBe(200), { timeoutMs: 10_000, intervalMs: 200 });
  });

  it('reports NATS going away on /healthz, and recovers when it is back', async () => {
    nats.cut();
    const cutAt = Date.now();
    const bad = await eventually(
      async () => {
        const answer = await health();
        expect(answer.status).toBe(503);
        return answer;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    const badAfter = Date.now() - cutAt;
    expect(bad.body.problems?.join('\n')).toMatch(/NATS is unreachable/);
    nats.restore();
    const restoredAt = Date.now();
    await eventually(async () => expect((await health()).status).toBe(200), { timeoutMs: 60_000, intervalMs: 200 });
    const goodAfter = Date.now() - restoredAt;
    const ms = await uploadCompletes();
    console.log(
      `stalls: NATS cut, /healthz 503 after ${badAfter} ms; restored, 200 after ${goodAfter} ms; a new upload completed in ${ms} ms`,
    );
  });
});
