import type { NextFunction, Request, Response } from 'express';
import { processMetrics } from '@cs/service-kit';

/**
 * Times each request by its route template (`/v1/public/searches/:searchId`), never its raw path,
 * so ids do not multiply the series; requests that matched no route count as `unmatched`.
 */
export function recordRequestMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const matched = req.route as { path: unknown } | undefined;
    // Middleware that answers outside Nest's routes (the console) names its route in res.locals.
    const own = res.locals.route as string | undefined;
    observeRequest(req.method, matched ? `${req.baseUrl}${String(matched.path)}` : (own ?? 'unmatched'), res.statusCode, started);
  });
  next();
}

export function observeRequest(method: string, route: string, status: number, started: bigint): void {
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  processMetrics().httpRequests.observe({ method, route, status: String(status) }, seconds);
}
