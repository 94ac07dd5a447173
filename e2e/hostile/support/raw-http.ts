import * as http from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/**
 * One request exactly as the hostile suites mean to send it: `node:http`, not `fetch`, because
 * fetch normalises paths (`..`, percent escapes), refuses some headers, cannot lie about
 * Content-Length and cannot send headers past Node's 16 KB default.
 */
export interface HostileRequest {
  method: string;
  /** Sent as written (only characters Node's client accepts: U+0021..U+00FF). */
  path: string;
  /** In order; a name may repeat. Content-Length is added for a Buffer body unless given. */
  headers: [string, string][];
  body?: Buffer;
  /** What the request tries (a generator family), for grouping figures and failures. */
  family: string;
  /** A short human description of the body, for reproductions. */
  bodyNote?: string;
  /**
   * Not valid HTTP/1.1 (conflicting framing): Node's parser refuses it before any route is known,
   * so it is held to the error body only, not to the route's RateLimit-* (as a 431 is).
   */
  malformedHttp?: boolean;
}

export interface HostileAnswer {
  /** 0 when no answer came (connection error or timeout). */
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed body when it is JSON, else undefined. */
  json: unknown;
  bytes: number;
  ms: number;
  /** Why no answer came. */
  transportError?: string;
}

export interface SendOptions {
  agent?: http.Agent;
  timeoutMs?: number;
  /** Bodies above this many bytes of the answer are counted, not kept. */
  keepBytes?: number;
}

/** An answer's body as text and JSON, undoing its Content-Encoding (a body that will not decode stays as it came). */
function decode(raw: Buffer, encoding: string | undefined): { text: string; json: unknown } {
  let bytes = raw;
  try {
    if (encoding === 'gzip') bytes = gunzipSync(raw);
    else if (encoding === 'deflate') bytes = inflateSync(raw);
    else if (encoding === 'br') bytes = brotliDecompressSync(raw);
  } catch {
    bytes = raw;
  }
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { text, json };
}

/** Sends one request; never throws (a transport failure is an answer with status 0). */
export function send(baseUrl: string, request: HostileRequest, options: SendOptions = {}): Promise<HostileAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  // With headers as an array Node adds no Host of its own, and Node's server refuses a request without one.
  const headers = request.headers.some(([k]) => k.toLowerCase() === 'host') ? [] : ['Host', `${hostname}:${port}`];
  headers.push(...request.headers.flatMap(([k, v]) => [k, v]));
  const framed = request.headers.some(([k]) => k.toLowerCase() === 'content-length' || k.toLowerCase() === 'transfer-encoding');
  // Node's client would send a bodiless POST or PUT as an empty chunked body; curl sends no body at all.
  if (!framed && (request.body || !['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE'].includes(request.method))) {
    headers.push('Content-Length', String(request.body?.length ?? 0));
  }
  const keepBytes = options.keepBytes ?? 8 * 1024 * 1024;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<HostileAnswer, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, ms: performance.now() - started });
    };
    let req: http.ClientRequest;
    try {
      req = http.request({ hostname, port, method: request.method, path: request.path, headers, agent: options.agent });
    } catch (error) {
      // Node's client refused the request itself (a header or path it will not send): not the service's answer.
      finish({
        status: -1,
        headers: {},
        text: '',
        json: undefined,
        bytes: 0,
        transportError: `client refused: ${(error as Error).message}`,
      });
      return;
    }
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer within ${options.timeoutMs ?? 30_000} ms`)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (bytes <= keepBytes) chunks.push(c);
      });
      const done = () => {
        const { text, json } = decode(Buffer.concat(chunks), res.headers['content-encoding']);
        finish({ status: res.statusCode ?? 0, headers: res.headers, text, json, bytes });
      };
      res.on('end', done);
      // The server may close right after answering (413, 431): what arrived is the answer.
      res.on('error', done);
      res.on('aborted', done);
    });
    req.on('error', (error) => finish({ status: 0, headers: {}, text: '', json: undefined, bytes: 0, transportError: error.message }));
    if (request.body) req.end(request.body);
    else req.end();
  });
}

/** A shell line that sends the same request (body summarised when it is large or binary; secrets replaced by their names). */
export function toCurl(request: HostileRequest, redact: [secret: string, name: string][] = [], baseUrl = '$B'): string {
  const hide = (s: string) => redact.reduce((acc, [secret, name]) => (secret ? acc.split(secret).join(name) : acc), s);
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const shorten = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
  const parts = [`curl -s -X ${request.method}`, quote(`${baseUrl}${shorten(hide(request.path), 300)}`)];
  const shown = request.headers.length > 24 ? [...request.headers.slice(0, 6), ...request.headers.slice(-3)] : request.headers;
  for (const [k, v] of shown) parts.push(`-H ${quote(`${k}: ${shorten(hide(v))}`)}`);
  if (shown.length < request.headers.length) {
    const bytes = request.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
    parts.push(`# and ${request.headers.length - shown.length} more headers like these (${request.headers.length} in all, ${bytes} bytes)`);
  }
  if (request.body) {
    const text = request.body.toString('latin1');
    const printable = request.body.length <= 400 && /^[\x20-\x7e\t\r\n]*$/.test(text);
    parts.push(
      printable ? `--data-binary ${quote(hide(text))}` : `--data-binary @<${request.bodyNote ?? 'binary'}, ${request.body.length} bytes>`,
    );
  } else if (request.bodyNote) {
    parts.push(`# body: ${request.bodyNote}`);
  }
  return parts.join(' ');
}

