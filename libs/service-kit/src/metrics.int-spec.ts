import { ServiceMetrics, startMetricsServer } from './metrics';

describe('metrics server', () => {
  it('serves the registry at GET /metrics and nothing else', async () => {
    const metrics = new ServiceMetrics('unit');
    metrics.searches.observe({ type: 'sparse', status: 'completed' }, 0.004);
    metrics.rerankerFallbacks.inc({ provider: 'cohere' });
    const server = await startMetricsServer(metrics, 0, '127.0.0.1');
    try {
      const answer = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe(metrics.registry.contentType);
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
});
