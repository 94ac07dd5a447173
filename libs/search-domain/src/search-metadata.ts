import type { SearchType } from './search-types';

/**
 * What a completed search's results say about how it ran (`metadata` of its results, docs/api.md
 * "Searches"). Clients read these fields by name, and the gateway echoes them beside its own
 * (`processingTimeMs`, `createdAt`, `completedAt`), so a field's name or place never changes.
 * Type aliases rather than interfaces: a record of them is stored as plain JSON.
 */

/** The stages a search's time is counted in, in the order they run. */
export type SearchStage = 'retrieval' | 'rerank' | 'documents' | 'explain';

/** Milliseconds (one decimal) in each stage a search of that kind runs. */
export type RetrievalStageTimings = { retrieval: number; documents: number; explain: number };
export type RerankStageTimings = { retrieval: number; rerank: number; documents: number; explain: number };

/** The dense model that embedded the query and the CVs searched: its id (DENSE_MODEL's) and vector length. */
export type DenseModelMetadata = { id: string; dimensions: number };

/** A query word the word vectors lack, read from the text around it in `cvs` of the company's CVs. */
export type InducedWord = { word: string; cvs: number };

/**
 * Who reranked: `builtin`, `local`, `cohere:<model>`... When hybrid's external provider failed and
 * the builtin reranker stood in, `degraded` is true and `degradedReason` says why.
 */
export type RerankerMetadata = { provider: string; degraded: boolean; degradedReason?: string };

/**
 * Hybrid's fusion of its two legs: the method, its constant and the candidates each gave. Searches
 * run before score fusion (convex-combination, with dense's share) carry reciprocal-rank fusion's k.
 */
export type FusionMetadata = ({ method: 'convex-combination'; denseShare: number } | { method: 'reciprocal-rank-fusion'; k: number }) & {
  denseCandidates: number;
  sparseCandidates: number;
  fusedCandidates: number;
};

/** dense: no reranker (`rerankTopN` is ignored, so null); `inducedWords` only when some were read. */
export type DenseSearchMetadata = {
  topK: number;
  rerankTopN: null;
  reranker: null;
  denseModel: DenseModelMetadata;
  inducedWords?: InducedWord[];
  stageTimingsMs: RetrievalStageTimings;
};

/** sparse: keywords only, no reranker. */
export type SparseSearchMetadata = {
  topK: number;
  rerankTopN: null;
  reranker: null;
  stageTimingsMs: RetrievalStageTimings;
};

/** builtin-rerank: dense's `candidates` (at least the domain's minimum) rescored by the builtin reranker. */
export type BuiltinRerankSearchMetadata = {
  topK: number;
  rerankTopN: number;
  reranker: RerankerMetadata;
  denseModel: DenseModelMetadata;
  inducedWords?: InducedWord[];
  candidates: number;
  stageTimingsMs: RerankStageTimings;
};

/** hybrid: both legs fused, then reranked by the external provider (or the builtin one, degraded). */
export type HybridSearchMetadata = {
  topK: number;
  rerankTopN: number;
  reranker: RerankerMetadata;
  denseModel: DenseModelMetadata;
  inducedWords?: InducedWord[];
  fusion: FusionMetadata;
  stageTimingsMs: RerankStageTimings;
};

/** The metadata each search type's results carry (a type missing here fails to compile below). */
export type SearchMetadataByType = {
  dense: DenseSearchMetadata;
  sparse: SparseSearchMetadata;
  hybrid: HybridSearchMetadata;
  'builtin-rerank': BuiltinRerankSearchMetadata;
};

/** One type's metadata, or (unnamed) any type's. */
export type SearchMetadata<T extends SearchType = SearchType> = SearchMetadataByType[T];
