export { RRF_K, reciprocalRankFusion } from './rrf';
export type { Fused } from './rrf';
export { FEATURE_WEIGHTS, FeatureReranker } from './feature-reranker';
export type { FeatureScores, RerankInput, Reranked } from './feature-reranker';
