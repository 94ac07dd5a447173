export { EmbeddedVectorIndex } from './embedded-vector.index';
export { EmbeddedVectorSpaces, setFolderName } from './embedded-vector.spaces';
