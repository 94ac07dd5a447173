import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { activeTraceIds, currentLogFields, withLogFields } from '@cs/telemetry';

/** A request id on every request, response and log line, and one structured log line per request. */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  private readonly logger = new Logger('HTTP');

  use(req: Request, res: Response, next: NextFunction): void {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && /^[\w.-]{8,128}$/.test(given) ? given : randomUUID();
    req.headers['x-request-id'] = id;
    res.setHeader('X-Request-Id', id);
    res.setHeader('Cache-Control', 'no-store');
    const started = process.hrtime.bigint();
    // Every line logged while answering carries the request id (and the company, once known).
    withLogFields({ requestId: id }, () => {
      // 'finish' fires outside the request's context: its line takes the fields (filled in as
      // the request goes) and the span it was answered in from here.
      const fields = currentLogFields();
      const span = activeTraceIds();
      res.on('finish', () => this.logRequest(req, res, started, { ...fields, ...span }));
      next();
    });
  }

  private logRequest(req: Request, res: Response, started: bigint, fields: object): void {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    this.logger.log({
      ...fields,
      msg: 'request',
      method: req.method,
      path: req.path,
      status: res.statusCode,
      durationMs: Math.round(ms * 10) / 10,
    });
  }
}
