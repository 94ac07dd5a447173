import './instrument';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { requireClusterSettings } from '@cs/config';
import { ConfigModule, main } from '@cs/service-kit';
import { ClusterStoresModule, PortsModule, RecordsModule } from '@cs/wiring';
import { IngestionModule } from './app/ingestion.module';

@Module({})
class IngestionProcessModule {}

/** Ingestion alone: consumes ingestion jobs from NATS, indexes through the dense and sparse services. */
main({
  name: 'ingestion',
  validate: (config) => requireClusterSettings(config, 'ingestion', ['databaseUrl', 'natsUrl']),
  module: (config) => {
    const stores = ClusterStoresModule.forRoot(config, { sql: true, queue: true, blobs: true, dense: true, sparse: true });
    const ports = PortsModule.of(stores, RecordsModule.over(stores));
    return { module: IngestionProcessModule, imports: [ConfigModule.forRoot(config), IngestionModule.register(ports)] };
  },
});
