export { EmbeddedBm25Index } from './embedded-bm25.index';
