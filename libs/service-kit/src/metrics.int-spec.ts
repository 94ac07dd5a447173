import { MetricsRegistry, startMetricsServer } from './metrics';
import { ProcessLifecycle } from './process-lifecycle';

describe('metrics server', () => {
  it('serves the registry at GET /metrics and nothing else', async () => {
    const metrics = new MetricsRegistry('unit');
    metrics.histogram('cs_search_duration_seconds', 'Searches', ['type', 'status']).observe({ type: 'sparse', status: 'completed' }, 0.004);
    metrics.counter('cs_reranker_fallbacks_total', 'Fallbacks', ['provider']).inc({ provider: 'cohere' });
    const server = await startMetricsServer(metrics, new ProcessLifecycle(() => undefined), 0, '127.0.0.1');
    try {
      const answer = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(metrics.contentType);
      const text = await answer.text();
      const series = (name: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`));
      expect(
        series('cs_search_duration_seconds_bucket').filter(
          (l) => l.includes('le="0.005"') && l.includes('type="sparse"') && l.endsWith(' 1'),
        ),
      ).toHaveLength(1);
      expect(series('cs_reranker_fallbacks_total')).toEqual([expect.stringMatching(/^(?=.*provider="cohere")(?=.*component="unit").* 1$/)]);
      expect(text).toMatch(/^process_cpu_user_seconds_total\{component="unit"\} /m);
      expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("answers /healthz from the process's watched parts and /livez from whether it gave up", async () => {
    let stops = 0;
    const lifecycle = new ProcessLifecycle(() => stops++);
    let problems: string[] = [];
    lifecycle.watchLiveness('queue', () => ({ ok: problems.length === 0, problems }));
    const server = await startMetricsServer(new MetricsRegistry('unit'), lifecycle, 0, '127.0.0.1');
    const get = async (path: string) => {
      const answer = await fetch(`http://127.0.0.1:${server.port}${path}`);
      return { status: answer.status, body: await answer.json() };
    };
    try {
      expect(await get('/healthz')).toEqual({ status: 200, body: { status: 'ok', problems: [] } });
      problems = ['consumer stopped'];
      expect(await get('/healthz')).toEqual({ status: 503, body: { status: 'failing', problems: ['queue: consumer stopped'] } });
      expect(await get('/livez')).toEqual({ status: 200, body: { status: 'ok' } });
      lifecycle.fail('consumer lost');
      lifecycle.fail('asked twice');
      expect(await get('/livez')).toEqual({ status: 503, body: { status: 'failed', reason: 'consumer lost' } });
      expect(stops).toBe(1);
    } finally {
      await server.close();
    }
  });
});
