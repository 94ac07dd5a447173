import type { SqlClient } from '@cs/ports';
import { MatchOutcome, SearchFacets, StoredResults, TypedSearchMetadata, type SearchMetadata, type StoredResult } from '@cs/search-domain';
import { SearchMatch } from '@cs/job-criteria/criteria';
import { FACET_FIELDS, SearchFilterSchema, SearchFilters } from '@cs/search-filters';
import { z } from 'zod';
import { camelize } from './row';
import { readStored } from './stored-json';
import type { SearchRecord, SearchStatus, SearchType } from './types';

/** Without filters, a search has none; without facet fields, it counts none. */
export type NewSearch = Pick<SearchRecord, 'id' | 'companyId' | 'searchGroupId' | 'searchType' | 'query' | 'topK' | 'rerankTopN'> &
  Partial<Pick<SearchRecord, 'filters' | 'resolvedFilter' | 'facetFields' | 'similarTo' | 'match'>>;

export interface GroupSummary {
  searchGroupId: string;
  query: string;
  createdAt: Date;
  statuses: SearchStatus[];
  searchTypes: SearchType[];
}

const SUMMARY_COLUMNS = `id, company_id, search_group_id, search_type, query, similar_to, match, top_k, rerank_top_n, filters, resolved_filter, facet_fields, NULL AS facets, NULL AS match_outcome, status, error,
  error_retryable, results_count, processing_time_ms, NULL AS results, metadata, created_at, started_at, completed_at`;

const FacetFields = z.array(z.enum(FACET_FIELDS));

/** A row before its JSON columns are read. */
type SearchRow = Omit<
  SearchRecord,
  'results' | 'metadata' | 'filters' | 'resolvedFilter' | 'facetFields' | 'facets' | 'match' | 'matchOutcome'
> & {
  match: unknown;
  matchOutcome: unknown;
  results: unknown;
  metadata: unknown;
  filters: unknown;
  resolvedFilter: unknown;
  facetFields: unknown;
  facets: unknown;
};

/** A row as a record, its results and its metadata (against its own type's) read once, here. */
function searchRecord(row: Record<string, unknown>): SearchRecord {
  const { results, metadata, filters, resolvedFilter, facetFields, facets, match, matchOutcome, ...search } = camelize<SearchRow>(row);
  return {
    ...search,
    facetFields:
      facetFields === null || facetFields === undefined
        ? []
        : readStored(FacetFields, facetFields, `the facet fields of search ${search.id}`),
    facets: facets === null || facets === undefined ? null : readStored(SearchFacets, facets, `the facets of search ${search.id}`),
    filters: filters === null || filters === undefined ? null : readStored(SearchFilters, filters, `the filters of search ${search.id}`),
    resolvedFilter:
      resolvedFilter === null || resolvedFilter === undefined
        ? null
        : readStored(SearchFilterSchema, resolvedFilter, `the resolved filter of search ${search.id}`),
    match: match === null || match === undefined ? null : readStored(SearchMatch, match, `the criteria of search ${search.id}`),
    matchOutcome:
      matchOutcome === null || matchOutcome === undefined
        ? null
        : readStored(MatchOutcome, matchOutcome, `the requirements' counts and near misses of search ${search.id}`),
    results: results === null ? null : readStored(StoredResults, results, `the results of search ${search.id}`),
    ...(metadata === null
      ? { searchType: search.searchType, metadata: null }
      : readStored(TypedSearchMetadata, { searchType: search.searchType, metadata }, `the metadata of search ${search.id}`)),
  };
}

export class SearchesRepository {
  constructor(private readonly sql: SqlClient) {}

  /**
   * A new search, unless its group already holds `maxPerGroup` searches (then null). The count
   * and the insert are one statement; racing creates may pass the bound by their number at most.
   */
  async create(search: NewSearch, maxPerGroup = Number.MAX_SAFE_INTEGER): Promise<SearchRecord | null> {
    const [row] = await this.sql.query(
      `INSERT INTO searches (id, company_id, search_group_id, search_type, query, top_k, rerank_top_n, filters, resolved_filter,
         facet_fields, similar_to, match, status)
       SELECT $1, $2, $3, $4, $5, $6, $7, $9, $10, $11, $12, $13, 'initiated'
       WHERE (SELECT count(*) FROM searches WHERE company_id = $2 AND search_group_id = $3) < $8
       RETURNING *`,
      [
        search.id,
        search.companyId,
        search.searchGroupId,
        search.searchType,
        search.query,
        search.topK,
        search.rerankTopN,
        maxPerGroup,
        search.filters ?? null,
        search.resolvedFilter ?? null,
        search.facetFields ?? [],
        search.similarTo ?? null,
        search.match ?? null,
      ],
    );
    return row ? searchRecord(row) : null;
  }

  /** Without its results (the status view). */
  async getSummary(companyId: string, id: string): Promise<SearchRecord | null> {
    const [row] = await this.sql.query(`SELECT ${SUMMARY_COLUMNS} FROM searches WHERE company_id = $1 AND id = $2`, [companyId, id]);
    return row ? searchRecord(row) : null;
  }

  async get(companyId: string, id: string): Promise<SearchRecord | null> {
    const [row] = await this.sql.query('SELECT * FROM searches WHERE company_id = $1 AND id = $2', [companyId, id]);
    return row ? searchRecord(row) : null;
  }

