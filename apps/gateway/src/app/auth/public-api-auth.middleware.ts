import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { PublicRequestPipeline } from '../http/public-pipeline';
import { isPublicApiPath } from '../rate-limit/rate-limit';
import type { AuthedRequest } from './auth-context';

/**
 * `X-API-Key` on every /v1/public request, then the limits of its category (counted once
 * authenticated, before routing, validation and the body), by PublicRequestPipeline's rules. A
 * middleware rather than a guard, so that requests no route takes (unknown paths, wrong methods,
 * ids that do not decode) are authenticated and carry `RateLimit-*` like every other public answer.
 */
@Injectable()
export class PublicApiAuthMiddleware implements NestMiddleware {
  constructor(private readonly pipeline: PublicRequestPipeline) {}

  async use(req: AuthedRequest, res: Response, next: NextFunction): Promise<void> {
    // Mounted at the root (http-setup), so `req.path` is the pathname Express routes on.
    const path = req.path;
    if (!isPublicApiPath(path)) {
      next();
      return;
    }
    req.auth = await this.pipeline.admit(req, res, path, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    next();
  }
}
