import './instrument';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { requireClusterSettings } from '@cs/config';
import { ConfigModule, main } from '@cs/service-kit';
import { ClusterStoresModule, OutboxModule, PortsModule, RateLimitsModule, RecordsModule, WebhooksModule } from '@cs/wiring';
import { GatewayModule } from './app/gateway.module';
import { readConsoleDir } from './app/console/console-files';
import { configureGatewayHttp } from './app/http-setup';

@Module({})
class GatewayProcessModule {}

/**
 * The gateway alone: HTTP in, PostgreSQL, Redis counters, NATS jobs out (through the outbox's relay), gRPC to dense and sparse,
 * webhooks out (every replica dispatches; claims keep them from sending one delivery twice).
 */
main({
  name: 'gateway',
  validate: (config) => requireClusterSettings(config, 'gateway', ['databaseUrl', 'natsUrl', 'redisUrl', 'adminToken', 'presignSecret']),
  module: (config) => {
    const stores = ClusterStoresModule.forRoot(config, {
      sql: true,
      notifications: true,
      queue: true,
      blobs: true,
      dense: true,
      sparse: true,
    });
    const limits = RateLimitsModule.forRoot(config);
    const ports = PortsModule.of(stores, RecordsModule.over(stores), OutboxModule.over(stores), WebhooksModule.over(stores), limits);
    return { module: GatewayProcessModule, imports: [ConfigModule.forRoot(config), GatewayModule.register(ports)] };
  },
  // The console only when CONSOLE_DIR names a built one: a cluster image carries no bundler.
  http: (app, config) => configureGatewayHttp(app, config, config.consoleDir ? readConsoleDir(config.consoleDir) : undefined),
});
