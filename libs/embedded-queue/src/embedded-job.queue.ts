import {
  DeliveryCounts,
  MAX_DEAD_LETTER_PAGE,
  checkedHandler,
  type DeadLetter,
  type DeadLetterPage,
  type DeadLetterQuery,
  type QueueStats,
  type Job,
  type JobHandler,
  type JobKind,
  type JobOutcome,
  type JobPayloads,
  type JobQueue,
  type SqlClient,
} from '@cs/ports';
import { currentTraceCarrier, type TraceCarrier } from '@cs/telemetry';

export interface EmbeddedQueueOptions {
  /** Deliveries before a job is dead-lettered. */
  maxDeliveries: number;
  /** Delay before redelivery n is backoffMs * 2^(n-1), with jitter. */
  backoffMs: number;
  /** How often idle workers look for due jobs (wake-ups make new jobs start at once). */
  pollMs: number;
  /** On close, how long jobs in hand may run on before they are handed back to the queue. */
  shutdownGraceMs: number;
  onError: (error: unknown) => void;
}

interface JobRow {
  id: string;
  kind: JobKind;
  /** As stored: parsed against its kind's schema before a handler sees it. */
  payload: unknown;
  attempts: number;
  trace_context: TraceCarrier | null;
}

interface DeadRow {
  id: string;
  kind: JobKind;
  payload: unknown;
  attempts: number;
  last_error: string | null;
  run_after: Date;
}
const DEAD_COLUMNS = 'id, kind, payload, attempts, last_error, run_after';

const deadLetterOf = (row: DeadRow): DeadLetter => ({
  id: row.id,
  kind: row.kind,
  jobId: row.id,
  payload: row.payload,
  reason: row.last_error ?? '',
  deliveries: row.attempts,
  deadAt: new Date(row.run_after),
});

/**
 * Takes the oldest ready job of a kind; the jobs_claim index yields it without sorting the
 * backlog. The same statement removes the job the worker finished last ($2, or null): one
 * statement a job instead of two, which at the embedded database's fixed cost a statement is
 * worth having.
 */
export const CLAIM_SQL = `WITH acked AS (DELETE FROM jobs WHERE id = $2)
  UPDATE jobs SET status = 'running', attempts = attempts + 1
  WHERE id = (SELECT id FROM jobs WHERE kind = $1 AND status = 'queued' AND run_after <= now()
              ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
  RETURNING id, kind, payload, attempts, trace_context`;

/**
 * The standalone job queue: jobs are rows of the embedded database, so a job accepted before a
 * crash is delivered again after the restart (at-least-once; handlers are idempotent by job id).
 */
export class EmbeddedJobQueue implements JobQueue {
  /** Idle workers by kind, each waiting to be woken: a new job wakes one, not all of them to race for it. */
  private readonly idle = new Map<JobKind, Set<() => void>>();
  private closed = false;
  private readonly running = new Set<Promise<void>>();
  /** Ids of the jobs handlers hold right now. */
  private readonly held = new Set<string>();
  private readonly counts = new DeliveryCounts();
  /** Workers whose loop ended in an error: their kind is consumed by fewer, or none. */
  private readonly stoppedWorkers: string[] = [];
  private readonly options: EmbeddedQueueOptions;

  private constructor(
    private readonly sql: SqlClient,
    options: Partial<EmbeddedQueueOptions>,
  ) {
    this.options = { maxDeliveries: 5, backoffMs: 500, pollMs: 250, shutdownGraceMs: 8000, onError: () => undefined, ...options };
  }

  /** Jobs left `running` by a process that died are handed out again. */
  static async open(sql: SqlClient, options: Partial<EmbeddedQueueOptions> = {}): Promise<EmbeddedJobQueue> {
    await sql.query(`UPDATE jobs SET status = 'queued' WHERE status = 'running'`);
    return new EmbeddedJobQueue(sql, options);
  }

  async publish<K extends JobKind>(kind: K, id: string, payload: JobPayloads[K], trace = currentTraceCarrier()): Promise<void> {
    await this.sql.query('INSERT INTO jobs (id, kind, payload, trace_context) VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING', [
      id,
      kind,
      payload,
      trace ?? null,
    ]);
    const [wake] = this.idle.get(kind) ?? [];
    wake?.();
  }

  consume<K extends JobKind>(kind: K, concurrency: number, handler: JobHandler<JobPayloads[K]>): void {
    // An invalid payload ends `dead` with the reason in last_error, like any job given up on.
    const checked = checkedHandler(kind, handler);
    this.counts.track(kind);
    for (let i = 0; i < concurrency; i++) {
      const worker = this.work(kind, checked).catch((error: unknown) => {
        this.stoppedWorkers.push(`a ${kind} worker stopped: ${error instanceof Error ? error.message : String(error)}`);
        this.options.onError(error);
      });
      this.running.add(worker);
      void worker.finally(() => this.running.delete(worker));
    }
  }

