import { createHash } from 'node:crypto';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';

/** A weak validator of a JSON body (weak: gzip changes the bytes, not the representation). */
export function weakEtag(json: string): string {
  return `W/"${createHash('sha1').update(json).digest('base64url')}"`;
}

/**
 * Validators for a GET whose answer changes with the state it shows (a search's status, its
 * results): `ETag` on the serialized body, and `Cache-Control: private, no-cache` instead of
 * no-store, so a client may keep the body and revalidate it. The 304 itself is Express's: its
 * `res.send` answers 304 without a body when `If-None-Match` matches (`req.fresh`), keeping the
 * headers set before (X-Request-Id, RateLimit-*, ETag). Express's own ETags stay off elsewhere.
 */
@Injectable()
export class ConditionalGetInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((body: unknown) => {
        const json = JSON.stringify(body);
        res.setHeader('Cache-Control', 'private, no-cache');
        res.setHeader('ETag', weakEtag(json));
        res.type('json');
        return json;
      }),
    );
  }
}
