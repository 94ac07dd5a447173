import {
  Injectable,
  Logger,
  SetMetadata,
  StreamableFile,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { of, type Observable } from 'rxjs';
import { DomainError, invalid } from '@cs/contracts';
import { IdempotencyKeysRepository, MAX_STORED_ANSWER_BYTES, type IdempotentRequest, type StoredAnswer } from '@cs/records';
import type { AuthedRequest } from '../auth/auth-context';
import { bodySha256 } from '../http/body-parsers';
import { isPublicApiPath } from '../rate-limit/rate-limit';
import { answerOf, fingerprintOf, idempotencyKeyOf, isReplayable, replayedHeaders } from './idempotency-key';

const REFUSED = 'idempotency:refused';

/**
 * A POST whose answer must not be stored, so that refuses an Idempotency-Key (400) rather than
 * ignore it: `why` says so to the client.
 */
export const RefusesIdempotencyKey = (why: string) => SetMetadata(REFUSED, why);

/** Whose keys a request's key is among: its company's, or the admin API's; none elsewhere. */
function scopeOf(req: Request): string | undefined {
  if (isPublicApiPath(req.path)) {
    const auth = (req as AuthedRequest).auth;
    return auth ? `company:${auth.company.id}` : undefined;
  }
  return /^\/admin\//i.test(req.path) ? 'admin' : undefined;
}

/**
 * Idempotency-Key on POSTs (the IETF httpapi draft, as Stripe does it). Runs after
 * RequestShapeInterceptor, which checked the header and read the body (so after the key, the
 * rate limit and the guards): the first request with a key claims it, runs, and its answer is
 * stored as it is sent; a later one with the same key gets that answer again, byte for byte, with
 * `Idempotent-Replayed: true`, and runs nothing. Another request under the key is a 422; the same
 * while the first is in flight, a 409 with Retry-After.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly reflector: Reflector,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = req.method === 'POST' ? idempotencyKeyOf(req.headers) : undefined;
    const scope = key === undefined ? undefined : scopeOf(req);
    if (key === undefined || scope === undefined) return next.handle();
    const refused = this.reflector.get<string | undefined>(REFUSED, context.getHandler());
    if (refused) throw invalid(`the Idempotency-Key header is not taken here: ${refused}`);

    const request: IdempotentRequest = {
      scope,
      key,
      method: req.method,
      path: req.path.slice(0, 300),
      fingerprint: fingerprintOf({
        method: req.method,
        target: req.originalUrl,
        contentType: req.headers['content-type'],
        bodySha256: bodySha256(req),
      }),
    };
    const claim = await this.keys.claim(request);
    if (!claim.claimed) {
      let answer: StoredAnswer;
      try {
        answer = answerOf(claim.record, request);
      } catch (error) {
        // The first request is about done: most are answered within a second.
        if (error instanceof DomainError && error.code === 'idempotency_key_in_use') res.setHeader('Retry-After', '1');
        throw error;
      }
      return of(this.replay(res, answer));
    }
    captureAnswer(res, async (answer) => {
      try {
        if (answer && isReplayable(answer.status)) {
          if (!(await this.keys.complete(scope, key, claim.token, answer)))
            this.logger.warn({ msg: 'an idempotency key was taken over before its answer was stored', scope });
        } else {
          if (answer === null) this.logger.warn({ msg: `an answer over ${MAX_STORED_ANSWER_BYTES} bytes: its key is released`, scope });
          await this.keys.release(scope, key, claim.token);
        }
      } catch (error) {
        // The answer still goes out; the key stays claimed until its lease ends, then a retry runs.
        this.logger.error({ msg: 'the answer of an idempotency key could not be stored', scope, error: String(error) });
      }
    });
    return next.handle();
  }

  /** The stored answer as the route's result: Nest sends a StreamableFile's bytes as they are. */
  private replay(res: Response, answer: StoredAnswer): StreamableFile {
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    res.setHeader('Idempotent-Replayed', 'true');
    return new StreamableFile(answer.body, { length: answer.body.length });
  }
}

/**
 * Hands the answer to `store` as it is sent: its status, the headers that belong to it and the
 * body's bytes, before compression (this wraps `res.end` after the compression middleware did).
 * The real end waits for `store`, so a client that has the answer finds it stored when it retries.
 * `null` when the body grew past what is stored (it is not kept in memory past that either).
 */
function captureAnswer(res: Response, store: (answer: StoredAnswer | null) => Promise<void>): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  const collect = (chunk: unknown, encoding: unknown) => {
    if (tooLarge || (typeof chunk !== 'string' && !(chunk instanceof Uint8Array))) return;
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, Buffer.isEncoding(String(encoding)) ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk);
    size += bytes.length;
    if (size > MAX_STORED_ANSWER_BYTES) {
      tooLarge = true;
      chunks.length = 0;
    } else chunks.push(bytes);
  };
  // Kept unbound on purpose: put back as they were, and called with `res` as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const { write, end } = res;
  res.write = function (this: Response, ...args: unknown[]) {
    collect(args[0], args[1]);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as Response['write'];
  res.end = function (this: Response, ...args: unknown[]) {
    res.write = write;
    res.end = end;
    if (typeof args[0] !== 'function') collect(args[0], args[1]);
    const answer = tooLarge ? null : { status: res.statusCode, headers: replayedHeaders(res.getHeaders()), body: Buffer.concat(chunks) };
    void store(answer).finally(() => (end as (...a: unknown[]) => Response).apply(res, args));
    return res;
  } as Response['end'];
}
