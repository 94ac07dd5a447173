import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ConnectionError, abortError } from './errors';
import { sleep } from './timing';
import type { OnRetry, Transport } from './transport';
import { isTerminalSearch, type SearchStatus } from './types';

/** One `status` event of a search's event stream: its id (for Last-Event-ID) and the status JSON. */
export interface SearchEvent {
  id?: string;
  event: 'status';
  data: SearchStatus;
}

export interface SearchEventsOptions {
  /** Resume after this event (sent as Last-Event-ID). */
  lastEventId?: string;
  signal?: AbortSignal;
  /** Told of each request's retries (see CallOptions.onRetry). */
  onRetry?: OnRetry;
  /** Reconnections in a row without an event before giving up (default 5). */
  maxReconnects?: number;
}

/**
 * The status events of GET /v1/public/searches/{id}/events, read from fetch's body stream with
 * eventsource-parser (EventSource itself cannot send X-API-Key). A dropped connection is reopened
 * with Last-Event-ID after the server's `retry` (1 s until it says); the iterator ends after a
 * terminal status, as the stream does, or at a 204 (Last-Event-ID was already the final state).
 */
export async function* searchEventStream(
  transport: Transport,
  searchId: string,
  options: SearchEventsOptions = {},
): AsyncGenerator<SearchEvent> {
  let lastEventId = options.lastEventId;
  let retryMs = 1_000;
  let failures = 0;
  const maxReconnects = options.maxReconnects ?? 5;
  for (;;) {
    let failure: unknown;
    const answer = await transport.request<Response>({
      method: 'GET',
      path: `/v1/public/searches/${encodeURIComponent(searchId)}/events`,
      headers: { Accept: 'text/event-stream', ...(lastEventId ? { 'Last-Event-ID': lastEventId } : {}) },
      signal: options.signal,
      onRetry: options.onRetry,
      raw: true,
    });
    const response = answer.data;
    // 204: Last-Event-ID already names the final state; nothing more will come.
    if (response.status === 204) {
      answer.release?.();
      return;
    }
    const queue: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => queue.push(e), onRetry: (ms) => (retryMs = ms) });
    const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
    const decoder = new TextDecoder();
    let received = false;
    try {
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        received = true;
        parser.feed(decoder.decode(value, { stream: true }));
        for (let e = queue.shift(); e; e = queue.shift()) {
          if (e.id !== undefined) lastEventId = e.id;
          if ((e.event ?? 'message') !== 'status') continue;
          const data = JSON.parse(e.data) as SearchStatus;
          failures = 0;
          yield { id: e.id, event: 'status', data };
          if (isTerminalSearch(data)) return;
        }
      }
    } catch (err) {
      if (options.signal?.aborted) throw abortError(options.signal);
      failure = err;
    } finally {
      reader?.cancel().catch(() => undefined);
      // Each reconnection's answer would otherwise leave a listener on the caller's signal.
      answer.release?.();
    }
    // A stream the server ended after sending something (heartbeats at least: it closes quiet
    // streams after a while) is a normal reconnection, not a drop; only drops in a row count.
    if (failure === undefined && received) failures = 0;
    else failures++;
    if (failures > maxReconnects)
      throw new ConnectionError({
        status: 0,
        error: 'network_error',
        message: `the event stream of search ${searchId} dropped ${failures} times in a row`,
        retryable: true,
        cause: failure,
      });
    await sleep(retryMs, options.signal);
  }
}
