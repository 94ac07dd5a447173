import './instrument';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { requireClusterSettings } from '@cs/config';
import { ConfigModule, main } from '@cs/service-kit';
import { ClusterStoresModule, PortsModule, RecordsModule } from '@cs/wiring';
import { SearchOrchestratorModule } from './app/search-orchestrator.module';

@Module({})
class OrchestratorProcessModule {}

/** The search orchestrator alone: consumes search jobs, calls dense, sparse and reranker over gRPC. */
main({
  name: 'search-orchestrator',
  validate: (config) => requireClusterSettings(config, 'search-orchestrator', ['databaseUrl', 'natsUrl']),
  module: (config) => {
    const stores = ClusterStoresModule.forRoot(config, { sql: true, queue: true, dense: true, sparse: true, reranker: true });
    const ports = PortsModule.of(stores, RecordsModule.over(stores));
    return { module: OrchestratorProcessModule, imports: [ConfigModule.forRoot(config), SearchOrchestratorModule.register(ports)] };
  },
});
