import type { SearchMetadata, StoredResult } from '@cs/search-domain';

/** A dense search's metadata, as its use case stores it. */
export const DENSE_METADATA: SearchMetadata<'dense'> = {
  topK: 5,
  rerankTopN: null,
  reranker: null,
  denseModel: { id: 'builtin:glove-sif-100d-v2', dimensions: 100 },
  stageTimingsMs: { retrieval: 1.2, documents: 0.4, explain: 0.3 },
};

/** A match search's metadata, as its use case stores it. */
export const MATCH_METADATA: SearchMetadata<'match'> = {
  topK: 5,
  rerankTopN: 100,
  reranker: { provider: 'builtin', degraded: false },
  denseModel: { id: 'builtin:glove-sif-100d-v2', dimensions: 100 },
  strict: true,
  criteriaShare: 0.1,
  fusion: { method: 'convex-combination', denseShare: 0.5, denseCandidates: 300, sparseCandidates: 120, fusedCandidates: 350 },
  stageTimingsMs: { retrieval: 1.2, rerank: 2.1, documents: 0.4, explain: 0.3 },
};

/** One stored result of a dense search, with a highlight. */
export const storedResult = (documentId: string): StoredResult => ({
  rank: 1,
  documentId,
  documentName: 'cv',
  documentDate: '01-2024',
  score: 0.8123,
  scores: { dense: 0.8123 },
  highlights: [{ text: 'Nurse, ICU.', start: 0, end: 11, matches: [{ start: 0, end: 5 }] }],
  matchedTerms: ['nurse'],
});
