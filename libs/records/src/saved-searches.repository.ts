import { randomUUID } from 'node:crypto';
import type { SqlClient } from '@cs/ports';
import type { SearchFilter } from '@cs/search-filters';
import type { SearchFilters } from '@cs/search-filters/body';
import type { QuerySearchType } from '@cs/search-domain';

export interface SavedSearchRecord {
  id: string;
  companyId: string;
  name: string;
  searchType: QuerySearchType;
  query: string;
  /** As the client wrote them, and as the stores apply them (resolved when the search was saved). */
  filters: SearchFilters | null;
  resolvedFilter: SearchFilter | null;
  /** Its first page: a CV that arrives and ranks within it is a new match. */
  topK: number;
  createdAt: Date;
  matchesCount: number;
  /** When its newest match was found. */
  lastMatchAt: Date | null;
}

export type NewSavedSearch = Pick<SavedSearchRecord, 'name' | 'searchType' | 'query' | 'filters' | 'resolvedFilter' | 'topK'>;

/** A CV that entered a saved search's first page after it was saved. */
export interface SavedSearchMatch {
  documentId: string;
  documentName: string;
  rank: number;
  score: number;
  /** When the CV was read (its status became completed), and when the saved search found it. */
  arrivedAt: Date;
  foundAt: Date;
}

/** The CVs of one company read since its saved searches last ran, claimed by one runner under `token` for a while. */
export interface ClaimedArrivals {
  companyId: string;
  token: string;
  /** How many times these CVs have been claimed, this claim included. */
  attempts: number;
  arrivals: { documentId: string; arrivedAt: Date }[];
}

/** What one run of a saved search found among the arrivals: its first page's CVs, ranked. */
export interface SavedSearchRun {
  savedSearchId: string;
  firstPage: { documentId: string; rank: number; score: number }[];
}

export type SavedSearchRefusal = 'name_taken' | 'too_many';

interface SavedSearchRow {
  id: string;
  company_id: string;
  name: string;
  search_type: QuerySearchType;
  query: string;
  filters: SearchFilters | null;
  resolved_filter: SearchFilter | null;
  top_k: number;
  created_at: Date | string;
  matches_count: number | string;
  last_match_at: Date | string | null;
}

const savedSearchOf = (row: SavedSearchRow): SavedSearchRecord => ({
  id: row.id,
  companyId: row.company_id,
  name: row.name,
  searchType: row.search_type,
  query: row.query,
  filters: row.filters,
  resolvedFilter: row.resolved_filter,
  topK: row.top_k,
  createdAt: new Date(row.created_at),
  matchesCount: Number(row.matches_count),
  lastMatchAt: row.last_match_at === null ? null : new Date(row.last_match_at),
});

const SELECT_SAVED_SEARCHES = `SELECT s.id, s.company_id, s.name, s.search_type, s.query, s.filters, s.resolved_filter, s.top_k, s.created_at,
  (SELECT count(*) FROM saved_search_matches m WHERE m.saved_search_id = s.id) AS matches_count,
  (SELECT max(m.found_at) FROM saved_search_matches m WHERE m.saved_search_id = s.id) AS last_match_at
FROM saved_searches s`;

/**
 * A company's saved searches and the CVs that entered their first page since they were saved.
 * Every read and write the API makes is scoped to the company; the runner's claims span them.
 */
export class SavedSearchesRepository {
  constructor(private readonly sql: SqlClient) {}

  /** Refused when the company has a saved search of that name, or as many as it may keep. */
  async create(companyId: string, search: NewSavedSearch, maxPerCompany: number): Promise<SavedSearchRecord | SavedSearchRefusal> {
    return this.sql.transaction(async (tx) => {
      // One company's creations in turn, so that two at once cannot both pass the count.
      await tx.query('SELECT id FROM companies WHERE id = $1 FOR NO KEY UPDATE', [companyId]);
      const [{ count }] = await tx.query<{ count: number | string }>('SELECT count(*) AS count FROM saved_searches WHERE company_id = $1', [
        companyId,
      ]);
      if (Number(count) >= maxPerCompany) return 'too_many';
      const rows = await tx.query<SavedSearchRow>(
        `INSERT INTO saved_searches (id, company_id, name, search_type, query, filters, resolved_filter, top_k)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (company_id, name) DO NOTHING
         RETURNING id, company_id, name, search_type, query, filters, resolved_filter, top_k, created_at, 0 AS matches_count, NULL AS last_match_at`,
        [
          randomUUID(),
          companyId,
          search.name,
          search.searchType,
          search.query,
          search.filters === null ? null : JSON.stringify(search.filters),
          search.resolvedFilter === null ? null : JSON.stringify(search.resolvedFilter),
          search.topK,
        ],
      );
      return rows.length ? savedSearchOf(rows[0]) : 'name_taken';
    });
  }

