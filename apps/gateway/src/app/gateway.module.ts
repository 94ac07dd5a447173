import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import type { AppConfig } from '@cs/config';
import { APP_CONFIG } from '@cs/service-kit';
import type { ModuleImport } from '@cs/wiring';
import { AdminController } from './admin/admin.controller';
import { DenseController } from './admin/dense.controller';
import { AdminTokenGuard } from './admin/admin-token.guard';
import { WebhooksController } from './admin/webhooks.controller';
import { WebhooksService } from './admin/webhooks.service';
import { PublicApiAuthMiddleware } from './auth/public-api-auth.middleware';
import { DocumentIntakeService } from './documents/document-intake.service';
import { DocumentsController, PresignedPutController } from './documents/documents.controller';
import { DocumentsService } from './documents/documents.service';
import { GATEWAY_SECRETS, loadGatewaySecrets } from './gateway-secrets';
import { GroupsController } from './groups/groups.controller';
import { GroupsService } from './groups/groups.service';
import { HealthController } from './health/health.controller';
import { ReadinessService } from './health/readiness';
import { ErrorFilter } from './http/error.filter';
import { PublicRequestPipeline } from './http/public-pipeline';
import { RequestContextMiddleware } from './http/request-context.middleware';
import { RequestShapeInterceptor } from './http/request-shape';
import { IdempotencyKeyPrunerService } from './idempotency/idempotency-key-pruner.service';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { UnmatchedPublicRouteController } from './http/unmatched-route';
import { Redis } from 'ioredis';
import { loggerFor } from '@cs/telemetry';
import { MemoryRateLimitStore, RateLimiterService, RedisRateLimitStore } from '@cs/rate-limits';
import { SQL_CLIENT, type SqlClient } from '@cs/ports';
import { IdempotencyKeysRepository } from '@cs/records';
import { EndedSearchAnswers } from './searches/ended-search-answers';
import { EndedSearchReads } from './searches/ended-search-reads';
import { SearchesController } from './searches/searches.controller';
import { SearchEventsService } from './searches/search-events.service';
import { SearchWaitersService } from './searches/search-waiters.service';
import { SearchesService } from './searches/searches.service';
import { PresignedPutGuard } from './uploads/presigned-put.guard';
import { UploadsService } from './uploads/uploads.service';

/** ioredis prints its connection errors as plain-text stacks unless they are listened for: they go to the log instead. */
function redisClient(url: string): Redis {
  const logger = loggerFor('redis');
  const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: false });
  client.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection error'));
  return client;
}

/** HTTP: auth, rate limits, the /v1/public contract, the admin API and OpenAPI. */
@Module({
  // GroupsController first: `/searches/groups` must not be taken for a search id; the
  // unmatched-route controller last, since it takes every /v1/public path.
  controllers: [
    GroupsController,
    SearchesController,
    DocumentsController,
    PresignedPutController,
    AdminController,
    DenseController,
    WebhooksController,
    HealthController,
    UnmatchedPublicRouteController,
  ],
  providers: [
    { provide: APP_FILTER, useClass: ErrorFilter },
    // Bodies are read here, after the guards: never before authentication and the rate limit.
    { provide: APP_INTERCEPTOR, useClass: RequestShapeInterceptor },
    // After it (global interceptors run in this order): a key is claimed once the body is read.
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
    {
      provide: IdempotencyKeysRepository,
      useFactory: (sql: SqlClient, config: AppConfig) => new IdempotencyKeysRepository(sql, { ttlMs: config.idempotencyKeyTtlMs }),
      inject: [SQL_CLIENT, APP_CONFIG],
    },
    IdempotencyKeyPrunerService,
    { provide: GATEWAY_SECRETS, useFactory: (config: AppConfig) => loadGatewaySecrets(config), inject: [APP_CONFIG] },
    {
      // Redis when configured, so that every gateway replica shares one count per key.
      provide: RateLimiterService,
      useFactory: (config: AppConfig) =>
        new RateLimiterService(
          config.cluster.redisUrl
            ? new RedisRateLimitStore(redisClient(config.cluster.redisUrl), `${config.cluster.natsPrefix}:rl`)
            : new MemoryRateLimitStore(),
        ),
      inject: [APP_CONFIG],
    },
    AdminTokenGuard,
    ReadinessService,
    PresignedPutGuard,
    // Run by configureGatewayHttp before routing (see there), not through Nest's route-bound middleware.
    RequestContextMiddleware,
    PublicApiAuthMiddleware,
    PublicRequestPipeline,
    SearchesService,
    EndedSearchAnswers,
    EndedSearchReads,
    SearchWaitersService,
    SearchEventsService,
    GroupsService,
    DocumentsService,
    DocumentIntakeService,
    UploadsService,
    WebhooksService,
  ],
})
export class GatewayModule {
  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    return { module: GatewayModule, imports: [ports] };
  }
}
