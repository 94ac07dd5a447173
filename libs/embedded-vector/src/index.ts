export { EmbeddedVectorIndex } from './embedded-vector.index';
export { EmbeddedVectorSpaces } from './embedded-vector.spaces';
