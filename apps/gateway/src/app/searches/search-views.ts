import type { api, http } from '@cs/contracts';
import type { DocumentRecord, SearchRecord } from '@cs/records';
import { estimateRemaining, type StoredResult } from '@cs/search-domain';

export const statusUrl = (id: string) => `/v1/public/searches/${id}`;
export const resultsUrl = (id: string) => `/v1/public/searches/${id}/results`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** `filters`, echoed as the client gave them, only when the search has some; `similarTo`, only on a similar search. */
export const echoedFields = (search: Pick<SearchRecord, 'filters' | 'similarTo' | 'match'>) => ({
  ...(search.filters ? { filters: search.filters } : {}),
  ...(search.similarTo ? { similarTo: search.similarTo } : {}),
  ...(search.match?.jobDescriptionDocumentId ? { jobDescriptionDocumentId: search.match.jobDescriptionDocumentId } : {}),
  ...(search.match ? { criteria: search.match.criteria, strict: search.match.strict } : {}),
});

/** The status view: the contract's fields that apply to the current state. */
export function searchStatusView(search: SearchRecord, recentMs: number[]): api.SearchStatus {
  const view = {
    searchId: search.id,
    searchGroupId: search.searchGroupId,
    query: search.query,
    ...echoedFields(search),
    searchType: search.searchType,
    createdAt: search.createdAt.toISOString(),
  };
  switch (search.status) {
    case 'completed':
      return {
        ...view,
        status: 'completed',
        resultsCount: search.resultsCount ?? 0,
        processingTimeMs: search.processingTimeMs ?? 0,
        completedAt: (search.completedAt ?? search.createdAt).toISOString(),
        resultsUrl: resultsUrl(search.id),
      };
    case 'failed':
      return {
        ...view,
        status: 'failed',
        error: search.error ?? 'the search failed',
        errorRetryable: search.errorRetryable ?? true,
        completedAt: iso(search.completedAt),
      };
    case 'initiated':
    case 'processing':
      return {
        ...view,
        status: search.status,
        estimatedCompletion: estimateRemaining(search.searchType, recentMs, Date.now() - search.createdAt.getTime()),
      };
  }
}

/**
 * One result as served: what was stored with the search, joined with the CV's current fields;
 * the CV's whole text only when asked. A CV deleted since keeps its rank and scores but loses
 * everything read from it (`documentDeleted: true`).
 */
export function resultView(
  stored: StoredResult,
  doc: DocumentRecord | undefined,
  page: Pick<http.ResultsQuery, 'include'>,
): api.ResultItem {
  const withText = page.include.extractedText;
  if (!doc) {
    // What quotes the CV goes with it: its words matched and the criteria's evidence.
    const { matchedAs: _, match: __, ...kept } = stored;
    return {
      ...kept,
      documentName: null,
      documentDate: null,
      matchedTerms: [],
      highlights: [],
      documentDeleted: true as const,
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

export function searchMetadata(search: SearchRecord): api.SearchMetadata {
  // topK, rerankTopN, reranker and the rest are stored by the use case that decided them
  // (SearchMetadata of libs/search-domain), and read back against its type's schema.
  if (!search.metadata) throw new Error(`search ${search.id} is ${search.status} without its metadata`);
  return {
    processingTimeMs: search.processingTimeMs,
    createdAt: search.createdAt.toISOString(),
    completedAt: iso(search.completedAt),
    ...search.metadata,
  };
}
