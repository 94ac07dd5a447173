import { Redis } from 'ioredis';
import { runPrefix, testEnvironment } from '@cs/test-services';
import { describeRateLimitStoreContract } from './rate-limit-store.contract';
import { RedisRateLimitStore } from './rate-limiter';

describeRateLimitStoreContract(
  'Redis',
  async () => {
    const redis = new Redis(testEnvironment().redisUrl!, { lazyConnect: true, maxRetriesPerRequest: 2 });
    await redis.connect();
    const prefix = runPrefix();
    return {
      store: new RedisRateLimitStore(redis, prefix),
      close: async () => {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        await redis.quit();
      },
    };
  },
  ['redis'],
);
