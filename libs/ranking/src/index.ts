export { DENSE_SHARE, convexFusion } from './score-fusion';
export type { ScoreFused, Scored } from './score-fusion';
export { FeatureReranker } from './feature-reranker';
export type { FeatureScores, RerankInput, Reranked } from './feature-reranker';
export { FEATURE_WEIGHTS, FEEDBACK, NEIGHBOURS, PRECISION_HEAD } from './feature-reranker';
export { topK } from './top-k';
export { BM25_B, BM25_K1, HEADLINE_WEIGHT, idf, lengthNorm, termScore, termUpperBound } from './bm25';
export { RM3, feedbackShares, feedbackTermWeights, queryShares, rm3Expand } from './rm3';
export type { FeedbackDocument } from './rm3';
