export { EmbeddedBm25Index, documentTerms, queryWeights } from './embedded-bm25.index';
