export { RRF_K, reciprocalRankFusion } from './rrf';
export type { Fused } from './rrf';
export { FeatureReranker } from './feature-reranker';
export type { FeatureScores, RerankInput, Reranked } from './feature-reranker';
export { FEATURE_WEIGHTS, FEEDBACK, NEIGHBOURS, PRECISION_HEAD } from './feature-reranker';
export { topK } from './top-k';
