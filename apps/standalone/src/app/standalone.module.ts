import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { ConfigModule, EmbeddingsModule, OutboxModule, RecordsModule } from '@cs/service-kit';
import { DenseModule } from '../../../dense/src/app/dense.module';
import { GatewayModule } from '../../../gateway/src/app/gateway.module';
import { IngestionModule } from '../../../ingestion/src/app/ingestion.module';
import { RerankerModule } from '../../../reranker/src/app/reranker.module';
import { SearchOrchestratorModule } from '../../../search-orchestrator/src/app/search-orchestrator.module';
import { SparseModule } from '../../../sparse/src/app/sparse.module';
import { EmbeddedStoresModule } from './embedded-stores.module';

/** Every service module in one process, calling each other in-process through their ports. */
@Module({})
export class StandaloneModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: StandaloneModule,
      imports: [
        ConfigModule.forRoot(config),
        EmbeddedStoresModule.forRoot(config),
        RecordsModule,
        OutboxModule,
        EmbeddingsModule,
        DenseModule,
        SparseModule,
        RerankerModule,
        IngestionModule,
        SearchOrchestratorModule,
        GatewayModule,
      ],
    };
  }
}
