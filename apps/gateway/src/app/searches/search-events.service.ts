import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DomainError, type api } from '@cs/contracts';
import type { AuthContext } from '../auth/auth-context';
import { SearchWaitersService } from './search-waiters.service';
import { SearchesService, hasEnded } from './searches.service';

/** A comment line this often keeps proxies and clients from taking a quiet stream for a dead one. */
export const HEARTBEAT_MS = 15_000;
/** A stream ends after this; the client reconnects with Last-Event-ID (and may land on another replica). */
export const STREAM_LIFE_MS = 10 * 60_000;
/** The reconnection delay sent to clients (`retry:`). */
export const RETRY_MS = 3000;
/** A client that reads nothing gets its stream closed past this much unsent: memory stays bounded. */
const MAX_UNSENT_BYTES = 64 * 1024;
/** When a client refused for too many open streams may try again. */
const STREAMS_RETRY_AFTER_S = 5;

/** Event ids are the ordinal of a state, so a client resuming with Last-Event-ID gets only the states it lacks. */
export const STATE_ORDINAL: Record<api.SearchStatus['status'], number> = { initiated: 1, processing: 2, completed: 3, failed: 3 };

/** Last-Event-ID as a state ordinal, or 0 (nothing seen) when absent or not one of ours. */
export function lastEventOrdinal(header: string | string[] | undefined): number {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^[1-3]$/.test(value.trim()) ? Number(value.trim()) : 0;
}

/** Server-sent events of one search's status: the current state, then each change, until it ends. */
@Injectable()
export class SearchEventsService {
  private readonly logger = new Logger('SearchEvents');

  constructor(
    private readonly searches: SearchesService,
    private readonly waiters: SearchWaitersService,
  ) {}

  async stream(auth: AuthContext, searchId: string, req: Request, res: Response): Promise<void> {
    if (!req.accepts('text/event-stream')) {
      throw new DomainError('not_acceptable', 'this resource is a text/event-stream; the Accept header excludes it');
    }
    const lastSeen = lastEventOrdinal(req.headers['last-event-id']);
    await this.searches.status(auth, searchId); // 404 before a place is taken
    const waiter = this.waiters.hold(res, 'streams', auth.company.id, [searchId]);
    if (!waiter) throw this.tooManyStreams(auth, res);
    try {
      // Watching first, then reading: a change after this read wakes the waiter.
      let view = await this.searches.statusSeen(auth, searchId, waiter);
      if (hasEnded(view) && lastSeen === STATE_ORDINAL[view.status]) {
        // The client has the final state: 204 tells an EventSource not to reconnect.
        res.status(204).end();
        return;
      }
      res.status(200);
      // no-transform: the compression middleware leaves the stream alone, so events are not buffered.
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store, no-transform');
      res.setHeader('X-Accel-Buffering', 'no');
      // A HEAD has its answer's headers and no body: nothing to wait for.
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      res.flushHeaders();
      res.write(`retry: ${RETRY_MS}\n\n`);
      let sent = lastSeen;
      const send = (v: api.SearchStatus) => {
        const ordinal = STATE_ORDINAL[v.status];
        if (ordinal === sent) return;
        res.write(`id: ${ordinal}\nevent: status\ndata: ${JSON.stringify(v)}\n\n`);
        sent = ordinal;
      };
      send(view);
      const endAt = Date.now() + STREAM_LIFE_MS;
      let beatAt = Date.now() + HEARTBEAT_MS;
      while (!hasEnded(view) && !waiter.released && res.writableLength <= MAX_UNSENT_BYTES) {
        const now = Date.now();
        if (now >= endAt) break;
        if (now >= beatAt) {
          res.write(': heartbeat\n\n');
          beatAt = now + HEARTBEAT_MS;
        }
        if ((await waiter.wait(Math.min(beatAt, endAt) - now)) !== 'changed') continue;
        view = await this.searches.statusSeen(auth, searchId, waiter);
        send(view);
      }
    } catch (error) {
      if (!res.headersSent) throw error;
      // The stream is open: the error cannot be an answer any more; the client reconnects.
      this.logger.warn(`event stream of search ${searchId} failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      waiter.release();
      if (res.headersSent && !res.writableEnded) res.end();
    }
  }

  private tooManyStreams(auth: AuthContext, res: Response): DomainError {
    const registry = this.waiters.registry;
    const ofCompany = registry.count('streams', auth.company.id);
    res.setHeader('Retry-After', String(STREAMS_RETRY_AFTER_S));
    const message = registry.closed
      ? 'This server is shutting down and opens no more event streams; reconnect (another server will take it).'
      : `Too many event streams open (${ofCompany} for your company in this server); close one, or poll the status with Prefer: wait.`;
    return new DomainError('rate_limit_exceeded', message, {
      limit: registry.bound('streams'),
      window: 'open at once',
      retryAfter: String(STREAMS_RETRY_AFTER_S),
    });
  }
}
