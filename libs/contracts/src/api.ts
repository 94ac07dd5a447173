import { z } from 'zod';
import { ContactInfo, ProfileInfo } from '@cs/cv-understanding/types';
import { JobCriteria } from '@cs/job-criteria/criteria';
import { SearchFilters } from '@cs/search-filters/body';
import {
  DenseModelMetadata,
  FusionMetadata,
  Highlight as StoredHighlight,
  InducedWord,
  RerankStageTimings,
  RerankerMetadata,
  SEARCH_TYPES,
  MatchOutcome,
  SearchFacets,
  SkillsMatchedAsText,
  StoredResult,
  TermMatch,
  type SearchMetadata as StoredSearchMetadata,
} from '@cs/search-domain';
import { DOCUMENT_KINDS, MAX_GROUP_SEARCHES, MAX_SAVED_SEARCH_MATCHES, SAVED_SEARCH_TYPES } from './http';

/**
 * The public API's answers, once: the gateway's views are typed from these, the OpenAPI document
 * is generated from them (with their `id` as component names), and the e2e suites validate every
 * answer against that document. Objects are strict, so a field the server adds without saying
 * so fails the suites instead of drifting silently. What a search stores (its results, their
 * highlights, its metadata) and what is read from a CV (contact, profile) are the domain's schemas
 * (libs/search-domain, libs/cv-understanding), served as they are or beside the gateway's fields.
 */

const uuid = z.uuid();
const timestamp = z.iso
  .datetime({ precision: 3 })
  .meta({ description: 'ISO 8601 UTC with milliseconds', example: '2026-11-24T10:09:08.596Z' });
const path = (example: string) => z.string().meta({ description: 'A path relative to the API’s base URL', example });

export const SearchType = z.enum(SEARCH_TYPES).meta({ id: 'SearchType' });
/** Beside its query, what a search searched with: its filters, the CV a similar search started from, a match search's criteria. */
const searchSubject = {
  filters: SearchFilters.optional().meta({ description: 'The filters as given; absent when the search has none' }),
  similarTo: uuid.optional().meta({ description: 'similar: the CV the search started from (its `query` is empty)' }),
  jobDescriptionDocumentId: uuid.optional().meta({ description: 'match: the job posting document its criteria were read from' }),
  criteria: JobCriteria.optional().meta({
    description: 'match: the criteria the CVs were ranked against, as read from the posting or as given (its `query` is empty)',
  }),
  strict: z.boolean().optional().meta({ description: 'match: whether the required criteria were filters' }),
};

export const ErrorBody = z
  .object({
    error: z.string().meta({
      description:
        'A stable code: invalid_request, unauthorized, not_found, method_not_allowed, not_acceptable, conflict, idempotency_key_in_use (409), gone, payload_too_large, unsupported_media_type, unprocessable, idempotency_key_reused (422), request_header_fields_too_large, rate_limit_exceeded, internal_error, service_unavailable',
      example: 'invalid_request',
    }),
    message: z.string().meta({
      description: 'A sentence for people: for a 400 it names the field and the rule it broke',
      example: 'query must be a string of 1 to 500 characters',
    }),
    status: z
      .enum(['initiated', 'processing', 'completed', 'failed'])
      .optional()
      .meta({ description: '409 on results: the search’s status' }),
    searchError: z.string().nullable().optional().meta({ description: '409 on results of a failed search: why it failed' }),
    errorRetryable: z
      .boolean()
      .nullable()
      .optional()
      .meta({ description: '409 on results of a failed search: whether a new search may succeed' }),
  })
  .strict()
  .meta({ id: 'Error', description: 'Every 4xx and 5xx answer' });

export const RateLimitErrorBody = z
  .object({
    error: z.literal('rate_limit_exceeded'),
    message: z.string().meta({ example: 'Search rate limit exceeded: 10 requests per 1 minute.' }),
    limit: z.int().meta({ example: 10 }),
    window: z
      .enum(['10 seconds', '1 minute', 'open at once'])
      .meta({ description: 'open at once: a bound on event streams held open, not a window of time' }),
    retryAfter: z.string().regex(/^\d+$/).meta({ description: 'Seconds to wait, as Retry-After says', example: '42' }),
    hint: z.string().optional().meta({ description: 'On upload and search limits: how to pace requests' }),
  })
  .strict()
  .meta({ id: 'RateLimitError' });

