import * as http from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { GrpcObserver } from '@cs/grpc';
import { liveness, processState } from './process-state';
import type { JobQueue, QueueStats, SqlPoolStats } from '@cs/ports';

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

  readonly rateLimitRejections = new Counter({
    name: 'cs_rate_limit_rejections_total',
    help: 'Requests refused with 429, by limit category (search, read, upload-burst, upload-sustained, auth-failure)',
    labelNames: ['category'] as const,
    registers: [this.registry],
  });

  readonly keptAnswers = new Counter({
    name: 'cs_http_kept_answers_total',
    help: "Reads of an ended search's status or result page answered from its kept serialised answer (READ_CACHE_MB), before the framework, by route",
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly stuckDocumentsHandled = new Counter({
    name: 'cs_stuck_documents_total',
    help: 'Documents the watchdog found stuck in uploading or pending, by what it did (requeued, failed)',
    labelNames: ['action'] as const,
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'cs_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts, by outcome (delivered; retrying: failed, tried again later; failed: given up on)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly webhookAttemptDuration = this.histogram(
    'cs_webhook_delivery_attempt_duration_seconds',
    "Webhook delivery attempts, from the connection to the end of the endpoint's answer (at most its timeout)",
    ['outcome'],
  );

  readonly grpcServerHandled = new Counter({
    name: 'grpc_server_handled_total',
    help: 'gRPC calls completed on the server, by status code',
    labelNames: ['grpc_type', 'grpc_service', 'grpc_method', 'grpc_code'] as const,
    registers: [this.registry],
  });

  readonly grpcServerHandling = this.histogram('grpc_server_handling_seconds', 'Time the server took to handle gRPC calls', [
    'grpc_type',
    'grpc_service',
    'grpc_method',
  ]);

  readonly grpcClientHandled = new Counter({
    name: 'grpc_client_handled_total',
    help: 'gRPC calls completed by the client, by status code',
    labelNames: ['grpc_type', 'grpc_service', 'grpc_method', 'grpc_code'] as const,
    registers: [this.registry],
  });

  /** Queue figures are read once per scrape, for the four families. */
  private queue: JobQueue | undefined;
  private queueStats: Promise<QueueStats[]> | undefined;
  private sqlPool: (() => SqlPoolStats) | undefined;
  private stuckDocuments: (() => Promise<number>) | undefined;
  private heldRequests: (() => { waits: number; streams: number }) | undefined;

  constructor(service: string) {
    // `component`, not `service`: the Prometheus Operator overwrites `service` with the Kubernetes Service's name.
    this.registry.setDefaultLabels({ component: service });
    collectDefaultMetrics({ register: this.registry });
    const queueGauge = (name: string, help: string, pick: (s: QueueStats) => number) => {
      const gauge = new Gauge<'queue'>({
        name,
        help,
        labelNames: ['queue'],
        registers: [this.registry],
        collect: async () => {
          gauge.reset();
          for (const stats of await this.readQueueStats()) gauge.set({ queue: stats.kind }, pick(stats));
        },
      });
    };
    // Counted by the queue adapters since this process started: set to their figure at each scrape.
    const queueCounter = (name: string, help: string, pick: (s: QueueStats) => number) => {
      const counter = new Counter<'queue'>({
        name,
        help,
        labelNames: ['queue'],
        registers: [this.registry],
        collect: async () => {
          counter.reset();
          for (const stats of await this.readQueueStats()) counter.inc({ queue: stats.kind }, pick(stats));
        },
      });
    };
    queueGauge(
      'cs_queue_pending_jobs',
      'Jobs of a queue this process consumes not yet acknowledged (waiting or in hand)',
      (s) => s.pendingJobs,
    );
    queueGauge(
      'cs_queue_oldest_job_age_seconds',
      'Age of the oldest unacknowledged job of a queue (0 when it is empty)',
      (s) => s.oldestJobAgeSeconds,
    );
    queueCounter(
      'cs_queue_redeliveries_total',
      'Deliveries of a job after its first (a worker failed, crashed or ran out of time)',
      (s) => s.redeliveries,
    );
    queueCounter('cs_queue_dead_letters_total', 'Jobs given up on and kept as dead letters (see the admin CLI)', (s) => s.deadLetters);
    const pool = new Gauge<'state'>({
      name: 'cs_db_pool_connections',
      help: 'PostgreSQL pool connections: total, idle, and requests waiting for one',
      labelNames: ['state'],
      registers: [this.registry],
      collect: () => {
        const stats = this.sqlPool?.();
        if (stats) for (const state of ['total', 'idle', 'waiting'] as const) pool.set({ state }, stats[state]);
      },
    });
    const held = new Gauge<'kind'>({
      name: 'cs_held_requests',
      help: 'Requests the gateway holds open: waits (Prefer: wait) and event streams',
      labelNames: ['kind'],
      registers: [this.registry],
      collect: () => {
        const counts = this.heldRequests?.();
        if (counts) for (const kind of ['waits', 'streams'] as const) held.set({ kind }, counts[kind]);
      },
    });
    const stuck: Gauge = new Gauge({
      name: 'cs_stuck_documents',
      help: 'Documents waiting in uploading or pending past the watchdog bound (a lost job)',
      registers: [this.registry],
      collect: async () => {
        if (this.stuckDocuments) stuck.set(await this.stuckDocuments().catch(() => 0));
      },
    });
  }

  /** The queue whose consumed kinds this process reports. */
  observeQueue(queue: JobQueue): void {
    this.queue = queue;
  }

  observeSqlPool(stats: () => SqlPoolStats): void {
    this.sqlPool = stats;
  }

  /** How many requests the gateway holds open for searches to end (bounded by WAITS_* and EVENT_STREAMS_*). */
  observeHeldRequests(counts: () => { waits: number; streams: number }): void {
    this.heldRequests = counts;
  }

  observeStuckDocuments(count: () => Promise<number>): void {
    this.stuckDocuments = count;
  }

  /** Records gRPC calls in go-grpc-prometheus' families (unary calls only, here). */
  grpcObserver(): GrpcObserver {
    return {
      serverHandled: (service, method, code, seconds) => {
        const labels = { grpc_type: 'unary', grpc_service: service, grpc_method: method };
        this.grpcServerHandled.inc({ ...labels, grpc_code: code });
        this.grpcServerHandling.observe(labels, seconds);
      },
      clientHandled: (service, method, code) =>
        this.grpcClientHandled.inc({ grpc_type: 'unary', grpc_service: service, grpc_method: method, grpc_code: code }),
    };
  }

  private readQueueStats(): Promise<QueueStats[]> {
    if (!this.queue) return Promise.resolve([]);
    // One read serves the four queue families of a scrape.
    this.queueStats ??= this.queue
      .stats()
      .catch(() => [])
      .finally(() => setTimeout(() => (this.queueStats = undefined), 1000).unref());
    return this.queueStats;
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
    const path = req.url?.split('?')[0];
    if (req.method === 'GET' && path === '/livez') {
      // For liveness probes: only a process that gave up (failProcess) asks to be restarted; a
      // NATS outage is its consumers' to wait out (they reconnect), not a reason to restart.
      const failed = processState.failed;
      res
        .writeHead(failed ? 503 : 200, { 'content-type': 'application/json' })
        .end(JSON.stringify(failed ? { status: 'failed', reason: failed } : { status: 'ok' }));
      return;
    }
    if (req.method === 'GET' && path === '/healthz') {
      // The process's own loops (job consumers) and their connection: what a liveness probe should see.
      const { ok, problems } = liveness();
      res
        .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: ok ? 'ok' : 'failing', problems }));
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('metrics are at GET /metrics, health at GET /healthz and GET /livez\n');
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
