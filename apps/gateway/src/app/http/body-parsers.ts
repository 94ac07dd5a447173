import { json, raw } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '@cs/contracts';
import { MAX_FILE_BYTES } from '@cs/document-parsing';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/** body-parser's failures as our error codes, so they reach clients in the contract's body. */
function withDomainErrors(parser: Middleware): Middleware {
  return (req, res, next) =>
    parser(req, res, (error?: unknown) => {
      if (!error) return next();
      const { type, limit } = error as { type?: string; limit?: number };
      switch (type) {
        case 'entity.parse.failed':
          return next(new DomainError('invalid_request', 'the request body is not valid JSON'));
        case 'entity.too.large':
          return next(new DomainError('payload_too_large', `the request body is larger than ${limit ?? 'allowed'} bytes`));
        case 'encoding.unsupported':
        case 'charset.unsupported':
          return next(new DomainError('unsupported_media_type', 'unsupported body encoding or charset'));
        case 'request.aborted':
          return next(new DomainError('invalid_request', 'the request body was cut short'));
        default:
          return next(error);
      }
    });
}

/** JSON bodies: small, strict (objects and arrays only). */
export const jsonBody = withDomainErrors(json({ limit: '64kb', strict: true, type: ['application/json', 'application/*+json'] }));

/** File bodies of the direct upload and the presigned PUT: any type, at most 10 MB (+1 to detect "more"). */
export const fileBody = withDomainErrors(raw({ limit: MAX_FILE_BYTES + 1, type: () => true }));

/** JSON endpoints refuse other content types with 415 instead of reading nothing. */
export function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !req.is(['application/json', 'application/*+json'])) {
    next(new DomainError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json'));
    return;
  }
  next();
}