export const Pagination = z
  .object({ limit: z.int(), offset: z.int(), total: z.int(), hasMore: z.boolean() })
  .strict()
  .meta({ id: 'Pagination', example: { limit: 20, offset: 0, total: 57, hasMore: true } });

// Searches

export const SearchCreated = z
  .object({
    searchId: uuid,
    searchGroupId: uuid,
    status: z.literal('processing'),
    searchType: SearchType,
    query: z.string(),
    ...searchSubject,
    estimatedTime: z.string().meta({ description: 'Honest free text from recent searches of the type', example: 'under 1 second' }),
    statusUrl: path('/v1/public/searches/5b0f…'),
    resultsUrl: path('/v1/public/searches/5b0f…/results'),
  })
  .strict()
  .meta({ id: 'SearchCreated' });

const searchStatusBase = {
  searchId: uuid,
  searchGroupId: uuid,
  query: z.string(),
  ...searchSubject,
  searchType: SearchType,
  createdAt: timestamp,
};
export const SearchStatus = z
  .discriminatedUnion('status', [
    z
      .object({
        ...searchStatusBase,
        status: z.enum(['initiated', 'processing']),
        estimatedCompletion: z.string().meta({ example: 'under 1 second' }),
      })
      .strict(),
    z
      .object({
        ...searchStatusBase,
        status: z.literal('completed'),
        resultsCount: z.int(),
        processingTimeMs: z.int(),
        completedAt: timestamp,
        resultsUrl: path('/v1/public/searches/5b0f…/results'),
      })
      .strict(),
    z
      .object({
        ...searchStatusBase,
        status: z.literal('failed'),
        error: z.string(),
        errorRetryable: z.boolean(),
        completedAt: timestamp.nullable(),
      })
      .strict(),
  ])
  .meta({ id: 'SearchStatus', description: 'The fields that apply to the search’s current status' });

export const Contact = ContactInfo.meta({ id: 'Contact', description: 'Read from the CV; each field null when it does not say' });
export const Profile = ProfileInfo.meta({ id: 'Profile', description: 'Read from the CV; null or empty where it does not say' });
export const Highlight = StoredHighlight.meta({ id: 'Highlight' });

const stored = StoredResult.shape;
export const ResultItem = z
  .object({
    rank: stored.rank,
    documentId: stored.documentId,
    documentName: stored.documentName.nullable().meta({ description: 'null once the CV is deleted' }),
    documentDate: stored.documentDate.nullable(),
    documentDeleted: z
      .literal(true)
      .optional()
      .meta({ description: 'Present once the CV is deleted: rank and scores stay, its contents are null' }),
    score: stored.score,
    scores: stored.scores,
    highlights: z.array(Highlight),
    matchedTerms: stored.matchedTerms,
    matchedAs: z
      .array(TermMatch.meta({ id: 'TermMatch' }))
      .optional()
      .meta({
        description:
          'How the CV holds each of matchedTerms, in their order (docs/api.md); absent from searches run before it and from deleted CVs',
      }),
    match: stored.match,
    summary: z.string().nullable(),
    contact: Contact.nullable(),
    profile: Profile.nullable(),
    extractedText: z.string().nullable().optional().meta({ description: 'Only with include=extractedText' }),
  })
  .strict()
  .meta({ id: 'ResultItem', description: 'One matched CV, best first' });

/** The gateway's fields, then every search type's stored metadata fields (each type has some of them). */
export const SearchMetadata = z
  .object({
    processingTimeMs: z.int().nullable(),
    createdAt: timestamp,
    completedAt: timestamp.nullable(),
    topK: z.int(),
    rerankTopN: z.int().nullable().meta({ description: 'null for dense and sparse, which ignore it' }),
    reranker: RerankerMetadata.nullable(),
    denseModel: DenseModelMetadata.optional().meta({
      description: 'dense, hybrid and builtin-rerank: the model that embedded the query and the CVs (DENSE_MODEL)',
    }),
    inducedWords: z.array(InducedWord).optional(),
    skillsMatchedAsText: SkillsMatchedAsText.optional().meta({
      description:
        'The filter’s skills the vocabulary does not know, each matched as a phrase of the CVs’ text (trimmed, lower case); absent when there were none',
    }),
    candidates: z.int().optional().meta({ description: 'builtin-rerank: the dense candidates the reranker read' }),
    fusion: FusionMetadata.optional(),
    similarTo: z.uuid().optional().meta({ description: 'similar: the CV the search started from' }),
    distinctiveTerms: z
      .array(z.string())
      .optional()
      .meta({ description: 'similar: the words of that CV its keyword leg searched, most distinctive first' }),
    strict: z.boolean().optional().meta({ description: 'match: whether the required criteria were filters' }),
    criteriaShare: z
      .number()
      .optional()
      .meta({ description: 'match: the share of each result’s score that is its criteria score, the rest the reranker’s' }),
    stageTimingsMs: RerankStageTimings.partial({ rerank: true }),
  })
  .strict()
  .meta({ id: 'SearchMetadata', description: 'How the search ran (docs/api.md, Searches)' });

