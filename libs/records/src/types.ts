import type { SearchStatus, SearchType } from '@cs/search-domain';
import type { ContactInfo, ProfileInfo } from '@cs/cv-understanding';

export type { ContactInfo, ProfileInfo };

export type { SearchStatus, SearchType };
export type DocumentStatus = 'uploading' | 'pending' | 'completed' | 'failed' | 'invalid';
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

export interface SearchRecord {
  id: string;
  companyId: string;
  searchGroupId: string;
  searchType: SearchType;
  query: string;
  topK: number;
  rerankTopN: number;
  status: SearchStatus;
  error: string | null;
  errorRetryable: boolean | null;
  resultsCount: number | null;
  processingTimeMs: number | null;
  results: StoredResult[] | null;
  metadata: Record<string, unknown> | null;
  createdAt: Date;
  startedAt: Date | null;
  completedAt: Date | null;
}

export interface StoredHighlight {
  text: string;
  start: number;
  end: number;
  matches: { start: number; end: number }[];
}

/** A result as stored with its search; CV contents are joined from the document when read. */
export interface StoredResult {
  rank: number;
  documentId: string;
  documentName: string;
  documentDate: string;
  score: number;
  scores: Partial<Record<'dense' | 'sparse' | 'fused' | 'rerank', number>>;
  highlights: StoredHighlight[];
  matchedTerms: string[];
}
