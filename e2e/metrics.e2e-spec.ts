import { spawnSync } from 'node:child_process';
import { eventually } from '@cs/test-services';
import { ApiClient } from './support/api-client';
import { chartMetricFamilies, declaredFamilies } from './support/chart-families';
import { TEXT, TEXT_CVS, createCompany } from './support/fixtures';
import { freePort } from './support/local-ports';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(120_000);

/** One sample's value from Prometheus' text format, 0 when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe('Prometheus metrics in standalone mode', () => {
  let service: StandaloneService;
  let exposition = '';
  let client: ApiClient;
  let metricsUrl: string;

  beforeAll(async () => {
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    service = await StandaloneService.start({ METRICS_PORT: String(metricsPort) });
    client = new ApiClient(service.baseUrl, (await createCompany(service, 'observed')).apiKey);
  });
  afterAll(() => service?.destroy());

  it('counts ingestions, searches by type and stage, and requests by route template, on its own port', async () => {
    const ids: string[] = [];
    for (const [name, text] of Object.entries(TEXT_CVS)) {
      const answer = await client.upload(Buffer.from(text), TEXT, { documentName: name, documentDate: '01-2024', fileName: `${name}.txt` });
      ids.push(answer.body.documentId);
    }
    await client.waitForDocuments(ids);
    for (const type of ['dense', 'hybrid']) {
      const created = await client.post(`/v1/public/searches/${type}`, { query: 'accountant reconciliations' });
      expect((await client.waitForSearch(created.body.searchId)).status).toBe('completed');
    }

    // Read until it shows the jobs acknowledged: a job is acknowledged after its outcome is stored,
    // so just after a search shows completed, its queue may still count it.
    exposition = await eventually(
      async () => {
        const answer = await fetch(metricsUrl);
        expect(answer.status).toBe(200);
        expect(answer.headers.get('content-type')).toContain('text/plain');
        const text = await answer.text();
        expect(sample(text, 'cs_ingestion_duration_seconds_count', { component: 'standalone', outcome: 'completed' })).toBe(4);
        expect(sample(text, 'cs_search_duration_seconds_count', { type: 'dense', status: 'completed' })).toBe(1);
        expect(sample(text, 'cs_search_duration_seconds_count', { type: 'hybrid', status: 'completed' })).toBe(1);
        expect(sample(text, 'cs_search_stage_duration_seconds_count', { type: 'hybrid', stage: 'rerank' })).toBe(1);
        // Route templates, not raw paths: every poll of either search lands in one series.
        expect(
          sample(text, 'cs_http_request_duration_seconds_count', { method: 'GET', route: '/v1/public/searches/:searchId', status: '200' }),
        ).toBeGreaterThanOrEqual(2);
        expect(text).not.toMatch(/route="\/v1\/public\/searches\/[0-9a-f]{8}-/);
        expect(sample(text, 'process_resident_memory_bytes', { component: 'standalone' })).toBeGreaterThan(0);
        // Both queues, consumed here, reported: drained once everything completed; nothing dead, nothing stuck.
        const series = (name: string, labels: Record<string, string>) =>
          text.split('\n').filter((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
        for (const queue of ['search', 'ingestion'])
          for (const name of [
            'cs_queue_pending_jobs',
            'cs_queue_oldest_job_age_seconds',
            'cs_queue_dead_letters_total',
            'cs_queue_redeliveries_total',
          ])
            expect(series(name, { queue })).toEqual([`${name}{queue="${queue}",component="standalone"} 0`]);
        expect(series('cs_stuck_documents', {})).toEqual(['cs_stuck_documents{component="standalone"} 0']);
        return text;
      },
      { timeoutMs: 20_000, intervalMs: 250 },
    );
    // Every family the chart's alerts and dashboard query, defined by the subsystems that run
    // here (the PostgreSQL pool is the cluster's alone).
    const declared = declaredFamilies(exposition);
    expect(chartMetricFamilies().filter((name) => !declared.includes(name))).toEqual(['cs_db_pool_connections']);
    // The API port does not serve them.
    expect((await fetch(`${service.baseUrl}/metrics`)).status).toBe(404);
  });

  // promtool is Debian's prometheus package (CI installs it); without it here the check is skipped, named.
  const havePromtool = spawnSync('promtool', ['--version']).status === 0;
  (havePromtool || process.env.CI === 'true' ? it : it.skip)("passes promtool check metrics for the project's own families", () => {
    const checked = spawnSync('promtool', ['check', 'metrics'], { input: exposition, encoding: 'utf8' });
    const ours = `${checked.stdout}${checked.stderr}`.split('\n').filter((line) => /^(cs_|grpc_)/.test(line));
    expect(ours).toEqual([]);
  });
});
