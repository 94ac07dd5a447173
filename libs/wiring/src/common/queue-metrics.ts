import type { JobQueue, QueueStats } from '@cs/ports';
import type { MetricsRegistry, ProcessLifecycle } from '@cs/service-kit';

/**
 * The process's metrics and /healthz report the kinds it consumes from `queue` (both modes' queue
 * adapters count them; this reads their figures at each scrape).
 */
export function observeQueue<Q extends JobQueue>(queue: Q, metrics: MetricsRegistry, lifecycle: ProcessLifecycle): Q {
  let stats: Promise<QueueStats[]> | undefined;
  const read = (): Promise<QueueStats[]> =>
    // One read serves the four queue families of a scrape.
    (stats ??= queue
      .stats()
      .catch(() => [])
      .finally(() => setTimeout(() => (stats = undefined), 1000).unref()));
  const queueGauge = (name: string, help: string, pick: (s: QueueStats) => number) =>
    metrics.gauge(name, help, ['queue'], async (gauge) => {
      gauge.reset();
      for (const s of await read()) gauge.set({ queue: s.kind }, pick(s));
    });
  // Counted by the queue adapters since this process started: set to their figure at each scrape.
  const queueCounter = (name: string, help: string, pick: (s: QueueStats) => number) =>
    metrics.counter(name, help, ['queue'], async (counter) => {
      counter.reset();
      for (const s of await read()) counter.inc({ queue: s.kind }, pick(s));
    });
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
  lifecycle.watchLiveness('queue', () => queue.health());
  return queue;
}
