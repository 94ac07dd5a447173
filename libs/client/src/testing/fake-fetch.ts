import type { FetchLike } from '../transport';

/** One request the fake fetch received. */
export interface SeenRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  at: number;
}

export type Reply = { status: number; body?: unknown; headers?: Record<string, string> } | Error;
export type Route = (req: SeenRequest, calls: SeenRequest[]) => Reply | Promise<Reply>;

/**
 * A fetch that answers from a route function and records every request (with the fake clock's
 * time when jest's modern timers run), so tests can check paces, headers and retries.
 */
export function fakeFetch(route: Route): FetchLike & { calls: SeenRequest[] } {
  const calls: SeenRequest[] = [];
  const fn = async (input: string, init: RequestInit): Promise<Response> => {
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    let body: unknown = init.body;
    if (typeof init.body === 'string' && headers['content-type'] === 'application/json') body = JSON.parse(init.body);
    // A streamed body is read to its end, as a real fetch sends it (which refuses one without duplex).
    if (init.body instanceof ReadableStream && (init as { duplex?: string }).duplex !== 'half')
      throw new TypeError('duplex option is required');
    if (init.body instanceof ReadableStream)
      body = new Uint8Array(await new Response(init.body as ReadableStream<Uint8Array>).arrayBuffer());
    const req: SeenRequest = { method: init.method ?? 'GET', url: new URL(input), headers, body, at: Date.now() };
    calls.push(req);
    if (init.signal?.aborted) throw init.signal.reason;
    const reply = await route(req, calls);
    if (reply instanceof Error) throw reply;
    if (reply.body instanceof ReadableStream)
      return new Response(reply.body as ReadableStream<Uint8Array>, { status: reply.status, headers: reply.headers });
    const isJson = reply.body !== undefined && typeof reply.body !== 'string';
    return new Response(reply.status === 204 ? null : isJson ? JSON.stringify(reply.body) : ((reply.body as string | undefined) ?? ''), {
      status: reply.status,
      headers: { ...(isJson ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...reply.headers },
    });
  };
  return Object.assign(fn, { calls });
}
