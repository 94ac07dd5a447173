import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Injectable, Logger, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { activeTraceIds, currentLogFields, withLogFields } from '@cs/telemetry';

const logger = new Logger('HTTP');

/** The client's X-Request-Id when it is a sane one, else a new id; set on the request and the answer. */
export function takeRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && /^[\w.-]{8,128}$/.test(given) ? given : randomUUID();
  req.headers['x-request-id'] = id;
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The one log line of a request, once answered. */
export function logRequest(method: string | undefined, path: string, res: ServerResponse, started: bigint, fields: object): void {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  logger.log({ ...fields, msg: 'request', method, path, status: res.statusCode, durationMs: Math.round(ms * 10) / 10 });
}

/** A request id on every request, response and log line, and one structured log line per request. */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    const id = takeRequestId(req, res);
    res.setHeader('Cache-Control', 'no-store');
    const started = process.hrtime.bigint();
    // Every line logged while answering carries the request id (and the company, once known).
    withLogFields({ requestId: id }, () => {
      // 'finish' fires outside the request's context: its line takes the fields (filled in as
      // the request goes) and the span it was answered in from here.
      const fields = currentLogFields();
      const span = activeTraceIds();
      res.on('finish', () => logRequest(req.method, req.path, res, started, { ...fields, ...span }));
      next();
    });
  }
}
