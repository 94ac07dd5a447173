import type { SearchRecord } from '@cs/records';
import type { SearchFilter } from '@cs/search-filters';
import type { SearchFacets, SearchMetadata, SearchType, StoredResult } from '@cs/search-domain';

/** What a search use case needs of a queued search: whose CVs, the query, and how many results. */
export interface SearchCommand {
  readonly type: SearchType;
  readonly companyId: string;
  readonly query: string;
  readonly topK: number;
  /** Results of the reranking searches (dense and sparse return `topK`). */
  readonly rerankTopN: number;
  /** Only CVs that pass it are retrieved, by every leg; null for none. */
  readonly filter: SearchFilter | null;
}

export function searchCommand(search: SearchRecord): SearchCommand {
  return {
    type: search.searchType,
    companyId: search.companyId,
    query: search.query,
    topK: search.topK,
    rerankTopN: search.rerankTopN,
    filter: search.resolvedFilter,
  };
}

/** A completed search's stored results and the metadata of its type; its facets, when it asked for them. */
export interface SearchOutcome<T extends SearchType = SearchType> {
  results: StoredResult[];
  metadata: SearchMetadata<T>;
  facets?: SearchFacets;
}