  /** The company's saved searches, newest first, and how many it has. */
  async list(companyId: string, limit: number, offset: number): Promise<{ rows: SavedSearchRecord[]; total: number }> {
    const [rows, [{ total }]] = await Promise.all([
      this.sql.query<SavedSearchRow>(
        `${SELECT_SAVED_SEARCHES} WHERE s.company_id = $1 ORDER BY s.created_at DESC, s.id LIMIT $2 OFFSET $3`,
        [companyId, limit, offset],
      ),
      this.sql.query<{ total: number | string }>('SELECT count(*) AS total FROM saved_searches WHERE company_id = $1', [companyId]),
    ]);
    return { rows: rows.map(savedSearchOf), total: Number(total) };
  }

  async get(companyId: string, id: string): Promise<SavedSearchRecord | null> {
    const rows = await this.sql.query<SavedSearchRow>(`${SELECT_SAVED_SEARCHES} WHERE s.company_id = $1 AND s.id = $2`, [companyId, id]);
    return rows.length ? savedSearchOf(rows[0]) : null;
  }

  /** Every saved search of the company, oldest first: what a run goes through. */
  async ofCompany(companyId: string): Promise<SavedSearchRecord[]> {
    const rows = await this.sql.query<SavedSearchRow>(`${SELECT_SAVED_SEARCHES} WHERE s.company_id = $1 ORDER BY s.created_at, s.id`, [
      companyId,
    ]);
    return rows.map(savedSearchOf);
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    return (await this.sql.query('DELETE FROM saved_searches WHERE company_id = $1 AND id = $2 RETURNING id', [companyId, id])).length > 0;
  }

  /**
   * Its new matches found after `since` (all without), the newest finding first; null when the
   * company has no such saved search. `since` compares with the time each was found, which the
   * service sets: a client that passes the newest `foundAt` it has seen misses none.
   */
  async matches(
    companyId: string,
    id: string,
    since: Date | null,
    limit: number,
    offset: number,
  ): Promise<{ rows: SavedSearchMatch[]; total: number } | null> {
    if (!(await this.get(companyId, id))) return null;
    // To the millisecond, as the API writes `foundAt`: the newest one seen, passed back, lists nothing again.
    const where = "m.saved_search_id = $1 AND ($2::timestamptz IS NULL OR date_trunc('milliseconds', m.found_at) > $2)";
    const [rows, [{ total }]] = await Promise.all([
      this.sql.query<{
        document_id: string;
        document_name: string;
        rank: number;
        score: number;
        arrived_at: Date | string;
        found_at: Date | string;
      }>(
        `SELECT m.document_id, d.document_name, m.rank, m.score, m.arrived_at, m.found_at
         FROM saved_search_matches m JOIN documents d ON d.id = m.document_id
         WHERE ${where} ORDER BY m.found_at DESC, m.rank, m.document_id LIMIT $3 OFFSET $4`,
        [id, since, limit, offset],
      ),
      this.sql.query<{ total: number | string }>(`SELECT count(*) AS total FROM saved_search_matches m WHERE ${where}`, [id, since]),
    ]);
    return {
      rows: rows.map((r) => ({
        documentId: r.document_id,
        documentName: r.document_name,
        rank: r.rank,
        score: Number(r.score),
        arrivedAt: new Date(r.arrived_at),
        foundAt: new Date(r.found_at),
      })),
      total: Number(total),
    };
  }

  /**
   * Claims for `leaseMs`, under a new token, up to `limit` arrivals no runner holds, of the
   * company whose waiting arrival is oldest among those claimed fewest times (so that a batch
   * that keeps failing waits behind the others); null when none waits. A runner that stops
   * before `record` lets its lease run out, and another claims them again.
   */
  async claimCompany(limit: number, leaseMs: number): Promise<ClaimedArrivals | null> {
    const token = randomUUID();
    const rows = await this.sql.query<{ company_id: string; document_id: string; arrived_at: Date | string; attempts: number }>(
      `WITH first AS (
         SELECT company_id FROM saved_search_arrivals
         WHERE claimed_until IS NULL OR claimed_until < now()
         ORDER BY attempts, arrived_at, document_id LIMIT 1 FOR UPDATE SKIP LOCKED),
       due AS (
         SELECT a.document_id FROM saved_search_arrivals a JOIN first f ON f.company_id = a.company_id
         WHERE a.claimed_until IS NULL OR a.claimed_until < now()
         ORDER BY a.arrived_at, a.document_id LIMIT $1 FOR UPDATE OF a SKIP LOCKED)
       UPDATE saved_search_arrivals a
       SET claimed_until = now() + $2 * interval '1 millisecond', claimed_by = $3, attempts = a.attempts + 1
       FROM due WHERE a.document_id = due.document_id
       RETURNING a.company_id, a.document_id, a.arrived_at, a.attempts`,
      [limit, leaseMs, token],
    );
    if (rows.length === 0) return null;
    return {
      companyId: rows[0].company_id,
      token,
      attempts: Math.max(...rows.map((r) => r.attempts)),
      arrivals: rows.map((r) => ({ documentId: r.document_id, arrivedAt: new Date(r.arrived_at) })),
    };
  }

