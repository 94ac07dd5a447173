export { EmbeddedBm25Index, termFrequencies, queryWeights } from './embedded-bm25.index';
export { BM25_B, BM25_K1, idf, termScore } from './bm25';