  /** Several of one company's searches, with their results. */
  async getMany(companyId: string, ids: string[]): Promise<SearchRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.sql.query('SELECT * FROM searches WHERE company_id = $1 AND id = ANY($2::uuid[])', [companyId, ids]);
    return rows.map((r) => searchRecord(r));
  }

  async getById(id: string): Promise<SearchRecord | null> {
    const [row] = await this.sql.query(`SELECT ${SUMMARY_COLUMNS} FROM searches WHERE id = $1`, [id]);
    return row ? searchRecord(row) : null;
  }

  /** The current status of each of these searches (any company's): one statement for a gateway's waiters. */
  async statuses(ids: string[]): Promise<{ id: string; status: SearchStatus }[]> {
    if (ids.length === 0) return [];
    return this.sql.query<{ id: string; status: SearchStatus }>('SELECT id, status FROM searches WHERE id = ANY($1::uuid[])', [ids]);
  }

  /** initiated -> processing; false when the search is no longer waiting (done, failed, gone). */
  async markProcessing(id: string): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE searches SET status = 'processing', started_at = COALESCE(started_at, now())
       WHERE id = $1 AND status IN ('initiated', 'processing') RETURNING id`,
      [id],
    );
    return rows.length > 0;
  }

  /** processing -> completed, unless the watchdog failed it meanwhile. */
  async complete(
    id: string,
    results: StoredResult[],
    metadata: SearchMetadata,
    processingTimeMs: number,
    facets: SearchFacets | null = null,
    matchOutcome: MatchOutcome | null = null,
  ): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE searches SET status = 'completed', results = $2, metadata = $3, results_count = $4,
         processing_time_ms = $5, facets = $6, match_outcome = $7, completed_at = now()
       WHERE id = $1 AND status IN ('initiated', 'processing') RETURNING id`,
      [id, JSON.stringify(results), metadata, results.length, processingTimeMs, facets, matchOutcome],
    );
    return rows.length > 0;
  }

  async fail(id: string, error: string, retryable: boolean): Promise<boolean> {
    const rows = await this.sql.query(
      `UPDATE searches SET status = 'failed', error = $2, error_retryable = $3, completed_at = now()
       WHERE id = $1 AND status IN ('initiated', 'processing') RETURNING id`,
      [id, error, retryable],
    );
    return rows.length > 0;
  }

  /** The watchdog: fails every search still running past its type's maximum time, in one statement. */
  async failOverdue(maxMsByType: Partial<Record<SearchType, number>>, error: string): Promise<string[]> {
    const limits = Object.entries(maxMsByType) as [SearchType, number][];
    if (limits.length === 0) return [];
    const rows = await this.sql.query<{ id: string }>(
      `UPDATE searches s SET status = 'failed', error = $3, error_retryable = true, completed_at = now()
       FROM unnest($1::text[], $2::float8[]) AS limits(search_type, max_ms)
       WHERE s.status IN ('initiated', 'processing') AND s.search_type = limits.search_type
         AND s.created_at < now() - make_interval(secs => limits.max_ms / 1000) RETURNING s.id`,
      [limits.map(([type]) => type), limits.map(([, ms]) => ms), error],
    );
    return rows.map((r) => r.id);
  }

  async listGroupMembers(companyId: string, searchGroupId: string, withResults: boolean): Promise<SearchRecord[]> {
    const rows = await this.sql.query(
      `SELECT ${withResults ? '*' : SUMMARY_COLUMNS} FROM searches WHERE company_id = $1 AND search_group_id = $2 ORDER BY created_at, id`,
      [companyId, searchGroupId],
    );
    return rows.map((r) => searchRecord(r));
  }

  async listGroups(
    companyId: string,
    status: SearchStatus | undefined,
    limit: number,
    offset: number,
  ): Promise<{ items: GroupSummary[]; total: number }> {
    const having = status ? 'HAVING bool_or(status = $2)' : '';
    const params: unknown[] = status ? [companyId, status] : [companyId];
    const grouped = `SELECT search_group_id, min(created_at) AS created_at,
        (array_agg(query ORDER BY created_at, id))[1] AS query,
        array_agg(status ORDER BY created_at, id) AS statuses,
        array_agg(search_type ORDER BY created_at, id) AS search_types
      FROM searches WHERE company_id = $1 GROUP BY search_group_id ${having}`;
    const [{ total }] = await this.sql.query<{ total: number }>(`SELECT count(*)::int AS total FROM (${grouped}) g`, params);
    const rows = await this.sql.query(
      `${grouped} ORDER BY created_at DESC, search_group_id LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
      params,
    );
    return { items: rows.map((r) => camelize<GroupSummary>(r)), total };
  }

  /** Recent processing times of a type, newest first, for honest estimates. */
  async recentProcessingTimes(type: SearchType, count: number): Promise<number[]> {
    const rows = await this.sql.query<{ ms: number }>(
      `SELECT processing_time_ms AS ms FROM searches WHERE search_type = $1 AND status = 'completed'
       ORDER BY completed_at DESC LIMIT ${Number(count)}`,
      [type],
    );
    return rows.map((r) => r.ms);
  }
}
