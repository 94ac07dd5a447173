// How each mode binds the ports: `common` for what both modes share, `cluster` for the cluster's
// servers, `embedded` for standalone's data folder.
export { PortsModule } from './common/ports.module';
export type { ModuleImport } from './common/ports.module';
export { RecordsModule } from './common/records.module';
export { OutboxModule } from './common/outbox.module';
export { WebhooksModule } from './common/webhooks.module';
export { DenseEncodersModule, EmbeddingsModule, SENTENCE_EMBEDDER } from './common/embeddings.module';
export { KeywordIndexModule, VectorSpacesModule } from './common/index-stores.module';
export { RateLimitsModule } from './common/rate-limits.module';
export { HOSTED_RERANKER, HostedRerankerModule } from './common/hosted-reranker.module';
export { ClusterStoresModule } from './cluster/cluster-stores.module';
export type { ClusterNeeds } from './cluster/cluster-stores.module';
export { EmbeddedStoresModule } from './embedded/embedded-stores.module';
