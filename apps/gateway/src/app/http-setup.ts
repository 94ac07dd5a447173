import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { AppConfig } from '@cs/config';
import { DomainError } from '@cs/contracts';
import { PublicApiAuthMiddleware } from './auth/public-api-auth.middleware';
import { consoleConnectSources, serveConsole, type ConsoleFiles } from './console/console-files';
import { compressAnswers } from './http/content-coding';
import { answerError } from './http/error.filter';
import { RequestContextMiddleware } from './http/request-context.middleware';
import { HttpMetrics } from './http/request-metrics';
import { answerRequestsNodeRefuses } from './http/requests-node-refuses';
import { EndedSearchReads } from './searches/ended-search-reads';
import { buildOpenApiDocument } from './openapi/openapi';

/**
 * The gateway's HTTP extras: request metrics, compression, malformed-request answers, the OpenAPI
 * document and Swagger UI, and the search console at /console when its files are given.
 */
export function configureGatewayHttp(app: NestExpressApplication, config: AppConfig, consoleFiles?: ConsoleFiles): void {
  app.use(app.get(HttpMetrics).recordRequests);
  app.use(compressAnswers());
  app.use(refuseAbsoluteTargets);
  // Before routing: Nest's route-bound middleware sits behind a path pattern whose parameter
  // Express decodes first, so a path that does not decode would skip the request id and the
  // authentication (and its RateLimit-*).
  for (const middleware of [app.get(RequestContextMiddleware), app.get(PublicApiAuthMiddleware)]) {
    app.use((req: Request, res: Response, next: NextFunction) => {
      Promise.resolve(middleware.use(req, res, next)).catch((error: unknown) => answerError(error, req, res));
    });
  }
  // After the request id (its answers carry one), before routing; it passes on every path outside /console.
  if (consoleFiles) app.use(serveConsole(consoleFiles, consoleConnectSources(config)));
  const server = app.getHttpServer();
  answerEndedSearchReadsFirst(server, app.get(EndedSearchReads));
  answerMalformedRequests(server);
  answerRequestsNodeRefuses(server);
  // Node answers an `Expect` it does not know with a bare 417; we read such a request as if it
  // had none (RFC 9110 allows either), so it gets the usual answer, headers and error body.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  // `Expect: 100-continue` is not answered by Node before the request is handled: the body
  // readers send 100 once authentication and the request's checks passed (body-parsers.ts).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  SwaggerModule.setup('docs', app, buildOpenApiDocument() as unknown as OpenAPIObject, { jsonDocumentUrl: 'openapi.json' });
}

const logger = new Logger('HTTP');

/**
 * An ended search's status and result pages are answered before Express when their answers are
 * kept (EndedSearchReads); every other request, and any that read declines, goes to Express.
 */
function answerEndedSearchReadsFirst(server: Server, reads: EndedSearchReads): void {
  if (!reads.enabled) return;
  const [framework, ...others] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (!framework || others.length) throw new Error('the HTTP server should have exactly one request listener, Express');
  server.removeListener('request', framework);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    reads
      .answer(req, res)
      .catch((error: unknown) => {
        // Whatever failed before anything was written (the database behind an expired key, say), the framework answers it as it would have.
        logger.warn(`answering a kept read failed (${error instanceof Error ? error.message : String(error)}); the framework answers`);
        return false;
      })
      .then((answered) => answered || framework(req, res))
      .catch((error: unknown) => {
        logger.error(`the framework threw on a request (${error instanceof Error ? error.message : String(error)})`);
        res.destroy();
      });
  });
}

/**
 * Only origin-form targets (`/v1/...`): an absolute URL in the request line (`GET http://x/v1/...`)
 * is what proxies are sent, not servers, and reading paths two ways is how checks get bypassed.
 */
function refuseAbsoluteTargets(req: Request, res: Response, next: NextFunction): void {
  if (req.url.startsWith('/')) {
    next();
    return;
  }
  answerError(new DomainError('invalid_request', 'the request target must be a path (origin-form), not an absolute URL'), req, res);
}

/**
 * Requests Node's HTTP parser refuses (headers over 16 KB, broken framing, too slow) get the
 * contract's JSON error body instead of Node's bare status line.
 */
function answerMalformedRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, code, message] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'request_header_fields_too_large', 'the request headers are larger than 16 KB']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'invalid_request', 'the request did not arrive in time']
          : [400, 'invalid_request', 'the request is not valid HTTP/1.1'];
    const body = JSON.stringify({ error: code, message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
