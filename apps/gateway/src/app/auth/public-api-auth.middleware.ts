import type { IncomingMessage } from 'node:http';
import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { DomainError } from '@cs/contracts';
import { CompaniesRepository } from '@cs/records';
import { RateLimiterService, type LimitState } from '@cs/rate-limits';
import { addLogFields } from '@cs/telemetry';
import { applyLimitStates, isPublicApiPath, limitCategoriesOf } from '../rate-limit/rate-limit';
import type { AuthContext, AuthedRequest } from './auth-context';

/** Requests authenticated and counted before the framework saw them (EndedSearchReads). */
const handedOn = new WeakMap<IncomingMessage, { auth: AuthContext; states: LimitState[] }>();

/** Hands a request on to the framework with its authentication and limit states, so neither is done twice. */
export function handOn(req: IncomingMessage, auth: AuthContext, states: LimitState[]): void {
  handedOn.set(req, { auth, states });
}

/**
 * `X-API-Key` on every /v1/public request, then the limits of its category (counted once
 * authenticated, before routing, validation and the body). A middleware rather than a guard, so
 * that requests no route takes (unknown paths, wrong methods, ids that do not decode) are
 * authenticated and carry `RateLimit-*` like every other public answer.
 */
@Injectable()
export class PublicApiAuthMiddleware implements NestMiddleware {
  constructor(
    private readonly companies: CompaniesRepository,
    private readonly limiter: RateLimiterService,
  ) {}

  async use(req: AuthedRequest, res: Response, next: NextFunction): Promise<void> {
    // Mounted at the root (http-setup), so `req.path` is the pathname Express routes on.
    const path = req.path;
    if (!isPublicApiPath(path)) {
      next();
      return;
    }
    // A read the ended-search answers took up and handed on (a spent limit) was authenticated and counted there.
    const handed = handedOn.get(req);
    const auth = handed?.auth ?? (await this.authenticate(req, res));
    const key = req.headers['x-api-key'];
    addLogFields({ companyId: auth.company.id, keyPrefix: typeof key === 'string' ? key.slice(0, 8) : undefined });
    applyLimitStates(
      res,
      handed?.states ?? (await this.limiter.consume(auth.keyId, limitCategoriesOf(req.method, path), auth.company.limits)),
    );
    req.auth = auth;
    next();
  }

  private async authenticate(req: AuthedRequest, res: Response): Promise<AuthContext> {
    const key = req.headers['x-api-key'];
    const auth = typeof key === 'string' && key.length > 0 && key.length <= 200 ? await this.companies.authenticate(key) : null;
    if (auth) return auth;
    // Only failures count, per client address, and only failures are refused: a valid key
    // behind the same NAT or proxy as a misconfigured client is never locked out.
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    applyLimitStates(res, await this.limiter.consume(address, ['auth-failure']));
    if (typeof key !== 'string' || key.length === 0) {
      const hint = req.headers.authorization
        ? 'this API authenticates with the X-API-Key header, not Authorization'
        : 'send your API key in the X-API-Key header';
      throw new DomainError('unauthorized', `missing API key: ${hint}`);
    }
    throw new DomainError('unauthorized', 'invalid or revoked API key');
  }
}
