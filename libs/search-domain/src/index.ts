export {
  CONTRACT_ESTIMATE,
  DEFAULT_RERANK_TOP_N,
  DEFAULT_TOP_K,
  MATCH_CANDIDATES,
  MAX_PROCESSING_MS,
  MIN_RERANK_CANDIDATES,
  MIN_SIMILAR_CANDIDATES,
  QUERY_SEARCH_TYPES,
  SEARCH_TYPES,
  estimateRemaining,
  estimateTime,
  isSearchType,
} from './search-types';
export type { QuerySearchType, SearchStatus, SearchType } from './search-types';
export { compareSearches, groupStatus } from './groups';
export type { ComparedSearch, Comparison, GroupStatus } from './groups';
export {
  BuiltinRerankSearchMetadata,
  DenseModelMetadata,
  DenseSearchMetadata,
  FusionMetadata,
  HybridSearchMetadata,
  SimilarSearchMetadata,
  MatchSearchMetadata,
  InducedWord,
  RerankStageTimings,
  RerankerMetadata,
  RetrievalStageTimings,
  SEARCH_METADATA,
  SkillsMatchedAsText,
  SparseSearchMetadata,
  TypedSearchMetadata,
} from './search-metadata';
export type { SearchMetadata, SearchMetadataByType, SearchStage } from './search-metadata';
export {
  CandidateMatch,
  Criterion,
  CriterionAssessment,
  CriterionStatus,
  Evidence,
  Highlight,
  MatchOutcome,
  MAX_NEAR_MISSES,
  SearchFacets,
  StoredResult,
  StoredResults,
  TermMatch,
} from './search-results';
export { CRITERION_KINDS, CRITERION_STATUSES } from './search-results';
export type { CriterionKind } from './search-results';