export const SearchResults = z
  .object({
    searchId: uuid,
    searchGroupId: uuid,
    query: z.string(),
    ...searchSubject,
    searchType: SearchType,
    status: z.literal('completed'),
    totalResults: z.int(),
    results: z.array(ResultItem),
    pagination: Pagination,
    metadata: SearchMetadata,
    facets: SearchFacets.optional().meta({ description: 'The counts the search asked for (`facets`); absent when it asked none' }),
    candidatesMeetingAll: MatchOutcome.shape.candidatesMeetingAll.optional(),
    relaxations: MatchOutcome.shape.relaxations.optional(),
    nearMisses: MatchOutcome.shape.nearMisses.optional(),
  })
  .strict()
  .meta({ id: 'SearchResults' });

// Groups

export const GroupStatusValue = z.enum(['processing', 'completed', 'failed', 'partial']).meta({ id: 'GroupStatusValue' });
export const GroupMember = z
  .object({
    searchId: uuid,
    searchType: SearchType,
    query: z.string(),
    ...searchSubject,
    status: z.enum(['initiated', 'processing', 'completed', 'failed']),
    resultsCount: z.int().nullable(),
    processingTimeMs: z.int().nullable(),
    error: z.string().nullable(),
    errorRetryable: z.boolean().nullable(),
    createdAt: timestamp,
    completedAt: timestamp.nullable(),
    statusUrl: path('/v1/public/searches/5b0f…'),
    resultsUrl: path('/v1/public/searches/5b0f…/results'),
  })
  .strict()
  .meta({ id: 'GroupMember' });

const groupHeader = {
  searchGroupId: uuid,
  groupStatus: GroupStatusValue,
  query: z.string().meta({ description: 'The first search’s query' }),
  createdAt: timestamp,
  totalSearches: z.int().max(MAX_GROUP_SEARCHES),
};
export const GroupStatus = z
  .object({ ...groupHeader, searches: z.array(GroupMember) })
  .strict()
  .meta({ id: 'GroupStatus' });

export const Comparison = z
  .object({
    pairs: z.array(
      z
        .object({ searchIds: z.tuple([uuid, uuid]), searchTypes: z.tuple([SearchType, SearchType]), overlap: z.int(), jaccard: z.number() })
        .strict(),
    ),
    foundByAll: z.array(uuid).meta({ description: 'Documents every compared search found' }),
    documents: z.array(
      z
        .object({
          documentId: uuid,
          ranks: z
            .record(z.string(), z.int().nullable())
            .meta({ description: 'Rank per search id, null where it did not find the document' }),
        })
        .strict(),
    ),
  })
  .strict()
  .meta({ id: 'Comparison', description: 'Over the page’s completed searches' });

export const GroupResults = z
  .object({
    ...groupHeader,
    searches: z.array(
      GroupMember.extend({
        totalResults: z.int().nullable(),
        results: z.array(ResultItem),
        metadata: SearchMetadata.optional(),
      }).strict(),
    ),
    pagination: Pagination,
    comparison: Comparison,
  })
  .strict()
  .meta({ id: 'GroupResults' });

export const GroupList = z
  .object({
    data: z.array(
      z
        .object({
          searchGroupId: uuid,
          query: z.string(),
          groupStatus: GroupStatusValue,
          totalSearches: z.int(),
          searchTypes: z.array(SearchType),
          createdAt: timestamp,
          groupUrl: path('/v1/public/searches/groups/9c1e…'),
        })
        .strict(),
    ),
    pagination: Pagination,
  })
  .strict()
  .meta({ id: 'GroupList' });

// Documents and uploads

export const DocumentStatusValue = z.enum(['uploading', 'pending', 'completed', 'failed', 'invalid']).meta({ id: 'DocumentStatus' });
export const FileInfo = z
  .object({ name: z.string(), size: z.int(), sizeFormatted: z.string().meta({ example: '182.4 KB' }), contentType: z.string() })
  .strict()
  .meta({ id: 'FileInfo' });

