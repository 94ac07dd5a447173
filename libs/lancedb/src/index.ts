export * from './company-tables';
export { LanceDbKeywordIndex, type LanceDbKeywordIndexOptions } from './lancedb-keyword.index';
export { DEFAULT_ANN, DEFAULT_ANN_THRESHOLD, LanceDbVectorIndex } from './lancedb-vector.index';
export type { AnnSettings, LanceDbVectorIndexOptions } from './lancedb-vector.index';
export { LanceDbVectorSpaces } from './lancedb-vector.spaces';