  private async work(kind: JobKind, handler: JobHandler<unknown>): Promise<void> {
    // A finished job's row goes with the next claim; a crash before that delivers it again,
    // which at-least-once handlers take as done.
    let acked: string | null = null;
    try {
      while (!this.closed) {
        const row = await this.claim(kind, acked);
        acked = null;
        if (!row) {
          await this.waitIdle(kind);
          continue;
        }
        const job: Job<unknown> = {
          id: row.id,
          kind: row.kind,
          payload: row.payload,
          attempt: row.attempts,
          trace: row.trace_context ?? undefined,
        };
        let outcome: JobOutcome;
        this.held.add(job.id);
        this.counts.delivered(kind, job.attempt);
        try {
          outcome = await handler(job);
        } catch (error) {
          outcome = { ack: false, retry: true, reason: error instanceof Error ? error.message : String(error) };
        } finally {
          this.held.delete(job.id);
        }
        if (outcome.ack) {
          acked = job.id;
        } else if (outcome.retry && job.attempt < this.options.maxDeliveries) {
          const delay = this.options.backoffMs * 2 ** (job.attempt - 1) * (0.5 + Math.random());
          await this.sql.query(
            `UPDATE jobs SET status = 'queued', last_error = $2, run_after = now() + make_interval(secs => $3::double precision / 1000) WHERE id = $1`,
            [job.id, outcome.reason, delay],
          );
        } else {
          // A dead row runs after nothing: its run_after records when it died, for the dead-letter listing.
          await this.sql.query(`UPDATE jobs SET status = 'dead', last_error = $2, run_after = now() WHERE id = $1`, [
            job.id,
            outcome.reason,
          ]);
          this.counts.deadLettered(kind);
        }
      }
    } finally {
      if (acked) await this.sql.query('DELETE FROM jobs WHERE id = $1', [acked]);
    }
  }

  health(): { ok: boolean; problems: string[] } {
    return { ok: this.stoppedWorkers.length === 0, problems: [...this.stoppedWorkers] };
  }

  async stats(): Promise<QueueStats[]> {
    const kinds = this.counts.kinds();
    if (kinds.length === 0) return [];
    const rows = await this.sql.query<{ kind: JobKind; pending: number; oldest: number | null }>(
      `SELECT kind, count(*)::int AS pending, extract(epoch FROM now() - min(created_at))::float8 AS oldest
       FROM jobs WHERE kind = ANY($1::text[]) AND status IN ('queued', 'running') GROUP BY kind`,
      [kinds],
    );
    return kinds.map((kind) => {
      const row = rows.find((r) => r.kind === kind);
      return { kind, pendingJobs: row?.pending ?? 0, oldestJobAgeSeconds: Math.max(0, row?.oldest ?? 0), ...this.counts.of(kind) };
    });
  }

  /** Dead rows in job-id order: the id is the page cursor. */
  async deadLetters({ kind, limit, after }: DeadLetterQuery): Promise<DeadLetterPage> {
    const size = Math.min(Math.max(1, limit), MAX_DEAD_LETTER_PAGE);
    const rows = await this.sql.query<DeadRow>(
      `SELECT ${DEAD_COLUMNS} FROM jobs WHERE status = 'dead' AND ($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR id > $2)
       ORDER BY id LIMIT $3`,
      [kind ?? null, after ?? null, size],
    );
    return { letters: rows.map(deadLetterOf), next: rows.length === size ? rows[rows.length - 1].id : null };
  }

  async deadLetter(kind: JobKind, id: string): Promise<DeadLetter | null> {
    const [row] = await this.sql.query<DeadRow>(`SELECT ${DEAD_COLUMNS} FROM jobs WHERE id = $1 AND kind = $2 AND status = 'dead'`, [
      id,
      kind,
    ]);
    return row ? deadLetterOf(row) : null;
  }

  /**
   * The row itself goes back to the queue as a new job (attempts from 0, at the back of the queue,
   * in the replaying request's trace); the status check makes a second replay a no-op.
   */
  async replayDeadLetters(kind: JobKind, id?: string): Promise<number> {
    const rows = await this.sql.query<{ id: string }>(
      `UPDATE jobs SET status = 'queued', attempts = 0, last_error = NULL, run_after = now(), created_at = now(), trace_context = $3
       WHERE kind = $1 AND status = 'dead' AND ($2::text IS NULL OR id = $2) RETURNING id`,
      [kind, id ?? null, currentTraceCarrier() ?? null],
    );
    for (const done of [...(this.idle.get(kind) ?? [])].slice(0, rows.length)) done();
    return rows.length;
  }

  async purgeDeadLetters(kind: JobKind, id?: string): Promise<number> {
    const rows = await this.sql.query<{ id: string }>(
      `DELETE FROM jobs WHERE kind = $1 AND status = 'dead' AND ($2::text IS NULL OR id = $2) RETURNING id`,
      [kind, id ?? null],
    );
    return rows.length;
  }

  private async claim(kind: JobKind, acked: string | null): Promise<JobRow | null> {
    const [row] = await this.sql.query<JobRow>(CLAIM_SQL, [kind, acked]);
    return row ?? null;
  }

  /** Until a job of this kind is published, the poll interval passes, or the queue closes. */
  private waitIdle(kind: JobKind): Promise<void> {
    const waiting = this.idle.get(kind) ?? new Set<() => void>();
    this.idle.set(kind, waiting);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      waiting.add(done);
    });
  }

  private wakeAll(): void {
    for (const waiting of this.idle.values()) for (const done of [...waiting]) done();
  }

  /** Stops claiming and hands nothing back: what a crash does (fault tests). */
  async abandon(): Promise<void> {
    this.closed = true;
    this.held.clear();
    this.wakeAll();
  }

  /** Stops claiming; jobs in hand may finish within the grace period, then go back to the queue. */
  async close(): Promise<void> {
    this.closed = true;
    this.wakeAll();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.shutdownGraceMs)));
    await Promise.race([Promise.allSettled([...this.running]), grace]);
    clearTimeout(timer);
    if (this.held.size > 0) {
      await this.sql.query(`UPDATE jobs SET status = 'queued' WHERE status = 'running' AND id = ANY($1::text[])`, [[...this.held]]);
    }
  }
}
