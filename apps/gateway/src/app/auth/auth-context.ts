import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '@cs/contracts';
import type { CompanyRecord } from '@cs/records';

export interface AuthContext {
  keyId: string;
  company: CompanyRecord;
}

export type AuthedRequest = Request & { auth?: AuthContext };

/** The company and key PublicApiAuthMiddleware authenticated (RequestShapeInterceptor refuses a request without them). */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<AuthedRequest>().auth;
  if (!auth) throw new DomainError('unauthorized', 'send your API key in the X-API-Key header');
  return auth;
});