  /** Extends a claim by `leaseMs`; false when it was lost (it ran out and another runner claimed the CVs). */
  async renew(token: string, leaseMs: number): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE saved_search_arrivals SET claimed_until = now() + $2 * interval '1 millisecond'
       WHERE claimed_by = $1 RETURNING document_id`,
      [token, leaseMs],
    );
    return rows.length > 0;
  }

  /**
   * In one transaction, while the claim `token` still holds its CVs: each run's first-page CVs
   * among them that were read after it was saved, kept as new matches (once: a CV found again
   * keeps its first finding); an event `saved_search.new_matches` per saved search that gained
   * some; and the CVs let go. Each saved search keeps its newest `keepPerSearch` matches. Returns
   * the new matches by saved search, or null when the claim was lost (nothing is written).
   */
  async record(
    companyId: string,
    token: string,
    runs: readonly SavedSearchRun[],
    keepPerSearch: number,
  ): Promise<Map<string, number> | null> {
    return this.sql.transaction(async (tx) => {
      const held = await tx.query('SELECT document_id FROM saved_search_arrivals WHERE claimed_by = $1 AND company_id = $2 FOR UPDATE', [
        token,
        companyId,
      ]);
      if (held.length === 0) return null;
      const added = new Map<string, number>();
      for (const run of runs) {
        if (run.firstPage.length === 0) continue;
        // The arrival's own time, the saved search and the CV as they are now: one deleted meanwhile takes no match.
        const inserted = await tx.query<{
          document_id: string;
          document_name: string;
          rank: number;
          score: number;
          arrived_at: Date | string;
        }>(
          `WITH found AS (
             SELECT * FROM unnest($3::uuid[], $4::int[], $5::float8[]) AS f(document_id, rank, score)),
           kept AS (
             INSERT INTO saved_search_matches (saved_search_id, document_id, rank, score, arrived_at)
             SELECT s.id, f.document_id, f.rank, f.score, a.arrived_at
             FROM found f
             JOIN saved_search_arrivals a ON a.document_id = f.document_id AND a.claimed_by = $6
             JOIN saved_searches s ON s.id = $1 AND s.company_id = $2 AND a.arrived_at >= s.created_at
             JOIN documents d ON d.id = f.document_id AND d.company_id = s.company_id
             ON CONFLICT (saved_search_id, document_id) DO NOTHING
             RETURNING document_id, rank, score, arrived_at)
           SELECT k.document_id, d.document_name, k.rank, k.score, k.arrived_at FROM kept k JOIN documents d ON d.id = k.document_id`,
          [
            run.savedSearchId,
            companyId,
            run.firstPage.map((r) => r.documentId),
            run.firstPage.map((r) => r.rank),
            run.firstPage.map((r) => r.score),
            token,
          ],
        );
        if (inserted.length === 0) continue;
        added.set(run.savedSearchId, inserted.length);
        await tx.query(
          `DELETE FROM saved_search_matches m WHERE m.saved_search_id = $1 AND m.document_id IN (
             SELECT document_id FROM saved_search_matches WHERE saved_search_id = $1 ORDER BY found_at DESC, arrived_at DESC, document_id OFFSET $2)`,
          [run.savedSearchId, keepPerSearch],
        );
        const newMatches = inserted
          .sort((a, b) => a.rank - b.rank)
          .map((m) => ({
            documentId: m.document_id,
            documentName: m.document_name,
            rank: m.rank,
            score: Number(m.score),
            arrivedAt: new Date(m.arrived_at).toISOString(),
          }));
        await tx.query(
          `SELECT webhook_record_event($1, 'saved_search.new_matches', $2,
             jsonb_build_object('savedSearchId', s.id, 'name', s.name, 'searchType', s.search_type, 'newMatches', $3::jsonb))
           FROM saved_searches s WHERE s.id = $2 AND s.company_id = $1`,
          [companyId, run.savedSearchId, JSON.stringify(newMatches)],
        );
      }
      await tx.query('DELETE FROM saved_search_arrivals WHERE claimed_by = $1', [token]);
      return added;
    });
  }
}
