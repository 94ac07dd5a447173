import { Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { MemoryRateLimitStore, RateLimiterService, RedisRateLimitStore, type RateLimitStore } from '@cs/rate-limits';
import { loggerFor } from '@cs/telemetry';

/**
 * The public API's rate limits: counters in Redis when REDIS_URL is set, so that every gateway
 * replica shares one count per key, else in the process's memory. The Redis client is loaded
 * (import()) only where it is configured.
 */
@Module({})
export class RateLimitsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: RateLimitsModule,
      providers: [
        {
          provide: RateLimiterService,
          useFactory: async () => new RateLimiterService(await rateLimitStore(config)),
        },
      ],
      exports: [RateLimiterService],
    };
  }
}

async function rateLimitStore(config: AppConfig): Promise<RateLimitStore> {
  const { redisUrl, natsPrefix } = config.cluster;
  if (!redisUrl) return new MemoryRateLimitStore();
  const { Redis } = await import('ioredis');
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false });
  // ioredis prints its connection errors as plain-text stacks unless they are listened for: they go to the log instead.
  const logger = loggerFor('redis');
  client.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection error'));
  return new RedisRateLimitStore(client, `${natsPrefix}:rl`);
}
