import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable } from '@nestjs/common';
import { DomainError } from '@cs/contracts';
import { RateLimiterService, type LimitState } from '@cs/rate-limits';
import { CompaniesRepository } from '@cs/records';
import { addLogFields } from '@cs/telemetry';
import type { AuthContext } from '../auth/auth-context';
import { RateLimitMetrics, applyLimitStates, limitCategoriesOf } from '../rate-limit/rate-limit';

/** What a /v1/public request was let in with: its company and key, and its limits as counted. */
export interface Admission {
  auth: AuthContext;
  states: LimitState[];
}

/** The X-API-Key a request sends, when it is one worth looking up. */
export function apiKeyOf(req: IncomingMessage): string | null {
  const key = req.headers['x-api-key'];
  return typeof key === 'string' && key.length > 0 && key.length <= 200 ? key : null;
}

/** The fields every log line of an authenticated request carries: never the key, only its prefix. */
export function logFieldsOf(req: IncomingMessage, auth: AuthContext): { companyId: string; keyPrefix: string | undefined } {
  const key = req.headers['x-api-key'];
  return { companyId: auth.company.id, keyPrefix: typeof key === 'string' ? key.slice(0, 8) : undefined };
}

/**
 * Authentication and rate limits of the public API, the one set of rules for both ways a
 * request is answered: the framework's (PublicApiAuthMiddleware, before routing) and the kept
 * answers' ahead of it (EndedSearchReads). A request the fast path authenticated and counted,
 * then handed on, is neither authenticated nor counted again.
 */
@Injectable()
export class PublicRequestPipeline {
  private readonly handedOn = new WeakMap<IncomingMessage, Admission>();

  constructor(
    private readonly companies: CompaniesRepository,
    private readonly limiter: RateLimiterService,
    private readonly metrics: RateLimitMetrics,
  ) {}

  /** The company and key the request's X-API-Key names; null when it names none. */
  async authenticate(req: IncomingMessage): Promise<AuthContext | null> {
    const key = apiKeyOf(req);
    return key ? this.companies.authenticate(key) : null;
  }

  /** Counts an authenticated request against the limits of its category (limitCategoriesOf). */
  count(req: IncomingMessage, path: string, auth: AuthContext): Promise<LimitState[]> {
    return this.limiter.consume(auth.keyId, limitCategoriesOf(req.method ?? 'GET', path), auth.company.limits);
  }

  /** Sets `RateLimit-*` from the request's counted limits; a spent one throws the contract's 429 (counted in the metrics). */
  applyLimits(res: Pick<ServerResponse, 'setHeader'>, states: LimitState[]): void {
    applyLimitStates(res, states, this.metrics);
  }

  /** Hands a request authenticated and counted on to the framework, which then neither authenticates nor counts it again. */
  handOn(req: IncomingMessage, admission: Admission): void {
    this.handedOn.set(req, admission);
  }

  /**
   * Lets a request in, or throws the contract's 401 or 429; `RateLimit-*` are set either way.
   * `address`: the client's, against which failed authentications count.
   */
  async admit(req: IncomingMessage, res: ServerResponse, path: string, address: string): Promise<AuthContext> {
    const handed = this.handedOn.get(req);
    const auth = handed?.auth ?? (await this.authenticate(req)) ?? (await this.refuse(req, res, address));
    addLogFields(logFieldsOf(req, auth));
    this.applyLimits(res, handed?.states ?? (await this.count(req, path, auth)));
    return auth;
  }

  /**
   * Only failures count, per client address, and only failures are refused: a valid key behind
   * the same NAT or proxy as a misconfigured client is never locked out.
   */
  private async refuse(req: IncomingMessage, res: ServerResponse, address: string): Promise<never> {
    this.applyLimits(res, await this.limiter.consume(address, ['auth-failure']));
    const key = req.headers['x-api-key'];
    if (typeof key !== 'string' || key.length === 0) {
      const hint = req.headers.authorization
        ? 'this API authenticates with the X-API-Key header, not Authorization'
        : 'send your API key in the X-API-Key header';
      throw new DomainError('unauthorized', `missing API key: ${hint}`);
    }
    throw new DomainError('unauthorized', 'invalid or revoked API key');
  }
}
