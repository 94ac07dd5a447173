import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { map, type Observable } from 'rxjs';

/** A weak validator of a JSON body (weak: gzip changes the bytes, not the representation). */
export function weakEtag(json: string): string {
  return `W/"${createHash('sha1').update(json).digest('base64url')}"`;
}

/**
 * A body serialised once, with its ETag: what is kept of an answer that never changes (an ended
 * search's status and result pages), so that no read builds or hashes its JSON again.
 */
export class SerializedBody {
  readonly bytes: Buffer;
  readonly etag: string;

  constructor(json: string) {
    // Its own memory, not a slice of Node's shared 8 KB pool, which a kept small body would hold whole.
    this.bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
    this.bytes.write(json);
    this.etag = weakEtag(json);
  }
}

/** Whether If-None-Match names this ETag, by weak comparison (RFC 9110 13.1.2): `*`, or one of its list. */
export function noneMatchHits(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** The validators of an answer a client may keep and revalidate (ConditionalGetInterceptor says why). */
export function setValidators(res: Pick<ServerResponse, 'setHeader'>, etag: string): void {
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('ETag', etag);
}

/**
 * Validators for a GET whose answer changes with the state it shows (a search's status, its
 * results): `ETag` on the serialized body, and `Cache-Control: private, no-cache` instead of
 * no-store, so a client may keep the body and revalidate it; a 2xx whose If-None-Match names
 * the ETag becomes a 304 without a body, keeping the headers set before (X-Request-Id,
 * RateLimit-*, Vary, Preference-Applied). Express's own check (`req.fresh`) is not used: it never
 * answers 304 to a request that says `Cache-Control: no-cache`, which fetch() adds to every
 * request with If-None-Match, though that directive is for caches, not for the origin server.
 */
@Injectable()
export class ConditionalGetInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) => {
        const json = body instanceof SerializedBody ? body.bytes.toString() : JSON.stringify(body);
        const etag = body instanceof SerializedBody ? body.etag : weakEtag(json);
        setValidators(res, etag);
        if (res.statusCode >= 200 && res.statusCode < 300 && noneMatchHits(req.headers['if-none-match'], etag)) {
          res.status(304);
          return undefined;
        }
        res.type('json');
        return json;
      }),
    );
  }
}
