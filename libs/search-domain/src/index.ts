export {
  CONTRACT_ESTIMATE,
  DEFAULT_RERANK_TOP_N,
  DEFAULT_TOP_K,
  MAX_PROCESSING_MS,
  MIN_RERANK_CANDIDATES,
  SEARCH_TYPES,
  estimateRemaining,
  estimateTime,
  isSearchType,
} from './search-types';
export type { SearchStatus, SearchType } from './search-types';
export { compareSearches, groupStatus } from './groups';
export type { ComparedSearch, Comparison, GroupStatus } from './groups';
export type {
  BuiltinRerankSearchMetadata,
  DenseSearchMetadata,
  FusionMetadata,
  HybridSearchMetadata,
  DenseModelMetadata,
  InducedWord,
  RerankStageTimings,
  RerankerMetadata,
  RetrievalStageTimings,
  SearchMetadata,
  SearchMetadataByType,
  SearchStage,
  SparseSearchMetadata,
} from './search-metadata';
