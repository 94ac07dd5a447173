import { All, Controller, Injectable, Module, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError } from '@cs/contracts';
import { SEARCH_TYPES } from '@cs/search-domain';
import { allowedMethods } from './allowed-methods';

/** A search's creation path, routed as Express does (any case, an optional trailing slash). */
const SEARCH_CREATION = /^\/v1\/public\/searches\/([^/]+)\/?$/i;
/** The one path beside the search types that is a resource of its own (the groups' list): a wrong method on it stays a 405. */
const NOT_A_SEARCH_TYPE = 'groups';

/**
 * 405 with `Allow` when another method serves the path, else 404. A POST to
 * `/v1/public/searches/<x>` that no route took is a mistyped search type, not a wrong method on
 * a search id: a 404 naming the types helps more than "it takes GET, HEAD".
 */
export function unmatchedRoute(req: Request, res: Response): DomainError {
  const searchType = req.method === 'POST' ? SEARCH_CREATION.exec(req.path)?.[1] : undefined;
  if (searchType !== undefined && searchType.toLowerCase() !== NOT_A_SEARCH_TYPE)
    return new DomainError('not_found', `no search type "${searchType.slice(0, 100)}"; the search types are ${SEARCH_TYPES.join(', ')}`);
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
 * Registered after every other controller: a /v1/public request no route serves (already
 * authenticated and counted by the middleware) gets 404 or 405 before its query or body is read.
 */
@Controller('v1/public')
@UseGuards(UnmatchedRouteGuard)
export class UnmatchedPublicRouteController {
  @All('*path')
  unmatched(): never {
    throw new Error('UnmatchedRouteGuard lets nothing through');
  }
}

/** The 404 and 405 of /v1/public: imported after every feature module, so that its routes are the last tried. */
@Module({ controllers: [UnmatchedPublicRouteController] })
export class UnmatchedRoutesModule {}