export const DocumentKind = z.enum(DOCUMENT_KINDS).meta({
  id: 'DocumentKind',
  description:
    'cv: searched as a candidate; job: a job posting, which a match search reads (`jobDescriptionDocumentId`) and no search returns',
});

export const UploadAccepted = z
  .object({
    documentId: uuid,
    status: DocumentStatusValue,
    kind: DocumentKind,
    message: z.string(),
    duplicate: z.boolean().meta({ description: 'true (with 200) when these exact bytes were uploaded before' }),
    file: FileInfo,
    estimatedProcessingTime: z.string().meta({ example: 'under 30 seconds' }),
    statusEndpoint: path('/v1/public/documents/7d2a…'),
  })
  .strict()
  .meta({ id: 'UploadAccepted' });

export const PresignedUpload = z
  .object({
    uploadId: uuid,
    presignedUrl: z.string().meta({ description: 'PUT the bytes here, without the API key' }),
    method: z.literal('PUT'),
    headers: z.object({ 'Content-Type': z.string() }).strict(),
    expiresAt: timestamp,
  })
  .strict()
  .meta({ id: 'PresignedUpload' });

export const UploadVerification = z
  .object({
    uploadId: uuid,
    status: z.enum(['pending', 'uploaded', 'finalized', 'expired']),
    fileName: z.string(),
    contentType: z.string(),
    fileSize: z.int(),
    expiresAt: timestamp,
    documentId: uuid.optional(),
  })
  .strict()
  .meta({ id: 'UploadVerification' });

export const PresignedPutDone = z
  .object({ uploadId: uuid, status: z.literal('uploaded') })
  .strict()
  .meta({ id: 'PresignedPutDone' });

const documentFields = {
  documentId: uuid,
  documentName: z.string(),
  documentType: z.string(),
  kind: DocumentKind,
  documentDate: z.string().meta({ example: '03-2024' }),
  status: DocumentStatusValue,
  message: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  file: FileInfo,
  summary: z.string().nullable(),
  contact: Contact.nullable(),
  profile: Profile.nullable(),
  error: z.object({ message: z.string(), retryable: z.boolean() }).strict().nullable(),
};
export const DocumentSummary = z
  .object(documentFields)
  .strict()
  .meta({ id: 'DocumentSummary', description: 'A document as lists show it: without its text' });
export const Document = z
  .object({ ...documentFields, extractedText: z.string().nullable() })
  .strict()
  .meta({ id: 'Document' });
export const DocumentList = z
  .object({ data: z.array(DocumentSummary), pagination: Pagination })
  .strict()
  .meta({ id: 'DocumentList' });
