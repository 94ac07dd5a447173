import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { requireClusterSettings } from '@cs/config';
import { ClusterStoresModule, ConfigModule, OutboxModule, RecordsModule, main } from '@cs/service-kit';
import { GatewayModule } from './app/gateway.module';
import { configureGatewayHttp } from './app/http-setup';

@Module({})
class GatewayProcessModule {}

/** The gateway alone: HTTP in, PostgreSQL, Redis counters, NATS jobs out (through the outbox's relay), gRPC to dense and sparse. */
main({
  name: 'gateway',
  validate: (config) => requireClusterSettings(config, 'gateway', ['databaseUrl', 'natsUrl', 'redisUrl']),
  module: (config) => ({
    module: GatewayProcessModule,
    imports: [
      ConfigModule.forRoot(config),
      ClusterStoresModule.forRoot(config, { sql: true, queue: true, blobs: true, dense: true, sparse: true }),
      RecordsModule,
      OutboxModule,
      GatewayModule,
    ],
  }),
  http: (app) => configureGatewayHttp(app),
});
