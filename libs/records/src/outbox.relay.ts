import { currentTraceCarrier } from '@cs/telemetry';
import type { JobKind, JobPayloads, JobQueue, SqlClient } from '@cs/ports';
import { OutboxRepository, outboxId, type OutboxEntry, type OutboxRow } from './outbox.repository';

export interface OutboxRelayOptions {
  /** How often the outbox is read for rows whose publish failed or whose writer died. */
  pollMs: number;
  /** The longest wait between polls while they keep failing (database or queue down). */
  maxPollMs: number;
  /**
   * How long a row is left to the relay that holds it (its writer, or the poll that claimed it)
   * before another may take it: longer than a publish's deadline (NATS: 5 s).
   */
  leaseMs: number;
  /** A row whose publish failed is due again after retryMs * 2^(attempts-1), with jitter, at most maxRetryMs. */
  retryMs: number;
  maxRetryMs: number;
  /** Rows one claim takes. */
  batchSize: number;
  /** On close, how long publishes in flight may run on (a row cut short stays for the next start). */
  closeGraceMs: number;
  onError: (message: string, error: unknown) => void;
}

const DEFAULTS: OutboxRelayOptions = {
  pollMs: 1000,
  maxPollMs: 30_000,
  leaseMs: 10_000,
  retryMs: 1000,
  maxRetryMs: 15_000,
  batchSize: 100,
  closeGraceMs: 5000,
  onError: () => undefined,
};

/** What the relay needs of the outbox table (OutboxRepository; fakes in tests). */
export type OutboxStore = Pick<OutboxRepository, 'add' | 'claimDue' | 'delete' | 'release'>;

/** Adds a job to the transaction being written: it is stored with the records and published after the commit. */
export type AddJob = <K extends JobKind>(kind: K, jobId: string, payload: JobPayloads[K]) => void;

const jitter = (ms: number) => Math.round(ms * (0.5 + Math.random()));

/**
 * The transactional outbox: a record and its job are written in one transaction, then the job is
 * published to the queue. The writer publishes at once after the commit (no added latency on
 * the common path); a poll every `pollMs` publishes what is left: rows whose publish failed
 * (each backs off on its own) and rows of a writer that died. Delivery is at least once: a row
 * is deleted only once published, and a row published twice is deduplicated by the queue (the
 * job id) or skipped by its handler (a finished record). Several relays over one database (gateway
 * replicas) take rows with leases, so none is published by two of them at once.
 */
export class OutboxRelay {
  private readonly options: OutboxRelayOptions;
  private readonly outbox: OutboxStore;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Polls that failed in a row: the next waits longer. */
  private failures = 0;
  private closed = false;

  constructor(
    private readonly sql: SqlClient,
    private readonly queue: JobQueue,
    options: Partial<OutboxRelayOptions> = {},
    outbox?: OutboxStore,
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.outbox = outbox ?? new OutboxRepository(sql);
  }

  /**
   * Runs `work` in one transaction; the jobs it adds are written in that transaction, and
   * published as soon as it commits (not awaited: the caller answers at once, and a publish that
   * fails is retried from the outbox).
   */
  async writeWithJobs<T>(work: (tx: SqlClient, addJob: AddJob) => Promise<T>): Promise<T> {
    const entries: OutboxEntry[] = [];
    const value = await this.sql.transaction(async (tx) => {
      const trace = currentTraceCarrier(); // the writer's request: the job's consumer joins its trace
      const result = await work(tx, (kind, jobId, payload) => void entries.push({ kind, jobId, payload, trace } as OutboxEntry));
      if (entries.length > 0) await this.outbox.add(entries, this.options.leaseMs, tx);
      return result;
    });
    if (entries.length > 0) this.track(this.publish(entries.map((entry) => ({ ...entry, id: outboxId(entry), attempts: 0 }))));
    return value;
  }

  /** Starts polling (a first poll at once: rows a stopped process left). */
  start(): void {
    if (!this.closed && !this.timer && !this.polling) this.schedule(0);
  }

  /**
   * One poll: publishes every due row, a batch at a time. False when the database or a publish
   * failed: the pass stops there, and the rows left wait for their own retry time.
   */
  async relayDue(): Promise<boolean> {
    try {
      for (;;) {
        const rows = await this.outbox.claimDue(this.options.batchSize, this.options.leaseMs);
        if (rows.length === 0) return true;
        if (!(await this.publish(rows))) return false;
        if (rows.length < this.options.batchSize || this.closed) return true;
      }
    } catch (error) {
      this.options.onError('reading the outbox failed; polling again later', error);
      return false;
    }
  }

  /** Stops polling; publishes in flight may finish within the grace period. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.closeGraceMs)));
    await Promise.race([Promise.allSettled([this.polling, ...this.inFlight]), grace]);
    clearTimeout(timer);
  }

  /** Publishes rows; the published leave the outbox, the others are due again after a backoff. True when all were published. */
  private async publish(rows: OutboxRow[]): Promise<boolean> {
    const outcomes = await Promise.allSettled(rows.map((row) => this.queue.publish(row.kind, row.jobId, row.payload, row.trace)));
    const published = rows.filter((_, i) => outcomes[i].status === 'fulfilled').map((row) => row.id);
    try {
      await this.outbox.delete(published);
    } catch (error) {
      // Published but kept: the next poll publishes them again, which the queue deduplicates.
      this.options.onError(`could not delete ${published.length} published outbox rows`, error);
    }
    let allPublished = true;
    for (const [i, outcome] of outcomes.entries()) {
      if (outcome.status === 'fulfilled') continue;
      allPublished = false;
      const row = rows[i];
      const attempts = row.attempts + 1;
      const reason = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      this.options.onError(`publishing job ${row.id} failed (attempt ${attempts}); kept in the outbox`, outcome.reason);
      try {
        await this.outbox.release(row.id, jitter(Math.min(this.options.retryMs * 2 ** (attempts - 1), this.options.maxRetryMs)), reason);
      } catch (error) {
        // Its lease runs out instead, and a poll takes it then.
        this.options.onError(`could not record the failed publish of ${row.id}`, error);
      }
    }
    return allPublished;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.polling = this.relayDue().then((ok) => {
        this.failures = ok ? 0 : this.failures + 1;
        this.polling = null;
        if (!this.closed)
          this.schedule(
            this.failures === 0 ? this.options.pollMs : jitter(Math.min(this.options.pollMs * 2 ** this.failures, this.options.maxPollMs)),
          );
      });
    }, ms);
    this.timer.unref();
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.options.onError('publishing from the outbox failed', error));
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}
