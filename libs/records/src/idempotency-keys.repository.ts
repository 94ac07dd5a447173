import { randomUUID } from 'node:crypto';
import type { SqlClient } from '@cs/ports';

/** What identifies a request that carried an Idempotency-Key, and what a later one must match. */
export interface IdempotentRequest {
  /** `company:<id>`, or `admin` for the admin API: keys of two scopes never meet. */
  scope: string;
  key: string;
  method: string;
  /** The route's path as requested, for the message of a mismatch (the fingerprint covers the query too). */
  path: string;
  /** A digest of everything that makes two requests the same one (method, target, type, body). */
  fingerprint: string;
}

/** An answer as it was sent: its status, the headers a client needs, its body's bytes. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A key's row: the request that claimed it, in flight (`answer` null) or answered. */
export interface IdempotencyRecord extends IdempotentRequest {
  state: 'processing' | 'completed';
  answer: StoredAnswer | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Either this request holds the key now (`token` proves it), or the row that another one holds. */
export type IdempotencyClaim = { claimed: true; token: string } | { claimed: false; record: IdempotencyRecord };

export interface IdempotencyKeysOptions {
  /** How long an answer is kept, from when it was stored. */
  ttlMs: number;
  /**
   * How long a claim in flight keeps the key from others. Past it, a retry takes the key over:
   * that is how a key held by a process that died is freed. Longer than any POST runs (the
   * longest, upload-from-url, fetches for 15 s at most).
   */
  leaseMs: number;
}

/** Bodies of stored answers are bounded: no POST answer comes near (the largest, a 201 of an upload, is about 1 KB). */
export const MAX_STORED_ANSWER_BYTES = 64 * 1024;

const DEFAULTS: IdempotencyKeysOptions = { ttlMs: 24 * 60 * 60 * 1000, leaseMs: 60_000 };

interface Row {
  scope: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string;
  state: 'processing' | 'completed';
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: Uint8Array | null;
  created_at: Date;
  expires_at: Date;
}

const interval = (param: string) => `make_interval(secs => ${param}::double precision / 1000)`;

/**
 * Takes a key: a new row, or one whose lease or answer expired (taken over in the same statement,
 * so two replicas racing on a key never both get it). Nothing is returned when a live row holds it.
 */
const CLAIM_SQL = `INSERT INTO idempotency_keys (scope, key, method, path, fingerprint, state, owner, expires_at)
  VALUES ($1, $2, $3, $4, $5, 'processing', $6, now() + ${interval('$7')})
  ON CONFLICT (scope, key) DO UPDATE SET method = EXCLUDED.method, path = EXCLUDED.path, fingerprint = EXCLUDED.fingerprint,
    state = 'processing', owner = EXCLUDED.owner, response_status = NULL, response_headers = NULL, response_body = NULL,
    created_at = now(), expires_at = EXCLUDED.expires_at
  WHERE idempotency_keys.expires_at <= now()
  RETURNING owner`;

/** Idempotency-Key rows: claimed atomically, answered or released by their claimer, pruned once expired. */
export class IdempotencyKeysRepository {
  private readonly options: IdempotencyKeysOptions;

  constructor(
    private readonly sql: SqlClient,
    options: Partial<IdempotencyKeysOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /**
   * Claims the key for this request, or hands back the row that holds it (in flight or answered).
   * The comparison of fingerprints is the caller's: a row is returned whatever request made it.
   */
  async claim(request: IdempotentRequest): Promise<IdempotencyClaim> {
    // A row seen by the insert can be gone by the read (released after a 5xx, pruned): claim again.
    for (let attempt = 0; ; attempt++) {
      const token = randomUUID();
      const taken = await this.sql.query<{ owner: string }>(CLAIM_SQL, [
        request.scope,
        request.key,
        request.method,
        request.path,
        request.fingerprint,
        token,
        this.options.leaseMs,
      ]);
      if (taken[0]?.owner === token) return { claimed: true, token };
      const record = await this.get(request.scope, request.key);
      if (record) return { claimed: false, record };
      if (attempt >= 2) throw new Error(`idempotency key ${request.scope} could not be claimed nor read`);
    }
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | null> {
    const [row] = await this.sql.query<Row>(
      `SELECT scope, key, method, path, fingerprint, state, response_status, response_headers, response_body, created_at, expires_at
       FROM idempotency_keys WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    if (!row) return null;
    const answer =
      row.state === 'completed' && row.response_status !== null
        ? {
            status: row.response_status,
            headers: row.response_headers ?? {},
            // PGlite reads bytea as a Uint8Array, node-postgres as a Buffer: one type for callers.
            body: Buffer.from(row.response_body ?? new Uint8Array()),
          }
        : null;
    return {
      scope: row.scope,
      key: row.key,
      method: row.method,
      path: row.path,
      fingerprint: row.fingerprint,
      state: row.state,
      answer,
      createdAt: new Date(row.created_at),
      expiresAt: new Date(row.expires_at),
    };
  }

  /** Stores the answer of the claim `token` holds, kept for the TTL; false when the claim was lost (taken over past its lease). */
  async complete(scope: string, key: string, token: string, answer: StoredAnswer): Promise<boolean> {
    if (answer.body.length > MAX_STORED_ANSWER_BYTES)
      throw new Error(`an answer of ${answer.body.length} bytes is over the ${MAX_STORED_ANSWER_BYTES} bytes stored`);
    const rows = await this.sql.query(
      `UPDATE idempotency_keys SET state = 'completed', owner = NULL, response_status = $4, response_headers = $5, response_body = $6,
         expires_at = now() + ${interval('$7')}
       WHERE scope = $1 AND key = $2 AND owner = $3 AND state = 'processing' RETURNING key`,
      [scope, key, token, answer.status, answer.headers, answer.body, this.options.ttlMs],
    );
    return rows.length > 0;
  }

  /** Frees the key the claim `token` holds, so that a retry runs afresh; false when the claim was lost. */
  async release(scope: string, key: string, token: string): Promise<boolean> {
    const rows = await this.sql.query(
      `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND owner = $3 AND state = 'processing' RETURNING key`,
      [scope, key, token],
    );
    return rows.length > 0;
  }

  /**
   * Deletes up to `limit` expired rows (answers past their TTL, claims past their lease), rows
   * another pruner holds skipped; returns how many went.
   */
  async pruneExpired(limit: number): Promise<number> {
    const rows = await this.sql.query(
      `DELETE FROM idempotency_keys WHERE (scope, key) IN (
         SELECT scope, key FROM idempotency_keys WHERE expires_at <= now() ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING key`,
      [limit],
    );
    return rows.length;
  }
}
