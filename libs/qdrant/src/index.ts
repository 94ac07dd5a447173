export { QdrantVectorIndex, pointId } from './qdrant-vector.index';
export type { QdrantApi } from './qdrant-vector.index';
