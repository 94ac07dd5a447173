import { All, Controller, Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from '@cs/contracts';
import { ApiKeyGuard } from '../auth/api-key.guard';
import { RateLimited } from '../rate-limit/rate-limit';
import { allowedMethods } from './allowed-methods';

/** 405 with `Allow` when another method serves the path, else 404. */
export function unmatchedRoute(req: Request, res: Response): DomainError {
  const allowed = allowedMethods(req);
  if (allowed.length === 0) return new DomainError('not_found', `no route ${req.method} ${req.path.slice(0, 200)}`);
  res.setHeader('Allow', allowed.join(', '));
  return new DomainError('method_not_allowed', `${req.method} is not allowed on ${req.path.slice(0, 200)}; it takes ${allowed.join(', ')}`);
}

@Injectable()
class UnmatchedRouteGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    throw unmatchedRoute(context.switchToHttp().getRequest<Request>(), context.switchToHttp().getResponse<Response>());
  }
}

/**
 * Registered after every other controller: a /v1/public request no route serves is still
 * authenticated and counted (read), so it carries `RateLimit-*` like every public answer.
 */
@Controller('v1/public')
@UseGuards(ApiKeyGuard, UnmatchedRouteGuard)
export class UnmatchedPublicRouteController {
  @All('*path')
  @RateLimited('read')
  unmatched(): never {
    throw new Error('UnmatchedRouteGuard lets nothing through');
  }
}
