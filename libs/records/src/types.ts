import type { MatchOutcome, SearchFacets } from '@cs/search-domain';
import type { FacetField, SearchFilter, SearchFilters } from '@cs/search-filters';
import type { SearchMetadata, SearchStatus, SearchType, StoredResult } from '@cs/search-domain';
import type { ContactInfo, ProfileInfo } from '@cs/cv-understanding/types';
import type { SearchMatch } from '@cs/job-criteria/criteria';

export type { ContactInfo, ProfileInfo, SearchMatch };

export type { SearchStatus, SearchType };
export type DocumentStatus = 'uploading' | 'pending' | 'completed' | 'failed' | 'invalid';
/** What a document is: a CV, searched as a candidate, or a job posting, which match searches read and no search returns. */
export type DocumentKind = 'cv' | 'job';
export type UploadStatus = 'pending' | 'uploaded' | 'finalized' | 'expired';
export type LimitCategory = 'search' | 'read' | 'upload-burst' | 'upload-sustained';

export interface CompanyRecord {
  id: string;
  name: string;
  /** Per-category overrides of the contract's default limits. */
  limits: Partial<Record<LimitCategory, number>>;
  createdAt: Date;
}

export interface ApiKeyRecord {
  id: string;
  companyId: string;
  keyPrefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface ChunkSpan {
  index: number;
  start: number;
  end: number;
}

export interface DocumentRecord {
  id: string;
  companyId: string;
  documentName: string;
  documentType: string;
  kind: DocumentKind;
  documentDate: string;
  status: DocumentStatus;
  message: string | null;
  contentHash: string;
  fileName: string;
  fileSize: number;
  contentType: string;
  storageKey: string;
  extractedText: string | null;
  summary: string | null;
  contact: ContactInfo | null;
  profile: ProfileInfo | null;
  chunks: ChunkSpan[] | null;
  error: { message: string; retryable: boolean } | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface UploadRecord {
  id: string;
  companyId: string;
  fileName: string;
  contentType: string;
  fileSize: number;
  storageKey: string;
  status: UploadStatus;
  documentId: string | null;
  expiresAt: Date;
  createdAt: Date;
}

interface SearchFields {
  id: string;
  companyId: string;
  searchGroupId: string;
  /** Empty for a \`similar\` search, which starts from \`similarTo\`, one of the company's CVs. */
  query: string;
  similarTo: string | null;
  /** A \`match\` search's criteria; null for the other types. */
  match: SearchMatch | null;
  topK: number;
  rerankTopN: number;
  /** The filters as the client wrote them, and as the stores apply them; null for none. */
  filters: SearchFilters | null;
  resolvedFilter: SearchFilter | null;
  /** The profile fields to count (facets), and the counts once completed. */
  facetFields: FacetField[];
  facets: SearchFacets | null;
  /** A completed \`match\` search's requirement counts and near misses; null for the other types. */
  matchOutcome: MatchOutcome | null;
  status: SearchStatus;
  error: string | null;
  errorRetryable: boolean | null;
  resultsCount: number | null;
  processingTimeMs: number | null;
  results: StoredResult[] | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

/** A search, with the metadata of its own type (null until it completes). */
export type SearchRecord = SearchFields & { [T in SearchType]: { searchType: T; metadata: SearchMetadata<T> | null } }[SearchType];
