import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AppConfig } from '@cs/config';
import { NOTIFICATION_LISTENER, type NotificationListener } from '@cs/ports';
import { SEARCH_ENDED_CHANNEL, SearchesRepository, parseSearchEnded } from '@cs/records';
import { InjectConfig, MetricsRegistry, ProcessLifecycle } from '@cs/service-kit';
import { waitPreference } from '../http/prefer';
import type { WaitRequest } from './searches.service';
import { WaiterRegistry, type WaitPool, type Waiter } from './waiter-registry';

/**
 * How often the watched searches are read while any request waits: what a lost notification
 * connection would miss is seen within this, for one query per process whatever the waiters.
 */
export const SWEEP_MS = 3000;
/** Ids a sweep query names at most; more (a hundred groups of a hundred searches) take several. */
const SWEEP_BATCH = 5000;

/**
 * Requests waiting for searches to end (`Prefer: wait`, event streams): woken by the database's
 * notification that a search ended (both modes), with a periodic read of the watched searches in
 * case the notification connection dropped. Released at once when the process starts draining.
 */
@Injectable()
export class SearchWaitersService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SearchWaiters');
  readonly registry: WaiterRegistry;
  private stopListening: (() => Promise<void>) | null = null;
  private stopDrainHook: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;
  /** SWEEP_MS; a test sets it before init to sweep only when it calls `sweep()`. */
  sweepEveryMs = SWEEP_MS;

  constructor(
    @InjectConfig('waits') waits: AppConfig['waits'],
    @Inject(NOTIFICATION_LISTENER) private readonly listener: NotificationListener,
    private readonly searches: SearchesRepository,
    private readonly lifecycle: ProcessLifecycle,
    metrics: MetricsRegistry,
  ) {
    this.registry = new WaiterRegistry({
      waits: { max: waits.max, perCompany: waits.perCompany },
      streams: { max: waits.streamsMax, perCompany: waits.streamsPerCompany },
    });
    // Bounded by WAITS_* and EVENT_STREAMS_*.
    metrics.gauge('cs_held_requests', 'Requests the gateway holds open: waits (Prefer: wait) and event streams', ['kind'], (held) => {
      for (const kind of ['waits', 'streams'] as const) held.set({ kind }, this.registry.count(kind));
    });
  }

  async onModuleInit(): Promise<void> {
    this.stopDrainHook = this.lifecycle.onDrain(() => this.registry.close());
    this.timer = setInterval(() => void this.sweep(), this.sweepEveryMs);
    this.timer.unref();
    try {
      this.stopListening = await this.listener.listen(SEARCH_ENDED_CHANNEL, {
        onMessage: (payload) => {
          const ended = parseSearchEnded(payload);
          if (ended) this.registry.observe(ended.id, ended.status);
        },
        onResync: () => void this.sweep(),
      });
    } catch (error) {
      // The listener keeps reconnecting; meanwhile the sweep sees searches end, a little later.
      this.logger.warn(
        `listening for ended searches failed (${error instanceof Error ? error.message : String(error)}); reading them every ${this.sweepEveryMs} ms`,
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.registry.close();
    this.stopDrainHook?.();
    if (this.timer) clearInterval(this.timer);
    await this.stopListening?.().catch(() => undefined);
  }

  /** The client's `Prefer: wait`, and how to take a place among the process's waiters, released with the response. */
  waitRequest(req: Request, res: Response): WaitRequest | null {
    const seconds = waitPreference(req, res);
    if (seconds === null) return null;
    return { seconds, hold: (companyId, ids) => this.hold(res, 'waits', companyId, ids) };
  }

  /** A waiter released when the response closes (the client went away, or it was answered); null past the bounds or while draining. */
  hold(res: Response, pool: WaitPool, companyId: string, ids: readonly string[] = []): Waiter | null {
    const waiter = this.registry.acquire(pool, companyId, ids);
    if (!waiter) return null;
    // A client gone while the request awaited (a lookup, the search's creation) has had its one
    // 'close' already: a listener added now would never fire and the place would stay taken.
    if (res.destroyed) waiter.release();
    else res.once('close', () => waiter.release());
    return waiter;
  }

  /** One query over every watched search; a status other than the last seen wakes its waiters. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    const ids = this.registry.watchedIds();
    if (ids.length === 0) return;
    this.sweeping = true;
    try {
      for (let i = 0; i < ids.length; i += SWEEP_BATCH) {
        for (const row of await this.searches.statuses(ids.slice(i, i + SWEEP_BATCH))) this.registry.observe(row.id, row.status);
      }
    } catch (error) {
      this.logger.warn(`reading waited searches failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.sweeping = false;
    }
  }
}
