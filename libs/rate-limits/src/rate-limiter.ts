import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { LimitCategory } from '@cs/records';

export interface CategoryRule {
  limit: number;
  windowSeconds: number;
  /** As the 429 body states it. */
  window: string;
  label: string;
  hint?: string;
}

/** The contract's limits, per API key; companies may be granted more (admin CLI). */
export const DEFAULT_RULES: Readonly<Record<LimitCategory | 'auth-failure', CategoryRule>> = {
  search: {
    limit: 10,
    windowSeconds: 60,
    window: '1 minute',
    label: 'Search',
    hint: 'Space searches about 6 seconds apart; poll status instead of starting new searches; ask support for a higher limit.',
  },
  read: { limit: 100, windowSeconds: 60, window: '1 minute', label: 'Read' },
  'upload-burst': {
    limit: 10,
    windowSeconds: 10,
    window: '10 seconds',
    label: 'Upload burst',
    hint: 'Space uploads about 3 seconds apart; ask support for a higher limit for bulk imports.',
  },
  'upload-sustained': {
    limit: 20,
    windowSeconds: 60,
    window: '1 minute',
    label: 'Sustained upload',
    hint: 'Keep uploads under 20 a minute; ask support for a higher limit for bulk imports.',
  },
  'auth-failure': { limit: 30, windowSeconds: 60, window: '1 minute', label: 'Failed authentication' },
};

export interface LimitState {
  category: LimitCategory | 'auth-failure';
  rule: CategoryRule;
  remaining: number;
  resetAt: number;
  retryAfterSeconds: number;
  exceeded: boolean;
}

/** Counter storage behind the rate limits: memory in one process, Redis for several gateways. */
export interface RateLimitStore {
  limiter(category: string, rule: CategoryRule): RateLimiterAbstract;
  /** Where the counters live in a server: resolves when it answers now. */
  ping?(): Promise<void>;
}

/** Limiters are cached per category and rule; a changed limit gets its own counters. */
abstract class CachingStore implements RateLimitStore {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  limiter(category: string, rule: CategoryRule): RateLimiterAbstract {
    const key = `${category}:${rule.limit}:${rule.windowSeconds}`;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = this.create(key, rule);
      this.limiters.set(key, limiter);
    }
    return limiter;
  }

  protected abstract create(keyPrefix: string, rule: CategoryRule): RateLimiterAbstract;
}

/** One process (standalone mode). */
export class MemoryRateLimitStore extends CachingStore {
  protected create(keyPrefix: string, rule: CategoryRule): RateLimiterAbstract {
    return new RateLimiterMemory({ keyPrefix, points: rule.limit, duration: rule.windowSeconds });
  }
}

/** Counters shared by every gateway replica, in Redis under `prefix`. */
export class RedisRateLimitStore extends CachingStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'cs:rl',
  ) {
    super();
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  protected create(keyPrefix: string, rule: CategoryRule): RateLimiterAbstract {
    return new RateLimiterRedis({
      storeClient: this.redis,
      keyPrefix: `${this.prefix}:${keyPrefix}`,
      points: rule.limit,
      duration: rule.windowSeconds,
      rejectIfRedisNotReady: true,
    });
  }
}

function stateOf(category: LimitState['category'], rule: CategoryRule, res: RateLimiterRes, exceeded: boolean): LimitState {
  return {
    category,
    rule,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    exceeded,
  };
}

/**
 * Fixed windows per key and category. A request is counted once it is authenticated; a request
 * refused with 429 is not counted, in any of its categories.
 */
export class RateLimiterService {
  constructor(private readonly store: RateLimitStore) {}

  /** Whether the counters can be reached (Redis); in memory, always. */
  async ping(): Promise<void> {
    await this.store.ping?.();
  }

  async consume(
    subject: string,
    categories: readonly (LimitCategory | 'auth-failure')[],
    overrides: Partial<Record<LimitCategory, number>> = {},
  ): Promise<LimitState[]> {
    const states: LimitState[] = [];
    for (const category of categories) {
      const base = DEFAULT_RULES[category];
      const override = category === 'auth-failure' ? undefined : overrides[category];
      const rule = override ? { ...base, limit: override } : base;
      const limiter = this.store.limiter(category, rule);
      let res: RateLimiterRes;
      let exceeded = false;
      try {
        res = await limiter.consume(subject);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        res = rejection;
        exceeded = true;
      }
      states.push(stateOf(category, rule, res, exceeded));
    }
    if (states.some((s) => s.exceeded)) {
      await Promise.all(states.map((s) => this.store.limiter(s.category, s.rule).reward(subject, 1)));
      for (const s of states) if (!s.exceeded) s.remaining = Math.min(s.rule.limit, s.remaining + 1);
    }
    return states;
  }
}
