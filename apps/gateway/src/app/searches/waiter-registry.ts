import type { SearchStatus } from '@cs/records';

/** What a waiter counts against: requests held by `Prefer: wait`, or event streams. */
export type WaitPool = 'waits' | 'streams';

export interface WaitBounds {
  /** Held at once in this process. */
  max: number;
  /** Held at once by one company in this process. */
  perCompany: number;
}

/** Why a wait ended: a watched search may have changed, time ran out, or the waiter was released (client gone, shutdown). */
export type Wake = 'changed' | 'timeout' | 'released';

/**
 * One client's subscription to some searches. It is woken when one of them may have changed;
 * it then reads the state it waits on again, so a spurious wake costs one read, never a miss.
 */
export class Waiter {
  private watched = new Set<string>();
  private pending = false;
  private wakeUp: ((wake: Wake) => void) | null = null;
  private isReleased = false;

  constructor(
    private readonly registry: WaiterRegistry,
    readonly pool: WaitPool,
    readonly companyId: string,
  ) {}

  get released(): boolean {
    return this.isReleased;
  }

  /** The searches watched from now on; true when some are new (the caller reads again, since they may have changed before). */
  watch(ids: readonly string[]): boolean {
    const next = new Set(ids);
    const added = [...next].some((id) => !this.watched.has(id));
    this.registry.rewatch(this, this.watched, next);
    this.watched = next;
    return added;
  }

  /** What this waiter read of a search (see {@link WaiterRegistry.saw}). */
  saw(id: string, status: SearchStatus): void {
    this.registry.saw(id, status);
  }

  /** Resolves when a watched search may have changed since the last wait (at once if one did meanwhile), after `ms`, or on release. */
  wait(ms: number): Promise<Wake> {
    if (this.isReleased) return Promise.resolve('released');
    if (this.pending) {
      this.pending = false;
      return Promise.resolve('changed');
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish('timeout'), Math.max(0, ms));
      const finish = (wake: Wake) => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve(wake);
      };
      this.wakeUp = finish;
    });
  }

  /** Stops watching and frees its place; a pending wait resolves `released`. Idempotent. */
  release(): void {
    if (this.isReleased) return;
    this.isReleased = true;
    this.registry.remove(this, this.watched);
    this.watched = new Set();
    this.wakeUp?.('released');
  }

  /** @internal the registry's signal */
  notify(): void {
    if (this.wakeUp) this.wakeUp('changed');
    else this.pending = true;
  }
}

/**
 * The searches that requests of this process wait on, keyed by search id, with bounds on how
 * many requests may wait. Fed with the statuses the database reports (notifications, and a
 * periodic read of the watched ids that covers a lost notification connection); a status that
 * differs from the last one seen wakes the search's waiters. No I/O here.
 */
export class WaiterRegistry {
  private readonly bySearch = new Map<string, Set<Waiter>>();
  /** The last status seen of each watched search. */
  private readonly known = new Map<string, SearchStatus>();
  private readonly held: Record<WaitPool, { total: number; byCompany: Map<string, number> }> = {
    waits: { total: 0, byCompany: new Map() },
    streams: { total: 0, byCompany: new Map() },
  };
  private isClosed = false;

  constructor(private readonly bounds: Record<WaitPool, WaitBounds>) {}

  /** A new waiter watching `ids`, or null when the bounds of its pool are reached or the registry is closed. */
  acquire(pool: WaitPool, companyId: string, ids: readonly string[] = []): Waiter | null {
    const held = this.held[pool];
    const ofCompany = held.byCompany.get(companyId) ?? 0;
    if (this.isClosed || held.total >= this.bounds[pool].max || ofCompany >= this.bounds[pool].perCompany) return null;
    held.total++;
    held.byCompany.set(companyId, ofCompany + 1);
    const waiter = new Waiter(this, pool, companyId);
    waiter.watch(ids);
    return waiter;
  }

  /** The status of a search as the database reports it: wakes its waiters unless it is the last one seen. */
  observe(id: string, status: SearchStatus): void {
    const waiters = this.bySearch.get(id);
    if (!waiters || this.known.get(id) === status) return;
    this.known.set(id, status);
    for (const waiter of waiters) waiter.notify();
  }

  /**
   * What a waiter read: the first read of a search only records it; one that differs from what
   * the registry last saw wakes the search's waiters (reads and notifications may cross).
   */
  saw(id: string, status: SearchStatus): void {
    if (!this.bySearch.has(id)) return;
    if (!this.known.has(id)) this.known.set(id, status);
    else this.observe(id, status);
  }

  /** Every watched search id (what the periodic read covers). */
  watchedIds(): string[] {
    return [...this.bySearch.keys()];
  }

  count(pool: WaitPool, companyId?: string): number {
    const held = this.held[pool];
    return companyId === undefined ? held.total : (held.byCompany.get(companyId) ?? 0);
  }

  /** The bound that refuses this company's next waiter of the pool: the company's, or the process's when that is the one reached. */
  bound(pool: WaitPool): number {
    return this.held[pool].total >= this.bounds[pool].max ? this.bounds[pool].max : this.bounds[pool].perCompany;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Shutdown: releases every waiter (they answer with the state they read) and takes no new ones. */
  close(): void {
    this.isClosed = true;
    const all = new Set([...this.bySearch.values()].flatMap((set) => [...set]));
    for (const waiter of all) waiter.release();
  }

  /** @internal */
  rewatch(waiter: Waiter, before: ReadonlySet<string>, after: ReadonlySet<string>): void {
    for (const id of before) if (!after.has(id)) this.unwatch(waiter, id);
    for (const id of after) {
      let set = this.bySearch.get(id);
      if (!set) this.bySearch.set(id, (set = new Set()));
      set.add(waiter);
    }
  }

  /** @internal */
  remove(waiter: Waiter, watched: ReadonlySet<string>): void {
    for (const id of watched) this.unwatch(waiter, id);
    const held = this.held[waiter.pool];
    held.total--;
    const left = (held.byCompany.get(waiter.companyId) ?? 1) - 1;
    if (left > 0) held.byCompany.set(waiter.companyId, left);
    else held.byCompany.delete(waiter.companyId);
  }

  private unwatch(waiter: Waiter, id: string): void {
    const set = this.bySearch.get(id);
    if (!set) return;
    set.delete(waiter);
    if (set.size > 0) return;
    this.bySearch.delete(id);
    this.known.delete(id);
  }
}

/**
 * Reads `read` until `ended` says so, `seconds` pass or the waiter is released, and answers the
 * last read. It reads again only when woken: at a change of a watched search, or at the end.
 * `watchOf` names the searches the value depends on (a group's members), watched from then on.
 */
export async function waitUntil<T>(
  waiter: Waiter,
  seconds: number,
  read: () => Promise<T>,
  ended: (value: T) => boolean,
  watchOf?: (value: T) => string[],
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    // Searches watched only now may have ended before: read again before sleeping.
    if (watchOf && waiter.watch(watchOf(value)) && !ended(value)) continue;
    const left = deadline - Date.now();
    if (ended(value) || left <= 0 || waiter.released) return value;
    await waiter.wait(left);
  }
}