export const DocumentDeleted = z
  .object({
    message: z.string(),
    documentId: uuid,
    documentName: z.string(),
    deleted: z
      .object({
        database: z.literal(true),
        storage: z.boolean(),
        searchIndex: z.object({ denseVectors: z.int(), sparseVectors: z.int() }).strict(),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'DocumentDeleted' });

// Shortlists

const shortlistFields = {
  shortlistId: uuid,
  name: z.string(),
  itemsCount: z.int().meta({ description: 'How many CVs the list holds' }),
  createdAt: timestamp,
  updatedAt: timestamp.meta({ description: 'When the list or its CVs last changed' }),
  shortlistUrl: path('/v1/public/shortlists/5d0b…'),
};
export const ShortlistSummary = z
  .object(shortlistFields)
  .strict()
  .meta({ id: 'ShortlistSummary', description: 'A shortlist as lists show it: without its CVs' });
export const ShortlistItem = z
  .object({
    documentId: uuid,
    documentName: z.string(),
    note: z.string().nullable().meta({ description: 'What the recruiter wrote of the candidate; null when nothing' }),
    addedAt: timestamp,
    documentUrl: path('/v1/public/documents/6f1c…'),
  })
  .strict()
  .meta({ id: 'ShortlistItem' });
export const Shortlist = z
  .object({ ...shortlistFields, items: z.array(ShortlistItem).meta({ description: 'Its CVs in the order they were added' }) })
  .strict()
  .meta({ id: 'Shortlist' });
export const ShortlistList = z
  .object({ data: z.array(ShortlistSummary), pagination: Pagination })
  .strict()
  .meta({ id: 'ShortlistList' });

// Saved searches

export const SavedSearch = z
  .object({
    savedSearchId: uuid,
    name: z.string(),
    searchType: z.enum(SAVED_SEARCH_TYPES),
    query: z.string(),
    filters: SearchFilters.nullable().meta({ description: 'The filters as given; null when it has none' }),
    top_k: z.int().meta({ description: 'Its first page: a CV read later that ranks within it is a new match' }),
    createdAt: timestamp,
    newMatchesCount: z
      .int()
      .meta({ description: `CVs read since it was saved that entered its first page (the newest ${MAX_SAVED_SEARCH_MATCHES} are kept)` }),
    lastNewMatchAt: timestamp.nullable().meta({ description: 'When the newest of them was found; null before the first' }),
    savedSearchUrl: path('/v1/public/saved-searches/8a2e…'),
    newUrl: path('/v1/public/saved-searches/8a2e…/new'),
  })
  .strict()
  .meta({ id: 'SavedSearch' });
export const SavedSearchList = z
  .object({ data: z.array(SavedSearch), pagination: Pagination })
  .strict()
  .meta({ id: 'SavedSearchList' });
export const SavedSearchMatch = z
  .object({
    documentId: uuid,
    documentName: z.string(),
    rank: z.int().min(1).meta({ description: 'Its place in the saved search’s first page when it was found' }),
    score: z.number().meta({ description: 'Its score then, on the search type’s scale' }),
    arrivedAt: timestamp.meta({ description: 'When the CV was read (its status became completed)' }),
    foundAt: timestamp.meta({ description: 'When the saved search ran again and found it' }),
    documentUrl: path('/v1/public/documents/6f1c…'),
  })
  .strict()
  .meta({ id: 'SavedSearchMatch' });
export const SavedSearchNewMatches = z
  .object({
    savedSearchId: uuid,
    since: timestamp.nullable().meta({ description: 'The `since` asked for (matches found after it); null for every new match kept' }),
    data: z.array(SavedSearchMatch).meta({ description: 'The newest finding first' }),
    pagination: Pagination,
  })
  .strict()
  .meta({ id: 'SavedSearchNewMatches' });

export type SearchCreated = z.infer<typeof SearchCreated>;
export type SearchStatus = z.infer<typeof SearchStatus>;
export type ResultItem = z.infer<typeof ResultItem>;
export type SearchResults = z.infer<typeof SearchResults>;
export type SearchMetadata = z.infer<typeof SearchMetadata>;

/** Keys of every member of a union (`keyof` of a union gives only the keys they share). */
type KeysOf<U> = U extends unknown ? keyof U : never;
/** true when the answer has a place for every field of what is stored; else the fields without one. */
type Serves<Answer, Stored> = [Exclude<KeysOf<Stored>, keyof Answer>] extends [never] ? true : Exclude<KeysOf<Stored>, keyof Answer>;
// A field added to a stored result or to a type's metadata without its place in the answer fails to compile here.
const _resultsServed: Serves<ResultItem, StoredResult> = true;
const _metadataServed: Serves<SearchMetadata, StoredSearchMetadata> = true;
export type GroupMember = z.infer<typeof GroupMember>;
export type GroupStatus = z.infer<typeof GroupStatus>;
export type GroupResults = z.infer<typeof GroupResults>;
export type GroupList = z.infer<typeof GroupList>;
export type UploadAccepted = z.infer<typeof UploadAccepted>;
export type PresignedUpload = z.infer<typeof PresignedUpload>;
export type UploadVerification = z.infer<typeof UploadVerification>;
export type Document = z.infer<typeof Document>;
export type DocumentSummary = z.infer<typeof DocumentSummary>;
export type DocumentList = z.infer<typeof DocumentList>;
export type DocumentDeleted = z.infer<typeof DocumentDeleted>;
export type ShortlistSummary = z.infer<typeof ShortlistSummary>;
export type ShortlistItem = z.infer<typeof ShortlistItem>;
export type Shortlist = z.infer<typeof Shortlist>;
export type ShortlistList = z.infer<typeof ShortlistList>;
export type SavedSearch = z.infer<typeof SavedSearch>;
export type SavedSearchList = z.infer<typeof SavedSearchList>;
export type SavedSearchMatch = z.infer<typeof SavedSearchMatch>;
export type SavedSearchNewMatches = z.infer<typeof SavedSearchNewMatches>;
