import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { requireClusterSettings } from '@cs/config';
import { ClusterStoresModule, ConfigModule, RecordsModule, main } from '@cs/service-kit';
import { SearchOrchestratorModule } from './app/search-orchestrator.module';

@Module({})
class OrchestratorProcessModule {}

/** The search orchestrator alone: consumes search jobs, calls dense, sparse and reranker over gRPC. */
main({
  name: 'search-orchestrator',
  validate: (config) => requireClusterSettings(config, 'search-orchestrator', ['databaseUrl', 'natsUrl']),
  module: (config) => ({
    module: OrchestratorProcessModule,
    imports: [
      ConfigModule.forRoot(config),
      ClusterStoresModule.forRoot(config, { sql: true, queue: true, dense: true, sparse: true, reranker: true }),
      RecordsModule,
      SearchOrchestratorModule,
    ],
  }),
});
