import type { AppConfig } from '@cs/config';
import type { NotificationHandlers, NotificationListener } from '@cs/ports';
import { SEARCH_ENDED_CHANNEL, type SearchStatus, type SearchesRepository } from '@cs/records';
import { MetricsRegistry, ProcessLifecycle } from '@cs/service-kit';
import type { Response } from 'express';
import { EventEmitter } from 'node:events';
import { SearchWaitersService } from './search-waiters.service';

const WAITS: AppConfig['waits'] = { max: 1000, perCompany: 1000, streamsMax: 10, streamsPerCompany: 10 };
const ids = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

/** The listener and the repository as the service sees them, recording what it asks. */
function fakes() {
  const handlers = new Map<string, NotificationHandlers>();
  const listener: NotificationListener = {
    listen: async (channel, h) => {
      handlers.set(channel, h);
      return async () => void handlers.delete(channel);
    },
    close: async () => undefined,
  };
  const status = new Map<string, SearchStatus>(ids.map((id) => [id, 'processing']));
  const queries: string[][] = [];
  const repository = {
    statuses: async (asked: string[]) => {
      queries.push(asked);
      return asked.map((id) => ({ id, status: status.get(id)! }));
    },
  } as unknown as SearchesRepository;
  return { handlers, listener, status, queries, repository };
}

const response = () => new EventEmitter() as unknown as Response;

/** The service over the fakes, sweeping only when a test calls `sweep()`: a timer's sweep would add a query. */
function waitersOver(
  f: ReturnType<typeof fakes>,
  waits: Partial<AppConfig['waits']> = {},
  lifecycle = new ProcessLifecycle(() => undefined),
): SearchWaitersService {
  const service = new SearchWaitersService({ ...WAITS, ...waits }, f.listener, f.repository, lifecycle, new MetricsRegistry('test'));
  service.sweepEveryMs = 3_600_000;
  return service;
}

describe('SearchWaitersService', () => {
  it('reads every waited search in one query however many requests wait, and wakes only those whose search changed', async () => {
    const f = fakes();
    const service = waitersOver(f);
    await service.onModuleInit();
    try {
      const waiters = ids.map((id) => service.hold(response(), 'waits', 'acme', [id])!);
      waiters.forEach((w, i) => w.saw(ids[i], 'processing'));
      const woke = waiters.map((w) => w.wait(2000));
      f.status.set(ids[7], 'completed');
      await service.sweep();
      expect(f.queries).toHaveLength(1);
      expect(f.queries[0].sort()).toEqual([...ids].sort());
      const wakes = await Promise.all(woke);
      expect(wakes.filter((w) => w === 'changed')).toHaveLength(1);
      expect(wakes[7]).toBe('changed');
    } finally {
      await service.onModuleDestroy();
    }
  });

  it('wakes a waiter from the database notification, without reading', async () => {
    const f = fakes();
    const service = waitersOver(f);
    await service.onModuleInit();
    try {
      const waiter = service.hold(response(), 'waits', 'acme', [ids[0]])!;
      waiter.saw(ids[0], 'processing');
      const woke = waiter.wait(2000);
      f.handlers.get(SEARCH_ENDED_CHANNEL)!.onMessage(JSON.stringify({ id: ids[0], companyId: 'acme', status: 'failed' }));
      f.handlers.get(SEARCH_ENDED_CHANNEL)!.onMessage('not json'); // a stray NOTIFY changes nothing
      await expect(woke).resolves.toBe('changed');
      expect(f.queries).toHaveLength(0);
    } finally {
      await service.onModuleDestroy();
    }
  });

  it('frees a place when the response closes (the client went away)', async () => {
    const f = fakes();
    const service = waitersOver(f, { perCompany: 1 });
    await service.onModuleInit();
    try {
      const res = response();
      const waiter = service.hold(res, 'waits', 'acme', [ids[0]])!;
      expect(service.hold(response(), 'waits', 'acme', [ids[0]])).toBeNull();
      (res as unknown as EventEmitter).emit('close');
      expect(waiter.released).toBe(true);
      expect(service.hold(response(), 'waits', 'acme', [ids[0]])).not.toBeNull();
    } finally {
      await service.onModuleDestroy();
    }
  });

  it('frees the place at once when the client went away before the wait began (its close already emitted)', async () => {
    const f = fakes();
    const service = waitersOver(f, { perCompany: 1 });
    await service.onModuleInit();
    try {
      const gone = Object.assign(new EventEmitter(), { destroyed: true }) as unknown as Response;
      const waiter = service.hold(gone, 'streams', 'acme', [ids[0]])!;
      expect(waiter.released).toBe(true);
      await expect(waiter.wait(60_000)).resolves.toBe('released');
      expect(service.hold(response(), 'streams', 'acme', [ids[0]])).not.toBeNull();
    } finally {
      await service.onModuleDestroy();
    }
  });

  it('answers every waiter at once when the process starts draining', async () => {
    const f = fakes();
    const lifecycle = new ProcessLifecycle(() => undefined);
    const service = waitersOver(f, {}, lifecycle);
    await service.onModuleInit();
    try {
      const woke = service.hold(response(), 'streams', 'acme', [ids[0]])!.wait(60_000);
      lifecycle.startDraining();
      await expect(woke).resolves.toBe('released');
      expect(service.hold(response(), 'waits', 'acme', [ids[0]])).toBeNull();
    } finally {
      await service.onModuleDestroy();
    }
  });
});
