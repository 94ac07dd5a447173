import * as http from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type CounterConfiguration } from 'prom-client';
import type { ProcessLifecycle } from './process-lifecycle';

/** Latency buckets (seconds) from a fast dense search to a slow hybrid one past its deadline. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.08, 0.12, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The Prometheus registry of one process (ProcessModule provides it). Every service records into
 * the same one, so the standalone process reports what the six cluster services report between
 * them; each subsystem defines its own families on it, beside its code.
 */
export class MetricsRegistry extends Registry {
  constructor(service: string) {
    super();
    // `component`, not `service`: the Prometheus Operator overwrites `service` with the Kubernetes Service's name.
    this.setDefaultLabels({ component: service });
    collectDefaultMetrics({ register: this });
  }

  histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets = LATENCY_BUCKETS): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this] });
  }

  /** `collect`: sets the counter at each scrape, for figures counted elsewhere (an adapter's own). */
  counter<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect?: (counter: Counter<L>) => void | Promise<void>,
  ): Counter<L> {
    const config: CounterConfiguration<L> = { name, help, labelNames, registers: [this] };
    if (collect)
      config.collect = function () {
        return collect(this);
      };
    return new Counter(config);
  }

  /** A gauge read at each scrape by `collect`. */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect: (gauge: Gauge<L>) => void | Promise<void>,
  ): Gauge<L> {
    return new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this],
      collect() {
        return collect(this);
      },
    });
  }
}

/** Serves `GET /metrics` in Prometheus' text format on its own port, away from the public API. */
export async function startMetricsServer(
  metrics: MetricsRegistry,
  lifecycle: ProcessLifecycle,
  port: number,
  host: string,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (req.method === 'GET' && path === '/livez') {
      // For liveness probes: only a process that gave up (ProcessLifecycle.fail) asks to be restarted; a
      // NATS outage is its consumers' to wait out (they reconnect), not a reason to restart.
      const failed = lifecycle.failed;
      res
        .writeHead(failed ? 503 : 200, { 'content-type': 'application/json' })
        .end(JSON.stringify(failed ? { status: 'failed', reason: failed } : { status: 'ok' }));
      return;
    }
    if (req.method === 'GET' && path === '/healthz') {
      // The process's own loops (job consumers) and their connection: what a liveness probe should see.
      const { ok, problems } = lifecycle.liveness();
      res
        .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: ok ? 'ok' : 'failing', problems }));
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('metrics are at GET /metrics, health at GET /healthz and GET /livez\n');
      return;
    }
    metrics.metrics().then(
      (body) => res.writeHead(200, { 'content-type': metrics.contentType }).end(body),
      (error: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics could not be collected: ${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: (server.address() as import('node:net').AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
