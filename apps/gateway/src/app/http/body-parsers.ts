import { createHash } from 'node:crypto';
import { json, raw } from 'express';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '@cs/contracts';
import { MAX_FILE_BYTES } from '@cs/document-parsing';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

const JSON_LIMIT_BYTES = 64 * 1024;
const JSON_TYPES = ['application/json', 'application/*+json'];

/** body-parser's failures as our error codes, so they reach clients in the contract's body. */
function toDomainError(error: unknown): unknown {
  const { type, status, limit } = error as { type?: string; status?: number; limit?: number };
  switch (type) {
    case 'entity.parse.failed':
      return new DomainError('invalid_request', 'the request body is not valid JSON');
    case 'entity.too.large':
      return new DomainError('payload_too_large', `the request body is larger than ${limit ?? 'allowed'} bytes`);
    case 'encoding.unsupported':
      return new DomainError('unsupported_media_type', 'unsupported Content-Encoding: send the body as is, or gzip, deflate or br');
    case 'charset.unsupported':
      return new DomainError('unsupported_media_type', 'unsupported charset: send the body as UTF-8');
    case 'request.aborted':
    case 'request.size.invalid':
      return new DomainError('invalid_request', 'the request body was cut short or is longer than its Content-Length');
    default:
      break;
  }
  // zlib and brotli failures of a body that claims an encoding it does not have.
  if (status === 400) return new DomainError('invalid_request', 'the request body could not be decoded with its Content-Encoding');
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new DomainError('invalid_request', 'the request body could not be read');
  return error;
}

function run(parser: Middleware, req: Request, res: Response): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- body-parser's errors pass through unchanged or as DomainErrors
  return new Promise((resolve, reject) => parser(req, res, (error?: unknown) => (error ? reject(toDomainError(error)) : resolve())));
}

/** SHA-256 of the body read, for the Idempotency-Key fingerprint; set by the parsers below. */
const BODY_SHA256 = Symbol('bodySha256');
type HashedRequest = Request & { [BODY_SHA256]?: string };
const EMPTY_SHA256 = createHash('sha256').digest('hex');

/**
 * body-parser hands `verify` the whole body it read (decoded from its Content-Encoding), before
 * parsing it: hashed there, it costs no copy and no buffering beyond the parser's own. Only
 * requests with an Idempotency-Key need it (10 MB take about 20 ms to hash).
 */
function recordBodyHash(req: Request, _res: unknown, bytes: Buffer): void {
  if (req.headers['idempotency-key'] === undefined) return;
  (req as HashedRequest)[BODY_SHA256] = createHash('sha256').update(bytes).digest('hex');
}

/** The SHA-256 (hex) of the body readJsonBody or readFileBody read; of no bytes when the request had none. */
export const bodySha256 = (req: Request): string => (req as HashedRequest)[BODY_SHA256] ?? EMPTY_SHA256;

const jsonParser = json({ limit: JSON_LIMIT_BYTES, strict: true, type: JSON_TYPES, verify: recordBodyHash });
// Any type: the declared type is checked against the bytes later. +1 byte detects "more than 10 MB".
const fileParser = raw({ limit: MAX_FILE_BYTES + 1, type: () => true, verify: recordBodyHash });

const hasBody = (req: Request) => Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/** The declared length past a limit is refused before a byte is read. */
function refuseDeclaredOversize(req: Request, limit: number, what: string): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new DomainError('payload_too_large', `${what} is larger than ${limit} bytes`);
}

/** A JSON body (objects and arrays, at most 64 KB); JSON routes refuse other content types with 415. */
export async function readJsonBody(req: Request, res: Response): Promise<void> {
  if (!hasBody(req)) return;
  if (!req.is(JSON_TYPES)) throw new DomainError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json');
  refuseDeclaredOversize(req, JSON_LIMIT_BYTES, 'the request body');
  continueIfExpected(req, res);
  await run(jsonParser, req, res);
}

/**
 * Bodies held in memory at once across file uploads: each is at most 10 MB, and later ones wait
 * unread (TCP pushes back on their senders) instead of growing the heap. A slot is given back when
 * its response closes, also when its client left while it waited; a body not received within
 * FILE_BODY_DEADLINE_MS is cut, so slow senders cannot hold the slots.
 */
const FILE_BODIES_AT_ONCE = 8;
const FILE_BODY_DEADLINE_MS = 60_000;
let fileBodiesReading = 0;
const waitingForFileBody: (() => void)[] = [];

/** Waits for a slot, held until the response closes; throws when the client left while waiting. */
async function holdFileBodySlot(res: Response): Promise<void> {
  // An object, not a local: the close listener changes it while this function awaits.
  const slot: { state: 'waiting' | 'holding' | 'done' } = { state: 'waiting' };
  let wake: (() => void) | undefined;
  const leave = () => {
    const was = slot.state;
    slot.state = 'done';
    if (was === 'holding') {
      fileBodiesReading--;
      waitingForFileBody.shift()?.();
    } else if (was === 'waiting' && wake) {
      const at = waitingForFileBody.indexOf(wake);
      if (at >= 0) waitingForFileBody.splice(at, 1);
      wake();
    }
  };
  // Registered before waiting: a client that leaves while queued must not take a slot with it.
  res.once('close', leave);
  if (!res.closed && fileBodiesReading >= FILE_BODIES_AT_ONCE) {
    await new Promise<void>((resolve) => {
      wake = resolve;
      waitingForFileBody.push(resolve);
    });
  }
  if (slot.state === 'done' || res.closed) {
    slot.state = 'done';
    throw new DomainError('invalid_request', 'the request was closed before its body could be read');
  }
  slot.state = 'holding';
  fileBodiesReading++;
}

/** A file body of the direct upload or the presigned PUT, at most 10 MB (413 from Content-Length before reading). */
export async function readFileBody(req: Request, res: Response): Promise<void> {
  refuseDeclaredOversize(req, MAX_FILE_BYTES, 'the file');
  await holdFileBodySlot(res);
  continueIfExpected(req, res);
  const deadline = setTimeout(() => req.destroy(), FILE_BODY_DEADLINE_MS);
  try {
    await run(fileParser, req, res);
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * `Expect: 100-continue` is answered only once the request passed authentication and its checks
 * (http-setup answers nothing on its own), so a refused client never sends its body.
 */
function continueIfExpected(req: Request, res: Response): void {
  if (String(req.headers.expect).toLowerCase() === '100-continue' && !res.headersSent) res.writeContinue();
}

/** The file body that {@link readFileBody} read, or an empty one. */
export const fileBytes = (req: Request): Buffer => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
