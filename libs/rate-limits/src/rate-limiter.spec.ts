import { describeRateLimitStoreContract } from './rate-limit-store.contract';
import { MemoryRateLimitStore } from './rate-limiter';

// The same contract against Redis: rate-limiter.int-spec.ts.
describeRateLimitStoreContract('memory', async () => ({ store: new MemoryRateLimitStore(), close: async () => undefined }));
