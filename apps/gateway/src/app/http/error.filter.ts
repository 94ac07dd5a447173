import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, type ErrorCode } from '@cs/contracts';
import { MAX_FILE_BYTES } from '@cs/document-parsing';
import { unmatchedRoute } from './unmatched-route';

/** The one place error codes become HTTP statuses; a new code without a case fails to compile. */
export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'invalid_request':
      return 400;
    case 'unauthorized':
      return 401;
    case 'not_found':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'not_acceptable':
      return 406;
    case 'conflict':
    case 'idempotency_key_in_use':
      return 409;
    case 'gone':
      return 410;
    case 'payload_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'unprocessable':
    case 'idempotency_key_reused':
      return 422;
    case 'rate_limit_exceeded':
      return 429;
    case 'request_header_fields_too_large':
      return 431;
    case 'internal_error':
      return 500;
    case 'service_unavailable':
      return 503;
  }
}

function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'invalid_request';
    case 401:
    case 403:
      return 'unauthorized';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 406:
      return 'not_acceptable';
    case 409:
      return 'conflict';
    case 410:
      return 'gone';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'unprocessable';
    case 429:
      return 'rate_limit_exceeded';
    case 431:
      return 'request_header_fields_too_large';
    case 503:
      return 'service_unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'invalid_request';
  }
}

/**
 * A body refused before it was read (a bad key, a spent limit, a bad signature) is received and
 * discarded before the answer, holding nothing: Node closes a connection whose request body is
 * unread, and a client still sending would see a broken pipe instead of the answer. A body larger
 * than any we take, or of unknown length, is not worth receiving: the answer goes at once and the
 * connection closes. Draining has a deadline, past which the answer goes and the connection closes.
 */
const DRAIN_LIMIT_BYTES = MAX_FILE_BYTES + 1024 * 1024;
const DRAIN_DEADLINE_MS = 30_000;
const DRAIN_IDLE_MS = 2_000;

function worthDraining(req: Request): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared <= DRAIN_LIMIT_BYTES;
}

function afterDraining(req: Request, res: Response, answer: () => void): void {
  let answered = false;
  const once = () => {
    if (answered) return;
    answered = true;
    clearTimeout(deadline);
    clearTimeout(idle);
    if (!req.complete) res.setHeader('Connection', 'close');
    answer();
  };
  const deadline = setTimeout(once, DRAIN_DEADLINE_MS);
  // A sender that stops sending is answered after a short silence, not at the deadline. Silence
  // is judged by bytes received, after the I/O already waiting is read (setImmediate runs after
  // the poll phase): a busy event loop delays the timer and the data alike, and must not make a
  // sender that kept sending look silent.
  let received = 0;
  let seen = 0;
  let idle: NodeJS.Timeout;
  const checkIdle = () =>
    setImmediate(() => {
      if (received === seen) once();
      else {
        seen = received;
        idle = setTimeout(checkIdle, DRAIN_IDLE_MS);
      }
    });
  idle = setTimeout(checkIdle, DRAIN_IDLE_MS);
  req.on('data', (chunk: Buffer) => (received += chunk.length));
  req.once('end', once);
  req.once('close', once);
  req.once('error', once);
  req.resume();
}

/** Small error bodies (`error`, `message`), a generic 500, and the request id on every answer. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    answerError(exception, host.switchToHttp().getRequest<Request>(), host.switchToHttp().getResponse<Response>());
  }
}

const logger = new Logger('HTTP');

/** The one way an error becomes an answer, for the filter and for the middleware that run before routing. */
export function answerError(exception: unknown, req: Request, res: Response): void {
  const { status, body } = toResponse(exception, req, res);
  if (status >= 500) {
    logger.error({
      msg: 'request failed',
      requestId: req.headers['x-request-id'],
      path: req.path,
      error: exception instanceof Error ? exception.stack : String(exception),
    });
  }
  if (res.headersSent) return;
  const answer = () => void res.status(status).json(body);
  if (req.complete) answer();
  else if (worthDraining(req)) afterDraining(req, res, answer);
  else {
    res.setHeader('Connection', 'close');
    answer();
  }
}

function toResponse(exception: unknown, req: Request, res: Response): { status: number; body: Record<string, unknown> } {
  if (exception instanceof DomainError) {
    return { status: statusOf(exception.code), body: { error: exception.code, message: exception.message, ...exception.details } };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return toResponse(unmatchedRoute(req, res), req, res);
    return { status, body: { error: codeOfStatus(status), message: exception.message } };
  }
  return {
    status: 500,
    body: {
      error: 'internal_error',
      message: `something went wrong on our side; quote request id ${String(req.headers['x-request-id'])} to support`,
    },
  };
}
