import { randomUUID } from 'node:crypto';
import type { SqlClient } from '@cs/ports';
import { camelize } from './row';

export type ReindexState = 'running' | 'completed' | 'failed';

export interface DenseReindexRecord {
  id: string;
  /** One company's CVs; null for every company's. */
  companyId: string | null;
  fromModel: string;
  toModel: string;
  state: ReindexState;
  documentsTotal: number;
  documentsDone: number;
  /** CVs that failed alone, passed over: their vectors are not in `toModel`'s set. */
  documentsSkipped: number;
  /** The first of them (SKIPPED_IDS_KEPT at most). */
  skippedDocumentIds: string[];
  cursorCompanyId: string | null;
  cursorDocumentId: string | null;
  /** Searches read `toModel`'s vectors since this reindex ended. */
  switched: boolean;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
}

const COLUMNS = `id, company_id, from_model, to_model, state, documents_total, documents_done, documents_skipped,
  skipped_document_ids, cursor_company_id, cursor_document_id, switched, error, created_at, updated_at, finished_at`;

/** Skipped CVs' ids kept on a reindex: enough to look into, bounded however many fail. */
export const SKIPPED_IDS_KEPT = 100;

/**
 * Reindexes of the dense vectors. One runs at a time (a unique index says so); a worker carries
 * it out under a lease it renews with each page, so a worker that dies hands it to another.
 */
export class DenseReindexesRepository {
  constructor(private readonly sql: SqlClient) {}

  /** A new running reindex, or null when one is running already. */
  async start(input: {
    companyId: string | null;
    fromModel: string;
    toModel: string;
    documentsTotal: number;
  }): Promise<DenseReindexRecord | null> {
    const rows = await this.sql.query(
      `INSERT INTO dense_reindexes (id, company_id, from_model, to_model, state, documents_total)
       VALUES ($1, $2, $3, $4, 'running', $5) ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [randomUUID(), input.companyId, input.fromModel, input.toModel, input.documentsTotal],
    );
    return rows[0] ? camelize<DenseReindexRecord>(rows[0]) : null;
  }

  async get(id: string): Promise<DenseReindexRecord | null> {
    const [row] = await this.sql.query(`SELECT ${COLUMNS} FROM dense_reindexes WHERE id = $1`, [id]);
    return row ? camelize<DenseReindexRecord>(row) : null;
  }

  async latest(): Promise<DenseReindexRecord | null> {
    const [row] = await this.sql.query(`SELECT ${COLUMNS} FROM dense_reindexes ORDER BY created_at DESC LIMIT 1`);
    return row ? camelize<DenseReindexRecord>(row) : null;
  }

  /** The running reindex, leased to `owner` for `leaseMs`, unless another worker's lease holds it. */
  async claim(owner: string, leaseMs: number): Promise<DenseReindexRecord | null> {
    const rows = await this.sql.query(
      `UPDATE dense_reindexes SET lease_owner = $1, lease_until = now() + make_interval(secs => $2::double precision / 1000)
        WHERE state = 'running' AND (lease_owner = $1 OR lease_until IS NULL OR lease_until < now())
        RETURNING ${COLUMNS}`,
      [owner, leaseMs],
    );
    return rows[0] ? camelize<DenseReindexRecord>(rows[0]) : null;
  }

  /**
   * Records a page done (its cursor moving on unless it is null: the catch-up pass has none) and
   * the CVs it skipped, and renews the lease; false when the lease was lost (another worker goes on).
   */
  async advance(
    id: string,
    owner: string,
    page: { cursor: { companyId: string; documentId: string } | null; done: number; skipped: readonly string[] },
    leaseMs: number,
  ): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE dense_reindexes SET documents_done = documents_done + $3,
          cursor_company_id = COALESCE($4, cursor_company_id), cursor_document_id = COALESCE($5, cursor_document_id),
          documents_skipped = documents_skipped + cardinality($7::uuid[]),
          skipped_document_ids = (skipped_document_ids || $7::uuid[])[1:${SKIPPED_IDS_KEPT}],
          lease_until = now() + make_interval(secs => $6::double precision / 1000), updated_at = now()
        WHERE id = $1 AND state = 'running' AND lease_owner = $2 RETURNING id`,
      [id, owner, page.done, page.cursor?.companyId ?? null, page.cursor?.documentId ?? null, leaseMs, page.skipped],
    );
    return rows.length > 0;
  }

  /** Renews the lease; false when it was lost (another worker goes on). */
  async renew(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE dense_reindexes SET lease_until = now() + make_interval(secs => $3::double precision / 1000)
        WHERE id = $1 AND state = 'running' AND lease_owner = $2 RETURNING id`,
      [id, owner, leaseMs],
    );
    return rows.length > 0;
  }

  /** Ends the reindex; `switched` when searches now read its model's vectors. */
  async finish(
    id: string,
    owner: string,
    outcome: { state: 'completed'; switched: boolean } | { state: 'failed'; error: string },
  ): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE dense_reindexes SET state = $3, switched = $4, error = $5, finished_at = now(), updated_at = now(),
          lease_owner = NULL, lease_until = NULL
        WHERE id = $1 AND state = 'running' AND lease_owner = $2 RETURNING id`,
      [id, owner, outcome.state, outcome.state === 'completed' && outcome.switched, outcome.state === 'failed' ? outcome.error : null],
    );
    return rows.length > 0;
  }
}
