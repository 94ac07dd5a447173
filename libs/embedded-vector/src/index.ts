export { EmbeddedVectorIndex } from './embedded-vector.index';
