import type { components, operations } from './generated/openapi';

/** Friendly names for the generated OpenAPI schemas (generated/openapi.ts, `npm run client:types`). */
type Schemas = components['schemas'];

export type SearchType = Schemas['SearchType'];
/** The four types that search by a query, in the order `group()` creates them. */
export const SEARCH_TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank'] as const satisfies readonly SearchType[];
export type QuerySearchType = (typeof SEARCH_TYPES)[number];
// A new type in the contract fails to compile here until the client says how it is searched.
type Unlisted = Exclude<SearchType, QuerySearchType | 'similar' | 'match'>;
const _everyTypeListed: [Unlisted] extends [never] ? true : Unlisted = true;

export type SearchCreated = Schemas['SearchCreated'];
export type SearchStatus = Schemas['SearchStatus'];
export type SearchState = SearchStatus['status'];
export type CompletedSearch = Extract<SearchStatus, { status: 'completed' }>;
export type FailedSearch = Extract<SearchStatus, { status: 'failed' }>;
export type RunningSearch = Extract<SearchStatus, { status: 'initiated' | 'processing' }>;
export type SearchResults = Schemas['SearchResults'];
export type ResultItem = Schemas['ResultItem'];
export type SearchMetadata = Schemas['SearchMetadata'];
export type Highlight = Schemas['Highlight'];
export type TermMatch = Schemas['TermMatch'];
export type Contact = Schemas['Contact'];
export type Profile = Schemas['Profile'];
export type Pagination = Schemas['Pagination'];
export type CreateSearchBody = operations['createDenseSearch']['requestBody']['content']['application/json'];
export type SimilarSearchBody = operations['createSimilarSearch']['requestBody']['content']['application/json'];
export type MatchSearchBody = operations['createMatchSearch']['requestBody']['content']['application/json'];
export type SavedSearchBody = operations['createSavedSearch']['requestBody']['content']['application/json'];
/** A job posting's criteria, as a match search returns them and takes them back edited. */
export type JobCriteria = Schemas['JobCriteria'];
/** How one result meets a match search's criteria: its score and each criterion met, partly, missing or unknown. */
export type CandidateMatch = Schemas['CandidateMatch'];
/** A match search's criterion, as each result's assessment and each relaxation name it. */
export type Criterion = Schemas['Criterion'];
/** How many more CVs a match search would find with one requirement loosened. */
export type Relaxation = NonNullable<SearchResults['relaxations']>[number];
/** A candidate a match search found missing exactly one required criterion. */
export type NearMiss = NonNullable<SearchResults['nearMisses']>[number];
/** A profile field a search can count (`facets`). */
export type FacetField = NonNullable<CreateSearchBody['facets']>[number];
/** The `filters` of a search: conditions every result meets (see searchFilters() to build them). */
export type SearchFilters = Schemas['SearchFilters'];
export type SeniorityLevel = NonNullable<SearchFilters['seniority']>[number];
export type DegreeLevel = NonNullable<NonNullable<SearchFilters['degree']>['gte']>;
/** Seniority levels, most senior first. */
export const SENIORITY_LEVELS = [
  'executive',
  'director',
  'manager',
  'lead',
  'senior',
  'mid',
  'junior',
  'intern',
] as const satisfies readonly SeniorityLevel[];
/** Degrees, lowest first: a minimum of `bachelor` passes master and doctorate too. */
export const DEGREE_LEVELS = [
  'none',
  'high-school',
  'associate',
  'bachelor',
  'master',
  'doctorate',
] as const satisfies readonly DegreeLevel[];
// A level added to the contract fails to compile here until the lists above name it.
type UnlistedSeniority = Exclude<SeniorityLevel, (typeof SENIORITY_LEVELS)[number]>;
const _everySeniorityListed: [UnlistedSeniority] extends [never] ? true : UnlistedSeniority = true;
type UnlistedDegree = Exclude<DegreeLevel, (typeof DEGREE_LEVELS)[number]>;
const _everyDegreeListed: [UnlistedDegree] extends [never] ? true : UnlistedDegree = true;

export type GroupStatus = Schemas['GroupStatus'];
export type GroupStatusValue = Schemas['GroupStatusValue'];
export type GroupMember = Schemas['GroupMember'];
export type GroupResults = Schemas['GroupResults'];
export type GroupList = Schemas['GroupList'];
export type GroupSummary = GroupList['data'][number];
export type Comparison = Schemas['Comparison'];

export type Document = Schemas['Document'];
/** cv: searched as a candidate; job: a job posting, which match searches read. */
export type DocumentKind = Schemas['DocumentKind'];
export type DocumentSummary = Schemas['DocumentSummary'];
export type DocumentList = Schemas['DocumentList'];
export type DocumentDeleted = Schemas['DocumentDeleted'];
export type DocumentStatus = Schemas['DocumentStatus'];
export type FileInfo = Schemas['FileInfo'];
export type UploadAccepted = Schemas['UploadAccepted'];
export type PresignedUpload = Schemas['PresignedUpload'];
export type UploadVerification = Schemas['UploadVerification'];

export type Shortlist = Schemas['Shortlist'];
export type ShortlistSummary = Schemas['ShortlistSummary'];
export type ShortlistItem = Schemas['ShortlistItem'];
export type ShortlistList = Schemas['ShortlistList'];
export type SavedSearch = Schemas['SavedSearch'];
export type SavedSearchList = Schemas['SavedSearchList'];
export type SavedSearchMatch = Schemas['SavedSearchMatch'];
export type SavedSearchNewMatches = Schemas['SavedSearchNewMatches'];

export type ErrorBody = Schemas['Error'];
export type RateLimitErrorBody = Schemas['RateLimitError'];

/** Statuses a search does not leave. */
export const isTerminalSearch = (s: Pick<SearchStatus, 'status'>): s is CompletedSearch | FailedSearch =>
  s.status === 'completed' || s.status === 'failed';
/** Statuses a document does not leave: searchable, unreadable, or not a CV. */
export const isTerminalDocument = (status: DocumentStatus): boolean =>
  status === 'completed' || status === 'failed' || status === 'invalid';

/** The MIME types the API accepts, by file extension (decisions: PDF, DOCX, DOC, plain text). */
export const CONTENT_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  txt: 'text/plain',
} as const;
export type SupportedExtension = keyof typeof CONTENT_TYPES;

/** The content type of a file name by its extension, or undefined when the API does not take it. */
export function contentTypeOf(fileName: string): string | undefined {
  const ext = /\.([^./\\]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return ext && ext in CONTENT_TYPES ? CONTENT_TYPES[ext as SupportedExtension] : undefined;
}

/** The most bytes an upload route takes (decisions: 10 MB). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
