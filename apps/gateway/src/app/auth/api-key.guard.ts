import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { DomainError } from '@cs/contracts';
import { CompaniesRepository, type LimitCategory } from '@cs/records';
import { RATE_LIMIT_CATEGORIES, applyLimitStates } from '../rate-limit/rate-limit';
import { RateLimiterService } from '@cs/rate-limits';
import type { AuthedRequest } from './auth-context';

/**
 * `X-API-Key` on every /v1/public route, then the route's rate limits (counted once
 * authenticated, before validation and before the body is read). Failed keys are rate limited
 * per client address.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly companies: CompaniesRepository,
    private readonly limiter: RateLimiterService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.headers['x-api-key'];
    const auth = typeof key === 'string' && key.length > 0 && key.length <= 200 ? await this.companies.authenticate(key) : null;
    if (!auth) {
      // Only failures count, per client address, and only failures are refused: a valid key
      // behind the same NAT or proxy as a misconfigured client is never locked out.
      const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
      applyLimitStates(res, await this.limiter.consume(address, ['auth-failure']));
      if (typeof key !== 'string' || key.length === 0) {
        const hint = req.headers.authorization ? 'this API authenticates with the X-API-Key header, not Authorization' : 'send your API key in the X-API-Key header';
        throw new DomainError('unauthorized', `missing API key: ${hint}`);
      }
      throw new DomainError('unauthorized', 'invalid or revoked API key');
    }
    req.auth = auth;
    const categories = this.reflector.getAllAndOverride<LimitCategory[] | undefined>(RATE_LIMIT_CATEGORIES, [context.getHandler(), context.getClass()]) ?? [];
    applyLimitStates(res, await this.limiter.consume(auth.keyId, categories, auth.company.limits));
    return true;
  }
}
