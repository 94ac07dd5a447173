import type { IncomingHttpHeaders } from 'node:http';
import { OpenApiCheck } from '@cs/test-services';

/** Per service: its OpenAPI document, fetched once. */
const checks = new Map<string, Promise<OpenApiCheck>>();
/** What the document describes: the public API and the presigned PUT target. */
const DOCUMENTED = /^\/(v1\/public|uploads)(\/|$)/i;

/** The service's document, fetched once per base URL. */
export function openApiCheckOf(baseUrl: string): Promise<OpenApiCheck> {
  let check = checks.get(baseUrl);
  if (!check) checks.set(baseUrl, (check = OpenApiCheck.fetch(baseUrl)));
  return check;
}

/** How an answer differs from the service's document; nothing for paths it does not describe (admin, health, /docs). */
export async function documentProblems(
  baseUrl: string,
  method: string,
  path: string,
  status: number,
  headers: Headers,
  body: unknown,
): Promise<string[]> {
  if (!DOCUMENTED.test(path)) return [];
  return (await openApiCheckOf(baseUrl)).problems(method, path, status, headers, body);
}

/** node:http's headers as fetch's, for the check. */
export function toHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return headers;
}

/**
 * A thin client of the public API, keeping status, headers and JSON of every answer, and
 * checking each answer under /v1/public and /uploads against the OpenAPI document the service serves: an
 * answer the document does not describe fails the test that received it.
 */
export interface Answer<T = Record<string, any>> {
  status: number;
  headers: Headers;
  body: T;
}

/** The standalone service's presigned PUT target, as opposed to S3's. */
export const isServiceUploadTarget = (url: URL): boolean =>
  /^\/uploads\/[^/]+$/.test(url.pathname) && url.searchParams.has('signature') && url.searchParams.has('expires');

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string | undefined,
  ) {}

  async request<T = Record<string, any>>(
    method: string,
    path: string,
    options: { json?: unknown; body?: Buffer | string; headers?: Record<string, string>; withoutKey?: boolean } = {},
  ): Promise<Answer<T>> {
    const key: Record<string, string> = this.apiKey && !options.withoutKey ? { 'x-api-key': this.apiKey } : {};
    const headers: Record<string, string> = { ...key, ...options.headers };
    let body: string | Uint8Array | undefined;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : new Uint8Array(options.body);
    }
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    } catch (error) {
      // A keep-alive socket the server closed just as it was reused: a GET is safe to send again.
      if (method !== 'GET') throw error;
      response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON (the Swagger page): keep the text
    }
    const problems = await documentProblems(this.baseUrl, method, path, response.status, response.headers, parsed);
    if (problems.length)
      throw new Error(`the answer does not match the OpenAPI document:\n${problems.join('\n')}\nbody: ${text.slice(0, 2000)}`);
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get<T = Record<string, any>>(path: string) {
    return this.request<T>('GET', path);
  }

  post<T = Record<string, any>>(path: string, json: unknown) {
    return this.request<T>('POST', path, { json });
  }

  delete<T = Record<string, any>>(path: string) {
    return this.request<T>('DELETE', path);
  }

  upload(file: Buffer, contentType: string, params: Record<string, string>) {
    return this.request('POST', `/v1/public/documents/upload-direct?${new URLSearchParams(params).toString()}`, {
      body: file,
      headers: { 'content-type': contentType },
    });
  }

  /**
   * PUTs a file to a presigned URL without the API key. The service's own target (standalone,
   * `/uploads/{id}?expires&signature`) is sent to this client's base URL, whatever host
   * PUBLIC_BASE_URL names, and checked against the document like every answer; S3's target (a
   * cluster's, signed X-Amz-*) is not the service's to describe, so its answer is only returned.
   */
  async putPresigned(presignedUrl: string, headers: Record<string, string>, file: Buffer): Promise<Answer> {
    const url = new URL(presignedUrl);
    if (isServiceUploadTarget(url)) return this.request('PUT', `${url.pathname}${url.search}`, { body: file, headers, withoutKey: true });
    const response = await fetch(url, { method: 'PUT', headers, body: new Uint8Array(file) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: { text } };
  }

  /** Polls a search until it is completed or failed. */
  async waitForSearch(searchId: string, timeoutMs = 60_000, pollMs = 100): Promise<Record<string, any>> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { body } = await this.get(`/v1/public/searches/${searchId}`);
      if (body.status === 'completed' || body.status === 'failed') return body;
      await new Promise((r) => setTimeout(r, pollMs));
    }
    throw new Error(`search ${searchId} did not finish in ${timeoutMs} ms`);
  }

  /** Polls documents until none is uploading or pending. */
  async waitForDocuments(ids: string[], timeoutMs = 180_000): Promise<Map<string, Record<string, any>>> {
    const deadline = Date.now() + timeoutMs;
    const done = new Map<string, Record<string, any>>();
    while (Date.now() < deadline) {
      for (const id of ids) {
        if (done.has(id)) continue;
        const { body } = await this.get(`/v1/public/documents/${id}`);
        if (!['uploading', 'pending'].includes(body.status)) done.set(id, body);
      }
      if (done.size === ids.length) return done;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${ids.length - done.size} documents still processing after ${timeoutMs} ms`);
  }
}
