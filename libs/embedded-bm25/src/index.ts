export { EmbeddedBm25Index, HEADLINE_WEIGHT, documentTerms, queryWeights } from './embedded-bm25.index';
export { BM25_B, BM25_K1, FEEDBACK, idf, rm3Expand, termScore } from './bm25';
export type { FeedbackDocument } from './bm25';
