import type { SearchMatch, SearchRecord } from '@cs/records';
import { excludingDocuments, type SearchFilter } from '@cs/search-filters';
import type { MatchOutcome, SearchFacets, SearchMetadata, SearchType, StoredResult } from '@cs/search-domain';

/** What a search use case needs of a queued search: whose CVs, the query, and how many results. */
export interface SearchCommand {
  readonly type: SearchType;
  readonly companyId: string;
  /** Empty for `similar`, which starts from `similarTo`, one of the company's CVs. */
  readonly query: string;
  readonly similarTo: string | null;
  /** A `match` search's criteria, which it ranks by (its query is empty); null for the other types. */
  readonly match: SearchMatch | null;
  readonly topK: number;
  /** Results of the reranking searches (dense and sparse return `topK`). */
  readonly rerankTopN: number;
  /** Only CVs that pass it are retrieved (and counted in facets), by every leg; null for none. A similar search's own CV never passes. */
  readonly filter: SearchFilter | null;
}

export function searchCommand(search: SearchRecord): SearchCommand {
  return {
    type: search.searchType,
    companyId: search.companyId,
    query: search.query,
    similarTo: search.similarTo,
    match: search.match,
    topK: search.topK,
    rerankTopN: search.rerankTopN,
    filter: search.similarTo ? excludingDocuments(search.resolvedFilter, [search.similarTo]) : search.resolvedFilter,
  };
}

/** A completed search's stored results and the metadata of its type; its facets, when it asked for them. */
export interface SearchOutcome<T extends SearchType = SearchType> {
  results: StoredResult[];
  metadata: SearchMetadata<T>;
  facets?: SearchFacets;
  /** A match search's requirement counts and near misses. */
  matchOutcome?: MatchOutcome;
}
