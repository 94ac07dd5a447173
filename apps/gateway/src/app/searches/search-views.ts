import type { http } from '@cs/contracts';
import type { DocumentRecord, SearchRecord, StoredResult } from '@cs/records';
import { estimateRemaining } from '@cs/search-domain';

export const statusUrl = (id: string) => `/v1/public/searches/${id}`;
export const resultsUrl = (id: string) => `/v1/public/searches/${id}/results`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The status view: the contract's fields that apply to the current state. */
export function searchStatusView(search: SearchRecord, recentMs: number[]): Record<string, unknown> {
  const view: Record<string, unknown> = {
    searchId: search.id,
    searchGroupId: search.searchGroupId,
    status: search.status,
    query: search.query,
    searchType: search.searchType,
    createdAt: iso(search.createdAt),
  };
  switch (search.status) {
    case 'completed':
      return { ...view, resultsCount: search.resultsCount, processingTimeMs: search.processingTimeMs, completedAt: iso(search.completedAt), resultsUrl: resultsUrl(search.id) };
    case 'failed':
      return { ...view, error: search.error, errorRetryable: search.errorRetryable, completedAt: iso(search.completedAt) };
    case 'initiated':
    case 'processing':
      return { ...view, estimatedCompletion: estimateRemaining(search.searchType, recentMs, Date.now() - search.createdAt.getTime()) };
  }
}

/**
 * One result as served: what was stored with the search, joined with the CV's current fields;
 * the CV's whole text only when asked. A CV deleted since keeps its rank and scores but loses
 * everything read from it (`documentDeleted: true`).
 */
export function resultView(stored: StoredResult, doc: DocumentRecord | undefined, page: Pick<http.ResultsQuery, 'include'>): Record<string, unknown> {
  const withText = page.include.extractedText;
  if (!doc) {
    return {
      ...stored,
      documentName: null,
      documentDate: null,
      matchedTerms: [],
      highlights: [],
      documentDeleted: true,
      summary: null,
      contact: null,
      profile: null,
      ...(withText ? { extractedText: null } : {}),
    };
  }
  return {
    ...stored,
    documentName: doc.documentName,
    documentDate: doc.documentDate,
    summary: doc.summary,
    contact: doc.contact,
    profile: doc.profile,
    ...(withText ? { extractedText: doc.extractedText } : {}),
  };
}

export function searchMetadata(search: SearchRecord): Record<string, unknown> {
  // topK, rerankTopN and reranker are stored by the pipeline that decided them.
  return {
    processingTimeMs: search.processingTimeMs,
    createdAt: iso(search.createdAt),
    completedAt: iso(search.completedAt),
    ...(search.metadata ?? {}),
  };
}
