import { SetMetadata } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError } from '@cs/contracts';
import type { LimitCategory } from '@cs/records';
import type { LimitState } from '@cs/rate-limits';

export const RATE_LIMIT_CATEGORIES = 'rateLimitCategories';

/** Which limits a route counts against (upload routes: burst and sustained). */
export const RateLimited = (...categories: LimitCategory[]) => SetMetadata(RATE_LIMIT_CATEGORIES, categories);

/** Sets RateLimit-* from the limit closest to exhaustion; on 429 throws the contract's body. */
export function applyLimitStates(res: Response, states: LimitState[]): void {
  if (states.length === 0) return;
  // When several limits are spent, the one that frees last says when a retry can succeed.
  const exceeded = states.filter((s) => s.exceeded).sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
  const shown = exceeded ?? [...states].sort((a, b) => a.remaining / a.rule.limit - b.remaining / b.rule.limit)[0];
  res.setHeader('RateLimit-Limit', String(shown.rule.limit));
  res.setHeader('RateLimit-Remaining', String(exceeded ? 0 : shown.remaining));
  res.setHeader('RateLimit-Reset', String(shown.resetAt));
  if (!exceeded) return;
  res.setHeader('Retry-After', String(exceeded.retryAfterSeconds));
  throw new DomainError('rate_limit_exceeded', `${exceeded.rule.label} rate limit exceeded: ${exceeded.rule.limit} requests per ${exceeded.rule.window}.`, {
    limit: exceeded.rule.limit,
    window: exceeded.rule.window,
    retryAfter: String(exceeded.retryAfterSeconds),
    ...(exceeded.rule.hint ? { hint: exceeded.rule.hint } : {}),
  });
}
