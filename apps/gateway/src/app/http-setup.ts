import type { NextFunction, Request, Response } from 'express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { processMetrics } from '@cs/service-kit';
import { buildOpenApiDocument } from './openapi/openapi';

/** The gateway's HTTP extras: request metrics, the OpenAPI document and Swagger UI. */
export function configureGatewayHttp(app: NestExpressApplication): void {
  app.use(recordRequestMetrics);
  SwaggerModule.setup('docs', app, buildOpenApiDocument() as unknown as OpenAPIObject, { jsonDocumentUrl: 'openapi.json' });
}

/**
 * Times each request by its route template (`/v1/public/searches/:searchId`), never its raw path,
 * so ids do not multiply the series; requests that matched no route count as `unmatched`.
 */
function recordRequestMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    processMetrics().httpRequests.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
  });
  next();
}
