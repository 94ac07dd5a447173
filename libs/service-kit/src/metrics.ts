import * as http from 'node:http';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Latency buckets (seconds) from a fast dense search to a slow hybrid one past its deadline. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.08, 0.12, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Ingestion runs from tens of milliseconds (a text file) to seconds (a long PDF). */
const INGESTION_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The Prometheus metrics of one process. Every service records into the same registry, so the
 * standalone process reports what the six cluster services report between them.
 */
export class ServiceMetrics {
  readonly registry = new Registry();

  readonly httpRequests = this.histogram(
    'cs_http_request_duration_seconds',
    'HTTP requests answered by the gateway, by route template and status code',
    ['method', 'route', 'status'],
  );

  readonly searches = this.histogram(
    'cs_search_duration_seconds',
    "Searches that ended, by type and final status; a completed search's time is its processingTimeMs",
    ['type', 'status'],
  );

  readonly searchStages = this.histogram(
    'cs_search_stage_duration_seconds',
    'Time spent in each stage of completed searches (retrieval, documents, rerank, explain)',
    ['type', 'stage'],
  );

  readonly ingestions = this.histogram(
    'cs_ingestion_duration_seconds',
    'CVs ingestion finished with, by outcome (completed, invalid, failed), from parsing to searchable',
    ['outcome'],
    INGESTION_BUCKETS,
  );

  readonly rerankerFallbacks = new Counter({
    name: 'cs_reranker_fallbacks_total',
    help: 'Hybrid searches the builtin reranker answered because the external one failed (results say degraded)',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });

  constructor(service: string) {
    // `component`, not `service`: the Prometheus Operator overwrites `service` with the Kubernetes Service's name.
    this.registry.setDefaultLabels({ component: service });
    collectDefaultMetrics({ register: this.registry });
  }

  private histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets = LATENCY_BUCKETS): Histogram<L> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.registry] });
  }
}

let current: ServiceMetrics | null = null;

/** This process's metrics, named after the first service that asked (the one `main` starts). */
export function processMetrics(service = 'candidate-search'): ServiceMetrics {
  current ??= new ServiceMetrics(service);
  return current;
}

/** Serves `GET /metrics` in Prometheus' text format on its own port, away from the public API. */
export async function startMetricsServer(
  metrics: ServiceMetrics,
  port: number,
  host: string,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('metrics are at GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(body),
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
