/**
 * @candidate-search/client: the Candidate Search API for browsers and Node 20+ (fetch-based).
 * Node's file-system helpers (uploading paths and directories) are in `@candidate-search/client/node`.
 */
export { CandidateSearch } from './client';
export type {
  CallOptions,
  CandidateSearchOptions,
  CreateSearchOptions,
  CreateMatchSearchOptions,
  CreateSimilarSearchOptions,
  DocumentState,
  GroupOptions,
  ListOptions,
  MatchSearchOptions,
  ResultsOptions,
  SearchOptions,
  SearchOutcome,
  SimilarSearchOptions,
  UploadFromUrlOptions,
  UploadOptions,
  UploadProgress,
  WaitForDocumentsOptions,
  WaitForSearchOptions,
  WaitOptions,
} from './client';
export {
  AuthenticationError,
  CandidateSearchError,
  ConflictError,
  ConnectionError,
  GoneError,
  NotFoundError,
  RateLimitError,
  SearchFailedError,
  ServerError,
  TimeoutError,
  ValidationError,
} from './errors';
export type { CandidateSearchErrorInit, RateLimitInfo } from './errors';
export type { SearchEvent, SearchEventsOptions } from './sse';
export type { FetchLike, OnRetry, RetryEvent } from './transport';
export { DEFAULT_RADIUS_KM, SearchFiltersBuilder, searchFilters } from './search-filters';
export type { DateRange, PlaceFilter } from './search-filters';
export {
  CONTENT_TYPES,
  DEGREE_LEVELS,
  MAX_UPLOAD_BYTES,
  SEARCH_TYPES,
  SENIORITY_LEVELS,
  contentTypeOf,
  isTerminalDocument,
  isTerminalSearch,
} from './types';
export type {
  Comparison,
  CompletedSearch,
  Contact,
  CreateSearchBody,
  DegreeLevel,
  Document,
  DocumentDeleted,
  DocumentList,
  DocumentStatus,
  DocumentSummary,
  ErrorBody,
  FacetField,
  FailedSearch,
  FileInfo,
  GroupList,
  GroupMember,
  GroupResults,
  GroupStatus,
  GroupStatusValue,
  GroupSummary,
  Highlight,
  Pagination,
  PresignedUpload,
  Profile,
  RateLimitErrorBody,
  ResultItem,
  RunningSearch,
  SearchCreated,
  SearchFilters,
  SearchMetadata,
  SearchResults,
  SearchState,
  SearchStatus,
  QuerySearchType,
  SearchType,
  SeniorityLevel,
  SimilarSearchBody,
  MatchSearchBody,
  JobCriteria,
  CandidateMatch,
  Criterion,
  NearMiss,
  Relaxation,
  SupportedExtension,
  TermMatch,
  UploadAccepted,
  UploadVerification,
} from './types';
export type { components, operations, paths } from './generated/openapi';
export { pollDelay } from './timing';
export { VERSION } from './version';
