export { QdrantVectorIndex, pointId } from './qdrant-vector.index';
export type { QdrantApi } from './qdrant-vector.index';
export { QdrantVectorSpaces } from './qdrant-vector.spaces';
export type { QdrantSpacesApi } from './qdrant-vector.spaces';
