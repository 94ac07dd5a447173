import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsRegistry } from '@cs/service-kit';

/** The gateway's HTTP families: requests by route template, and the reads answered from kept answers. */
@Injectable()
export class HttpMetrics {
  private readonly requests;
  private readonly keptAnswers;

  constructor(registry: MetricsRegistry) {
    this.requests = registry.histogram(
      'cs_http_request_duration_seconds',
      'HTTP requests answered by the gateway, by route template and status code',
      ['method', 'route', 'status'],
    );
    this.keptAnswers = registry.counter(
      'cs_http_kept_answers_total',
      "Reads of an ended search's status or result page answered from its kept serialised answer (READ_CACHE_MB), before the framework, by route",
      ['route'],
    );
  }

  /**
   * Express middleware timing each request by its route template (`/v1/public/searches/:searchId`),
   * never its raw path, so ids do not multiply the series; requests that matched no route count as `unmatched`.
   */
  readonly recordRequests = (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const matched = req.route as { path: unknown } | undefined;
      // Middleware that answers outside Nest's routes (the console) names its route in res.locals.
      const own = res.locals.route as string | undefined;
      this.observeRequest(req.method, matched ? `${req.baseUrl}${String(matched.path)}` : (own ?? 'unmatched'), res.statusCode, started);
    });
    next();
  };

  observeRequest(method: string, route: string, status: number, started: bigint): void {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    this.requests.observe({ method, route, status: String(status) }, seconds);
  }

  keptAnswer(route: string): void {
    this.keptAnswers.inc({ route });
  }
}
