import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { CompanyRecord } from '@cs/records';

export interface AuthContext {
  keyId: string;
  company: CompanyRecord;
}

export type AuthedRequest = Request & { auth?: AuthContext };

/** The company and key PublicApiAuthMiddleware authenticated. */
export const Auth = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthContext => {
  const auth = ctx.switchToHttp().getRequest<AuthedRequest>().auth;
  if (!auth) throw new Error('Auth used on a route outside /v1/public, which PublicApiAuthMiddleware does not authenticate');
  return auth;
});
