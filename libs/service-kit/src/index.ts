export { APP_CONFIG, SENTENCE_EMBEDDER } from './tokens';
export { ConfigModule } from './config.module';
export { RecordsModule } from './records.module';
export { EmbeddingsModule } from './embeddings.module';
export { ClusterStoresModule } from './cluster-stores.module';
export type { ClusterNeeds } from './cluster-stores.module';
export { main, runService } from './bootstrap';
export type { ServiceDefinition } from './bootstrap';
export { DENSE_DIMENSIONS, KeywordIndexModule, VectorIndexModule } from './index-stores.module';
