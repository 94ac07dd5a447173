import type { JobKind, JobPayloads, SqlClient } from '@cs/ports';
import type { TraceCarrier } from '@cs/telemetry';

/** A job to publish, as a writer adds it: its kind, the id the queue dedups by, its payload. */
export type OutboxEntry = { [K in JobKind]: { kind: K; jobId: string; payload: JobPayloads[K]; trace?: TraceCarrier } }[JobKind];

/** A row of the outbox: an entry, its key and the publish attempts that failed. */
export type OutboxRow = OutboxEntry & { id: string; attempts: number };

/** The outbox row's key: the queue's idempotency key of the job. */
export const outboxId = (entry: Pick<OutboxEntry, 'kind' | 'jobId'>): string => `${entry.kind}:${entry.jobId}`;

interface StoredRow {
  id: string;
  kind: JobKind;
  job_id: string;
  payload: unknown;
  attempts: number;
  trace_context: TraceCarrier | null;
}

/**
 * Takes up to $1 due rows and leases them for $2 ms, rows other relays hold skipped. Nothing is
 * written when none is due, which is what an idle poll finds.
 */
const CLAIM_SQL = `WITH due AS (
    SELECT id FROM outbox WHERE available_at <= now() ORDER BY available_at LIMIT $1 FOR UPDATE SKIP LOCKED)
  UPDATE outbox o SET available_at = now() + make_interval(secs => $2::double precision / 1000)
  FROM due WHERE o.id = due.id
  RETURNING o.id, o.kind, o.job_id, o.payload, o.attempts, o.trace_context`;

/** Jobs written with their records, until a relay has published them (see OutboxRelay). */
export class OutboxRepository {
  constructor(private readonly sql: SqlClient) {}

  /**
   * Writes entries through `tx` (the transaction of their records). Relays' polls leave them
   * alone for `leaseMs`, while the writer publishes them itself.
   */
  async add(entries: readonly OutboxEntry[], leaseMs: number, tx: SqlClient = this.sql): Promise<void> {
    for (const entry of entries) {
      await tx.query(
        `INSERT INTO outbox (id, kind, job_id, payload, available_at, trace_context)
         VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000), $6) ON CONFLICT (id) DO NOTHING`,
        [outboxId(entry), entry.kind, entry.jobId, entry.payload, leaseMs, entry.trace ?? null],
      );
    }
  }

  /** Due rows, up to `limit`, leased for `leaseMs` so that no other relay takes them meanwhile. */
  async claimDue(limit: number, leaseMs: number): Promise<OutboxRow[]> {
    const rows = await this.sql.query<StoredRow>(CLAIM_SQL, [limit, leaseMs]);
    // The payloads are the ones add() wrote, typed by kind; consumers parse them again anyway.
    return rows.map(
      (r) =>
        ({
          id: r.id,
          kind: r.kind,
          jobId: r.job_id,
          payload: r.payload,
          attempts: r.attempts,
          trace: r.trace_context ?? undefined,
        }) as OutboxRow,
    );
  }

  /** Published: gone from the outbox. */
  async delete(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.sql.query('DELETE FROM outbox WHERE id = ANY($1::text[])', [ids]);
  }

  /** A publish failed: one more attempt counted, due again in `delayMs`. */
  async release(id: string, delayMs: number, reason: string): Promise<void> {
    await this.sql.query(
      `UPDATE outbox SET attempts = attempts + 1, last_error = $3, available_at = now() + make_interval(secs => $2::double precision / 1000) WHERE id = $1`,
      [id, delayMs, reason.slice(0, 500)],
    );
  }
}
