import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { ConfigModule, type DataDirStore } from '@cs/service-kit';
import {
  EmbeddedStoresModule,
  EmbeddingsModule,
  HostedRerankerModule,
  KeywordIndexModule,
  OutboxModule,
  PortsModule,
  RateLimitsModule,
  RecordsModule,
  VectorSpacesModule,
  DenseEncodersModule,
  WebhooksModule,
} from '@cs/wiring';
import { DenseModule } from '../../../dense/src/app/dense.module';
import { GatewayModule } from '../../../gateway/src/app/gateway.module';
import { IngestionModule } from '../../../ingestion/src/app/ingestion.module';
import { RerankerModule } from '../../../reranker/src/app/reranker.module';
import { SearchOrchestratorModule } from '../../../search-orchestrator/src/app/search-orchestrator.module';
import { SparseModule } from '../../../sparse/src/app/sparse.module';
import { IndexRebuildModule } from './index-rebuild';

/**
 * Every service module in one process, calling each other in-process through their ports: the
 * dense, sparse and reranker modules are themselves the clients the other three are given.
 */
@Module({})
export class StandaloneModule {
  /** `dataDirStore`: whose indexes DATA_DIR holds, as read at start (the index rebuild's cue). */
  static forRoot(config: AppConfig, dataDirStore: DataDirStore | null): DynamicModule {
    const stores = EmbeddedStoresModule.forRoot(config);
    const dense = DenseModule.register(PortsModule.of(DenseEncodersModule.forRoot(config), VectorSpacesModule.forRoot(config)));
    const sparse = SparseModule.register(KeywordIndexModule.forRoot(config));
    const reranker = RerankerModule.register(PortsModule.of(EmbeddingsModule, HostedRerankerModule.forRoot(config)));
    const records = RecordsModule.over(stores);
    const ports = PortsModule.of(
      stores,
      records,
      OutboxModule.over(stores),
      WebhooksModule.over(stores),
      RateLimitsModule.forRoot(config),
      dense,
      sparse,
      reranker,
      IndexRebuildModule.over(PortsModule.of(stores, records, dense, sparse), dataDirStore),
    );
    return {
      module: StandaloneModule,
      imports: [
        ConfigModule.forRoot(config),
        IngestionModule.register(ports),
        SearchOrchestratorModule.register(ports),
        GatewayModule.register(ports),
      ],
    };
  }
}
