/**
 * @candidate-search/client: the Candidate Search API for browsers and Node 20+ (fetch-based).
 * Node's file-system helpers (uploading paths and directories) are in `@candidate-search/client/node`.
 */
export { CandidateSearch } from './client';
export type {
  CallOptions,
  CandidateSearchOptions,
  CreateSearchOptions,
  DocumentState,
  GroupOptions,
  ListOptions,
  ResultsOptions,
  SearchOptions,
  SearchOutcome,
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
export { CONTENT_TYPES, MAX_UPLOAD_BYTES, SEARCH_TYPES, contentTypeOf, isTerminalDocument, isTerminalSearch } from './types';
export type {
  Comparison,
  CompletedSearch,
  Contact,
  CreateSearchBody,
  Document,
  DocumentDeleted,
  DocumentList,
  DocumentStatus,
  DocumentSummary,
  ErrorBody,
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
  SearchMetadata,
  SearchResults,
  SearchState,
  SearchStatus,
  SearchType,
  SupportedExtension,
  TermMatch,
  UploadAccepted,
  UploadVerification,
} from './types';
export type { components, operations, paths } from './generated/openapi';
export { pollDelay } from './timing';
export { VERSION } from './version';
