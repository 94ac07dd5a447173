import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { requireClusterSettings } from '@cs/config';
import { ClusterStoresModule, ConfigModule, RecordsModule, main } from '@cs/service-kit';
import { IngestionModule } from './app/ingestion.module';

@Module({})
class IngestionProcessModule {}

/** Ingestion alone: consumes ingestion jobs from NATS, indexes through the dense and sparse services. */
main({
  name: 'ingestion',
  validate: (config) => requireClusterSettings(config, 'ingestion', ['databaseUrl', 'natsUrl']),
  module: (config) => ({
    module: IngestionProcessModule,
    imports: [
      ConfigModule.forRoot(config),
      ClusterStoresModule.forRoot(config, { sql: true, queue: true, blobs: true, dense: true, sparse: true }),
      RecordsModule,
      IngestionModule,
    ],
  }),
});
