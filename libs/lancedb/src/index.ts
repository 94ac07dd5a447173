export * from './company-tables';
export { LanceDbKeywordIndex, type LanceDbKeywordIndexOptions } from './lancedb-keyword.index';
