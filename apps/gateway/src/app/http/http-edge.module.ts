import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import type { AppConfig } from '@cs/config';
import { SQL_CLIENT, type SqlClient } from '@cs/ports';
import { IdempotencyKeysRepository } from '@cs/records';
import { configPart } from '@cs/service-kit';
import type { ModuleImport } from '@cs/wiring';
import { PublicApiAuthMiddleware } from '../auth/public-api-auth.middleware';
import { IdempotencyKeyPrunerService } from '../idempotency/idempotency-key-pruner.service';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { ErrorFilter } from './error.filter';
import { RateLimitMetrics } from '../rate-limit/rate-limit';
import { PublicRequestPipeline } from './public-pipeline';
import { RequestContextMiddleware } from './request-context.middleware';
import { HttpMetrics } from './request-metrics';
import { RequestShapeInterceptor } from './request-shape';

/**
 * What every request goes through, whichever feature answers it: the request id and log line,
 * the public API's authentication and limits (PublicRequestPipeline, which the ended-search reads
 * use too), the request's shape and body, idempotency keys, and the one error filter.
 */
@Module({})
export class HttpEdgeModule {
  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    return {
      module: HttpEdgeModule,
      imports: [ports],
      providers: [
        { provide: APP_FILTER, useClass: ErrorFilter },
        // Bodies are read here, after the guards: never before authentication and the rate limit.
        { provide: APP_INTERCEPTOR, useClass: RequestShapeInterceptor },
        // After it (global interceptors run in this order): a key is claimed once the body is read.
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
        {
          provide: IdempotencyKeysRepository,
          useFactory: (sql: SqlClient, ttlMs: AppConfig['idempotencyKeyTtlMs']) => new IdempotencyKeysRepository(sql, { ttlMs }),
          inject: [SQL_CLIENT, configPart('idempotencyKeyTtlMs')],
        },
        IdempotencyKeyPrunerService,
        // Run by configureGatewayHttp before routing (see there), not through Nest's route-bound middleware.
        RequestContextMiddleware,
        PublicApiAuthMiddleware,
        PublicRequestPipeline,
        RateLimitMetrics,
        HttpMetrics,
      ],
      exports: [PublicRequestPipeline, HttpMetrics],
    };
  }
}
