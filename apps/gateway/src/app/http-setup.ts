import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { buildOpenApiDocument } from './openapi/openapi';

/** The gateway's HTTP extras: the OpenAPI document and Swagger UI. */
export function configureGatewayHttp(app: NestExpressApplication): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument() as unknown as OpenAPIObject, { jsonDocumentUrl: 'openapi.json' });
}
