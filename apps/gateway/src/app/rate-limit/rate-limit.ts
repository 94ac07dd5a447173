import type { ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@cs/contracts';
import { MetricsRegistry } from '@cs/service-kit';
import type { LimitCategory } from '@cs/records';
import type { LimitState } from '@cs/rate-limits';

/** `/v1/public` and below, spelt as Express routes it (case-insensitive). */
export const isPublicApiPath = (path: string): boolean => /^\/v1\/public(\/|$)/i.test(path);

const SEARCH_CREATION = /^\/v1\/public\/searches\/(dense|sparse|hybrid|builtin-rerank|similar|match)\/?$/i;
const UPLOADS = /^\/v1\/public\/documents\/(upload-direct|upload-presigned|upload-presigned-finalize|upload-from-url)\/?$/i;

/**
 * The contract's rate-limit table: the four search POSTs count against `search`, the four upload
 * POSTs against both upload limits, every other /v1/public request (reads, deletes, and requests
 * no route takes) against `read`.
 */
export function limitCategoriesOf(method: string, path: string): LimitCategory[] {
  if (method === 'POST' && SEARCH_CREATION.test(path)) return ['search'];
  if (method === 'POST' && UPLOADS.test(path)) return ['upload-burst', 'upload-sustained'];
  return ['read'];
}

/** Requests refused with 429, by the limit that refused them. */
@Injectable()
export class RateLimitMetrics {
  private readonly rejections;

  constructor(registry: MetricsRegistry) {
    this.rejections = registry.counter(
      'cs_rate_limit_rejections_total',
      'Requests refused with 429, by limit category (search, read, upload-burst, upload-sustained, auth-failure)',
      ['category'],
    );
  }

  rejected(category: LimitState['category']): void {
    this.rejections.inc({ category });
  }
}

/** Sets RateLimit-* from the limit closest to exhaustion; on 429 counts the refusal and throws the contract's body. */
export function applyLimitStates(res: Pick<ServerResponse, 'setHeader'>, states: LimitState[], metrics: RateLimitMetrics): void {
  if (states.length === 0) return;
  // When several limits are spent, the one that frees last says when a retry can succeed.
  const exceeded = states.filter((s) => s.exceeded).sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
  const shown = exceeded ?? [...states].sort((a, b) => a.remaining / a.rule.limit - b.remaining / b.rule.limit)[0];
  res.setHeader('RateLimit-Limit', String(shown.rule.limit));
  res.setHeader('RateLimit-Remaining', String(exceeded ? 0 : shown.remaining));
  res.setHeader('RateLimit-Reset', String(shown.resetAt));
  if (!exceeded) return;
  metrics.rejected(exceeded.category);
  res.setHeader('Retry-After', String(exceeded.retryAfterSeconds));
  throw new DomainError(
    'rate_limit_exceeded',
    `${exceeded.rule.label} rate limit exceeded: ${exceeded.rule.limit} requests per ${exceeded.rule.window}.`,
    {
      limit: exceeded.rule.limit,
      window: exceeded.rule.window,
      retryAfter: String(exceeded.retryAfterSeconds),
      ...(exceeded.rule.hint ? { hint: exceeded.rule.hint } : {}),
    },
  );
}
