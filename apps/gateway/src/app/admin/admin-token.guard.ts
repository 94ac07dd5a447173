import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError } from '@cs/contracts';
import { GATEWAY_SECRETS, type GatewaySecrets } from '../gateway-secrets';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <admin token>` on every /admin route. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(@Inject(GATEWAY_SECRETS) private readonly secrets: GatewaySecrets) {}

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token || !timingSafeEqual(digest(token), digest(this.secrets.adminToken))) {
      throw new DomainError('unauthorized', 'admin routes need Authorization: Bearer <admin token>');
    }
    return true;
  }
}
