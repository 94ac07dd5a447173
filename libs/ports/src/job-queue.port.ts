import { parseJobPayload, type JobKind, type JobPayloads } from '@cs/contracts';
import { SpanStatusCode } from '@opentelemetry/api';
import { inJobSpan, loggerFor, withLogFields, type TraceCarrier } from '@cs/telemetry';

export type { JobKind, JobPayloads } from '@cs/contracts';

export interface Job<P> {
  id: string;
  kind: JobKind;
  payload: P;
  /** 1 on the first delivery. */
  attempt: number;
  /** The publisher's trace context, when it was traced. */
  trace?: TraceCarrier;
}

/** What a handler tells the queue: done, try again later, or give up. */
export type JobOutcome = { ack: true } | { ack: false; retry: boolean; reason: string };

export type JobHandler<P> = (job: Job<P>) => Promise<JobOutcome>;

/** One queue as its consumers see it, for the process's metrics. */
export interface QueueStats {
  kind: JobKind;
  /** Jobs not yet acknowledged: waiting, or in a worker's hands. */
  pendingJobs: number;
  /** Age of the oldest of them; 0 when there is none. */
  oldestJobAgeSeconds: number;
  /** Deliveries after the first, since this process started. */
  redeliveries: number;
  /** Jobs given up on (to the dead letters), since this process started. */
  deadLetters: number;
}

/** Counts a queue adapter keeps per kind it consumes. */
export class DeliveryCounts {
  private readonly counts = new Map<JobKind, { redeliveries: number; deadLetters: number }>();

  /** Called when the process starts consuming a kind: its counts exist, at 0, from then on. */
  track(kind: JobKind): void {
    if (!this.counts.has(kind)) this.counts.set(kind, { redeliveries: 0, deadLetters: 0 });
  }

  delivered(kind: JobKind, attempt: number): void {
    if (attempt > 1) this.of(kind).redeliveries++;
  }

  /** Counted only for a kind this process consumes: a publisher that moved a letter (an advisory it took) reports no queue. */
  deadLettered(kind: JobKind): void {
    const counts = this.counts.get(kind);
    if (counts) counts.deadLetters++;
  }

  kinds(): JobKind[] {
    return [...this.counts.keys()];
  }

  of(kind: JobKind): { redeliveries: number; deadLetters: number } {
    this.track(kind);
    return this.counts.get(kind)!;
  }
}

/** A job the queue gave up on, as an operator reads it. */
export interface DeadLetter {
  /** The letter's handle within its kind: the job id (embedded) or the dead-letter stream sequence (NATS). */
  id: string;
  kind: JobKind;
  /** The id its handler saw (the publisher's idempotency key). */
  jobId: string;
  /** As delivered; may be what its kind does not accept (then the reason says so). */
  payload: unknown;
  reason: string;
  /** Deliveries it had when it was given up on. */
  deliveries: number;
  deadAt: Date;
}

/** A page of dead letters: `after` is the `id` of the last letter of the previous page. */
export interface DeadLetterQuery {
  /** Both kinds when absent. */
  kind?: JobKind;
  /** At most {@link MAX_DEAD_LETTER_PAGE}. */
  limit: number;
  after?: string;
}

export interface DeadLetterPage {
  letters: DeadLetter[];
  /** The `after` of the next page; null when this one is the last. */
  next: string | null;
}

export const MAX_DEAD_LETTER_PAGE = 100;

/** Durable at-least-once job delivery; handlers must be idempotent by job id. */
export interface JobQueue {
  /** `trace` is the context the job was created in (the outbox keeps it); else the active one. */
  publish<K extends JobKind>(kind: K, id: string, payload: JobPayloads[K], trace?: TraceCarrier): Promise<void>;
  /** Payloads are parsed first (see {@link checkedHandler}): a handler only ever sees a valid one. */
  consume<K extends JobKind>(kind: K, concurrency: number, handler: JobHandler<JobPayloads[K]>): void;
  /** The kinds this process consumes (their backlog is reported once, by their consumers). */
  stats(): Promise<QueueStats[]>;
  /** Where the queue is a server: resolves when it is reachable now, else throws why not. */
  ping?(): Promise<void>;
  /** Whether this process's consume loops run (and its connection holds): what is wrong, if not. */
  health(): { ok: boolean; problems: string[] };
  close(): Promise<void>;
  /** The jobs given up on, a page at a time, in a stable order. */
  deadLetters(query: DeadLetterQuery): Promise<DeadLetterPage>;
  /** One dead letter of `kind`; null when there is none with that id. */
  deadLetter(kind: JobKind, id: string): Promise<DeadLetter | null>;
  /**
   * Publishes the job again with its payload and job id, from its first delivery, and removes the
   * letter; with no `id`, every letter of `kind` there was when called. Resolves with the count
   * replayed (0: no such letter, so a second replay of one does nothing).
   */
  replayDeadLetters(kind: JobKind, id?: string): Promise<number>;
  /** Removes one letter of `kind`, or all of them; resolves with the count removed. */
  purgeDeadLetters(kind: JobKind, id?: string): Promise<number>;
}
export const JOB_QUEUE = Symbol('JobQueue');

/**
 * What every adapter runs in place of a consumer's handler: the payload as delivered (unknown
 * bytes, decoded) is parsed against its kind's schema, and one that fails is given up at once
 * (`retry: false`, so the adapter dead-letters it with the reason) without reaching the handler.
 * The handling is a span under the publisher's, logs a line when it starts and one when it ends
 * (outcome and duration), and every line logged within carries the job's ids.
 */
export function checkedHandler<K extends JobKind>(kind: K, handler: JobHandler<JobPayloads[K]>): JobHandler<unknown> {
  const logger = loggerFor(`${kind} jobs`);
  return (job) => {
    const parsed = parseJobPayload(kind, job.payload);
    const ids = parsed.ok ? (parsed.payload as Record<string, string>) : {};
    return withLogFields({ jobId: job.id, ...ids }, () =>
      inJobSpan(kind, job.trace, { 'messaging.message.id': job.id, 'cs.job.attempt': job.attempt, ...prefixed(ids) }, async (span) => {
        const started = performance.now();
        logger.info({ attempt: job.attempt }, `${kind} job started`);
        let outcome: JobOutcome = { ack: false, retry: false, reason: parsed.ok ? '' : parsed.reason };
        try {
          if (parsed.ok) outcome = await handler({ ...job, payload: parsed.payload });
          return outcome;
        } catch (error) {
          outcome = { ack: false, retry: true, reason: error instanceof Error ? error.message : String(error) };
          throw error;
        } finally {
          const durationMs = Math.round((performance.now() - started) * 10) / 10;
          const result = outcome.ack ? 'ack' : outcome.retry ? 'retry' : 'dead-letter';
          span.setAttribute('cs.job.outcome', result);
          if (!outcome.ack) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.reason });
          if (outcome.ack) logger.info({ outcome: result, durationMs }, `${kind} job ended`);
          else logger.warn({ outcome: result, reason: outcome.reason, durationMs }, `${kind} job ended`);
        }
      }),
    );
  };
}

/** Payload ids as span attributes (`cs.search_id`, `cs.document_id`). */
function prefixed(ids: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(ids).map(([k, v]) => [`cs.${k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`, v]));
}