export interface StreamedAnswer extends HostileAnswer {
  /** Body bytes written before the answer came (or all of them). */
  bytesWritten: number;
}

/**
 * Sends `declaredBytes` of body as slices of one reused Buffer (no copy per request), on a
 * connection of its own, and stops writing as soon as the answer arrives: what the server did not
 * need is never sent. With `holdBody`, nothing of the body is sent until the answer or `holdMs`
 * passes, which shows whether the server answered from the headers alone.
 */
export function sendStreamed(
  baseUrl: string,
  request: Omit<HostileRequest, 'body'>,
  body: { source: Buffer; declaredBytes: number; holdMs?: number },
  timeoutMs = 60_000,
): Promise<StreamedAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  const headers = ['Host', `${hostname}:${port}`, ...request.headers.flatMap(([k, v]) => [k, v])];
  if (!request.headers.some(([k]) => k.toLowerCase() === 'content-length')) headers.push('Content-Length', String(body.declaredBytes));
  return new Promise((resolve) => {
    let bytesWritten = 0;
    let answered = false;
    let settled = false;
    const req = http.request({ hostname, port, method: request.method, path: request.path, headers, agent: false });
    const finish = (answer: Omit<StreamedAnswer, 'ms' | 'bytesWritten'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, bytesWritten, ms: performance.now() - started });
      req.destroy();
    };
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => finish({ status: 0, headers: {}, text: '', json: undefined, bytes: 0, transportError: error.message }));
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = () => {
        const { text, json } = decode(Buffer.concat(chunks), res.headers['content-encoding']);
        finish({ status: res.statusCode ?? 0, headers: res.headers, text, json, bytes: text.length });
      };
      res.on('end', done);
      res.on('error', done);
      res.on('aborted', done);
    });
    const slice = 64 * 1024;
    const write = async () => {
      req.flushHeaders();
      if (body.holdMs) {
        const until = Date.now() + body.holdMs;
        while (!answered && !settled && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      }
      while (!answered && !settled && bytesWritten < body.declaredBytes) {
        const offset = bytesWritten % body.source.length;
        const n = Math.min(slice, body.declaredBytes - bytesWritten, body.source.length - offset);
        const ok = req.write(body.source.subarray(offset, offset + n));
        bytesWritten += n;
        if (!ok) await waitForDrain(req);
      }
      if (!answered && !settled) req.end();
    };
    write().catch((error: unknown) =>
      finish({ status: 0, headers: {}, text: '', json: undefined, bytes: 0, transportError: String(error) }),
    );
  });
}

/** Resolves on drain, an answer or the end of the request, leaving no listener behind. */
function waitForDrain(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off('drain', done);
      req.off('response', done);
      req.off('close', done);
      resolve();
    };
    req.on('drain', done);
    req.on('response', done);
    req.on('close', done);
  });
}
