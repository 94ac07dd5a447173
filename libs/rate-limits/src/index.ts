export { DEFAULT_RULES, MemoryRateLimitStore, RateLimiterService, RedisRateLimitStore } from './rate-limiter';
export type { CategoryRule, LimitState, RateLimitStore } from './rate-limiter';
