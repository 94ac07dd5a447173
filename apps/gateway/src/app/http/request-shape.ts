import { Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { DomainError, invalid } from '@cs/contracts';
import type { AuthedRequest } from '../auth/auth-context';
import { idempotencyKeyOf } from '../idempotency/idempotency-key';
import { isPublicApiPath } from '../rate-limit/rate-limit';
import { readFileBody, readJsonBody } from './body-parsers';

const FILE_BODY = 'requestShape:fileBody';
const QUERY_PARAMS = 'requestShape:queryParams';

/** The route's body is a raw file (direct upload, presigned PUT), not JSON. */
export const FileBody = () => SetMetadata(FILE_BODY, true);

/** The query parameters a route takes; any other is a 400, so a typo never passes silently. */
export const QueryParams = (...names: string[]) => SetMetadata(QUERY_PARAMS, names);

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** Unknown and repeated query parameters, as one rule for every route. */
export function checkQueryParams(query: Record<string, unknown>, allowed: readonly string[]): void {
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name)) {
      const takes = allowed.length ? `it takes ${allowed.join(', ')}` : 'it takes none';
      throw invalid(`unknown query parameter "${name.slice(0, 64)}": ${takes}`);
    }
    if (typeof value !== 'string') throw invalid(`query parameter ${name} must be given once`);
  }
}

/**
 * Runs after authentication and the rate limit (PublicApiAuthMiddleware, before routing) and the
 * guards (the admin token, the presigned PUT's signature), and before the handler reads its
 * parameters: checks the query string and the Idempotency-Key header, then reads the body. So an
 * unauthenticated or rate-limited request is answered without a byte of its body read; and a
 * /v1/public request that somehow reached a route unauthenticated is refused here, before its body.
 */
@Injectable()
export class RequestShapeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const handler = context.getHandler();
    if (isPublicApiPath(req.path) && !(req as AuthedRequest).auth)
      throw new DomainError('unauthorized', 'send your API key in the X-API-Key header');
    checkQueryParams(req.query, this.reflector.get<string[] | undefined>(QUERY_PARAMS, handler) ?? []);
    // Checked here, before the body is read; IdempotencyInterceptor uses it once the body is.
    if (req.method === 'POST') idempotencyKeyOf(req.headers);
    if (WITH_BODY.has(req.method)) {
      if (this.reflector.get<boolean | undefined>(FILE_BODY, handler)) await readFileBody(req, res);
      else await readJsonBody(req, res);
    }
    return next.handle();
  }
}
