export { EmbeddedBm25Index, FEEDBACK, HEADLINE_WEIGHT, documentTerms, queryWeights } from './embedded-bm25.index';
export { BM25_B, BM25_K1, idf, termScore } from './bm25';
