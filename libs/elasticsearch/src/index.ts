export { ElasticsearchKeywordIndex, INDEX_SETTINGS } from './elasticsearch-keyword.index';
export type { ElasticsearchApi } from './elasticsearch-keyword.index';
export { ANALYSIS } from './elasticsearch-analysis';
