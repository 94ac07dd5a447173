import { eventually, testEnvironment } from '@cs/test-services';
import { ClusterServices, SERVICE_NAMES } from './support/cluster-services';
import { freePort } from './support/local-ports';
import { clusterAvailable } from './support/service-under-test';
import { TcpProxy } from './support/tcp-proxy';

jest.setTimeout(180_000);
const describeCluster = clusterAvailable ? describe : describe.skip;

interface ReadyAnswer {
  status: number;
  body: { status: string; checks: Record<string, string> };
}

async function readyz(baseUrl: string): Promise<ReadyAnswer> {
  const answer = await fetch(`${baseUrl}/readyz`);
  return { status: answer.status, body: (await answer.json()) as ReadyAnswer['body'] };
}

describeCluster("the gateway's readiness and drain in cluster mode", () => {
  let cluster: ClusterServices;
  let redis: TcpProxy;

  beforeAll(async () => {
    const url = new URL(testEnvironment().redisUrl!);
    redis = await TcpProxy.start({ host: url.hostname, port: Number(url.port || 6379) });
    cluster = (await ClusterServices.start(
      {},
      SERVICE_NAMES.filter((name) => name !== 'gateway'),
    ))!;
    await cluster.startService('gateway', 'gateway', { REDIS_URL: redis.urlFor('redis:') });
  });
  afterAll(async () => {
    await cluster?.destroy();
    await redis?.close();
  });

  it('is ready when every dependency answers, and says which', async () => {
    const answer = await readyz(cluster.baseUrl);
    expect(answer).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'up', rateLimits: 'up', queue: 'up', dense: 'up', sparse: 'up' } },
    });
  });

  it('answers 503 naming Redis while the gateway cannot reach it, and is ready again once it can', async () => {
    redis.cut();
    const down = await eventually(
      async () => {
        const answer = await readyz(cluster.baseUrl);
        expect(answer.status).toBe(503);
        return answer;
      },
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    expect(down.body.status).toBe('not ready');
    expect(down.body.checks.rateLimits).toMatch(/^down: /);
    expect(down.body.checks.database).toBe('up');
    redis.restore();
    await eventually(async () => expect((await readyz(cluster.baseUrl)).status).toBe(200), { timeoutMs: 30_000, intervalMs: 250 });
  });

  it('answers 503 naming the sparse service while it is stopped', async () => {
    await cluster.stopService('sparse');
    const down = await eventually(
      async () => {
        const answer = await readyz(cluster.baseUrl);
        expect(answer.body.checks.sparse).toMatch(/^down: /);
        return answer;
      },
      { timeoutMs: 15_000, intervalMs: 250 },
    );
    expect(down.status).toBe(503);
    expect(down.body.checks.dense).toBe('up');
    await cluster.startService('sparse');
    await eventually(async () => expect((await readyz(cluster.baseUrl)).status).toBe(200), { timeoutMs: 30_000, intervalMs: 250 });
  });

  it('on SIGTERM says 503 at once and goes on serving for DRAIN_MS before it exits', async () => {
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    // A drain long enough for a loaded machine to see it: each step below may take seconds.
    await cluster.startService('gateway', 'gateway-draining', { PORT: String(port), DRAIN_MS: '8000' });
    await eventually(async () => expect((await readyz(baseUrl)).status).toBe(200), { timeoutMs: 30_000, intervalMs: 250 });
    const exited = cluster.stopService('gateway-draining');
    await eventually(async () => expect(await readyz(baseUrl)).toEqual({ status: 503, body: { status: 'draining', checks: {} } }), {
      timeoutMs: 5000,
    });
    // Still serving while it drains: the API answers as usual.
    const answer = await fetch(`${baseUrl}/v1/public/searches/groups`);
    expect(answer.status).toBe(401);
    expect(await exited).toBe(0);
  });
});
