import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { deleteTopology } from '@cs/nats';
import { createTestDatabase, eventually, runPrefix, testEnvironment } from '@cs/test-services';
import { ApiClient } from './support/api-client';
import { chartMetricFamilies, declaredFamilies } from './support/chart-families';
import { TEXT, TEXT_CVS, createCompany } from './support/fixtures';
import { EMBEDDINGS_CACHE, ROOT, freePort, freePortRun } from './support/local-ports';
import { clusterAvailable } from './support/service-under-test';

jest.setTimeout(240_000);
const describeCluster = clusterAvailable ? describe : describe.skip;
const ORDER = ['gateway', 'ingestion', 'search-orchestrator', 'dense', 'sparse', 'reranker'];

describeCluster('npm run start:cluster with METRICS_PORT', () => {
  let child: ChildProcess;
  let output = '';
  let metricsBase: number;
  let baseUrl: string;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    const services = testEnvironment();
    const db = await createTestDatabase(services.postgresUrl!);
    const prefix = runPrefix();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-start-cluster-'));
    cleanups.push(
      db.drop,
      () => deleteTopology(services.natsUrl!, prefix),
      () => fs.rm(dataDir, { recursive: true, force: true }),
    );
    cleanups.push(async () => {
      const redis = new Redis(services.redisUrl!);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    });
    metricsBase = await freePortRun(6);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['scripts/start-cluster.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        DATABASE_URL: db.url,
        REDIS_URL: services.redisUrl!,
        NATS_URL: services.natsUrl!,
        NATS_PREFIX: prefix,
        DATA_DIR: dataDir,
        EMBEDDINGS_CACHE_DIR: EMBEDDINGS_CACHE,
        PORT: String(port),
        HOST: '127.0.0.1',
        DENSE_GRPC_ADDRESS: `127.0.0.1:${await freePort()}`,
        SPARSE_GRPC_ADDRESS: `127.0.0.1:${await freePort()}`,
        RERANKER_GRPC_ADDRESS: `127.0.0.1:${await freePort()}`,
        METRICS_PORT: String(metricsBase),
        DRAIN_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await eventually(async () => expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200), { timeoutMs: 120_000, intervalMs: 500 });
    const { apiKey } = await createCompany({ baseUrl, dataDir }, 'scraped');
    const client = new ApiClient(baseUrl, apiKey);
    const upload = await client.upload(Buffer.from(TEXT_CVS.developer), TEXT, { documentName: 'scraped', documentDate: '01-2024' });
    await client.waitForDocuments([upload.body.documentId as string], 60_000);
    const search = await client.post('/v1/public/searches/hybrid', { query: 'typescript kubernetes' });
    expect((await client.waitForSearch(search.body.searchId as string, 60_000)).status).toBe('completed');
  });
  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  });

  const scrape = async (name: string) => (await fetch(`http://127.0.0.1:${metricsBase + ORDER.indexOf(name)}/metrics`)).text();

  it('prints the map and serves each service on its own port, P to P+5, each naming itself', async () => {
    expect(output).toContain(`metrics (GET /metrics, and /healthz): ${ORDER.map((name, i) => `${name} :${metricsBase + i}`).join(', ')}`);
    for (const name of ORDER)
      expect(await scrape(name)).toMatch(new RegExp(`^process_cpu_user_seconds_total\\{component="${name}"\\}`, 'm'));
  });

  it("defines, between the six, every family the chart's alerts and dashboard query", async () => {
    const declared = new Set<string>();
    for (const name of ORDER) for (const family of declaredFamilies(await scrape(name))) declared.add(family);
    expect(chartMetricFamilies().filter((name) => !declared.has(name))).toEqual([]);
  });

  it('reports the queues where they are consumed, and gRPC on both sides', async () => {
    expect(await scrape('ingestion')).toMatch(/^cs_queue_pending_jobs\{queue="ingestion",component="ingestion"\} 0$/m);
    const orchestrator = await scrape('search-orchestrator');
    expect(orchestrator).toMatch(/^cs_queue_oldest_job_age_seconds\{queue="search",component="search-orchestrator"\} 0$/m);
    expect(orchestrator).toMatch(/^grpc_client_handled_total\{[^}]*grpc_method="Rerank[^"]*"[^}]*grpc_code="OK"[^}]*\} [1-9]/m);
    for (const name of ['dense', 'sparse', 'reranker']) {
      const text = await scrape(name);
      expect(text).toMatch(/^grpc_server_handled_total\{[^}]*grpc_code="OK"[^}]*\} [1-9]/m);
      expect(text).toMatch(/^grpc_server_handling_seconds_bucket\{/m);
    }
  });

  const havePromtool = spawnSync('promtool', ['--version']).status === 0;
  (havePromtool || process.env.CI === 'true' ? it : it.skip)(
    "passes promtool check metrics on all six, for the project's own families",
    async () => {
      for (const name of ORDER) {
        const checked = spawnSync('promtool', ['check', 'metrics'], { input: await scrape(name), encoding: 'utf8' });
        expect(`${checked.stdout}${checked.stderr}`.split('\n').filter((line) => /^(cs_|grpc_)/.test(line))).toEqual([]);
      }
    },
  );
});
