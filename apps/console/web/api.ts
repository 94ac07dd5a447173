import type { api } from '@cs/contracts';
import type { z } from 'zod';
import { sleep } from './dom';

type ErrorBody = z.infer<typeof api.ErrorBody>;
type RateLimitBody = z.infer<typeof api.RateLimitErrorBody>;

/** An answer outside 2xx, with the API's own message (shown to the user as text). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait, on 429. */
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

interface RequestOptions {
  json?: unknown;
  file?: Blob;
  contentType?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The presigned PUT: no API key goes to an upload target. */
  withoutKey?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A body's JSON; null for an empty body or one that is not JSON. */
function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** The public API from the page's own origin, with the key in `X-API-Key`; a 401 anywhere is reported once to `onUnauthorized`. */
export class ApiClient {
  constructor(
    readonly key: string,
    private readonly onUnauthorized: (message: string) => void,
  ) {}

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const response = await this.send(method, path, options);
    return { status: response.status, headers: response.headers, body: parseJson(await response.text()) as T };
  }

  /** A 2xx answer's bytes (a CV's file, an export), its errors answered as any request's are. */
  async blob(path: string, options: RequestOptions = {}): Promise<Blob> {
    return (await this.send('GET', path, options)).blob();
  }

  /** The answer when it is 2xx; else the API's error as an ApiError, a 401 reported to `onUnauthorized`. */
  private async send(method: string, path: string, options: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (!options.withoutKey) headers['X-API-Key'] = this.key;
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.file) {
      headers['Content-Type'] = options.contentType ?? 'application/octet-stream';
      body = options.file;
    }
    const response = await fetch(path, { method, headers, body, signal: options.signal, credentials: 'omit', cache: 'no-store' });
    if (response.ok) return response;
    const parsed = parseJson(await response.text());
    const error = isObject(parsed) ? (parsed as Partial<ErrorBody & RateLimitBody>) : {};
    const message = typeof error.message === 'string' ? error.message : `the API answered ${response.status} ${response.statusText}`.trim();
    const retryAfter = Number(response.headers.get('Retry-After') ?? error.retryAfter ?? NaN);
    const failure = new ApiError(
      response.status,
      typeof error.error === 'string' ? error.error : 'error',
      message,
      Number.isFinite(retryAfter) ? retryAfter : null,
    );
    if (response.status === 401 && !options.withoutKey) this.onUnauthorized(message);
    throw failure;
  }

  get<T>(path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, json: unknown, options: RequestOptions = {}): Promise<Answer<T>> {
    return this.request<T>('POST', path, { ...options, json });
  }
}

/**
 * Runs `call`, waiting out a 429 as `Retry-After` says (at most `attempts` times), and telling
 * `onWait` how long, so the page can say why nothing happens.
 */
export async function withRateLimitRetry<T>(
  call: () => Promise<T>,
  onWait: (seconds: number, message: string) => void,
  signal?: AbortSignal,
  attempts = 3,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429 || attempt >= attempts) throw error;
      const seconds = Math.max(1, Math.min(60, error.retryAfter ?? 5));
      onWait(seconds, error.message);
      await sleep(seconds * 1000, signal);
    }
  }
}
