import { WaiterRegistry, waitUntil } from './waiter-registry';

const bounds = { waits: { max: 3, perCompany: 2 }, streams: { max: 1, perCompany: 1 } };
const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';

describe('WaiterRegistry', () => {
  it('bounds waiters per company and per process, per pool, and frees a place on release', () => {
    const registry = new WaiterRegistry(bounds);
    const first = registry.acquire('waits', 'acme', [A])!;
    expect(registry.acquire('waits', 'acme', [A])).not.toBeNull();
    expect(registry.acquire('waits', 'acme', [A])).toBeNull(); // acme's two are taken
    expect(registry.acquire('waits', 'globex', [A])).not.toBeNull();
    expect(registry.acquire('waits', 'initech', [A])).toBeNull(); // the process's three are taken
    expect(registry.acquire('streams', 'initech', [A])).not.toBeNull(); // another pool
    expect(registry.bound('waits')).toBe(3);
    first.release();
    first.release(); // twice frees one place
    expect(registry.count('waits', 'acme')).toBe(1);
    expect(registry.acquire('waits', 'initech', [A])).not.toBeNull();
    expect(registry.acquire('waits', 'initech', [A])).toBeNull();
  });

  it('wakes the waiters of a search whose status changes, not those of others', async () => {
    const registry = new WaiterRegistry(bounds);
    const onA = registry.acquire('waits', 'acme', [A])!;
    const onB = registry.acquire('waits', 'globex', [B])!;
    onA.saw(A, 'processing');
    onB.saw(B, 'processing');
    const a = onA.wait(5000);
    const b = onB.wait(50);
    registry.observe(A, 'completed');
    await expect(a).resolves.toBe('changed');
    await expect(b).resolves.toBe('timeout');
  });

  it('does not wake a waiter for the status it already read (a sweep that finds nothing new)', async () => {
    const registry = new WaiterRegistry(bounds);
    const waiter = registry.acquire('waits', 'acme', [A])!;
    waiter.saw(A, 'processing');
    const woke = waiter.wait(50);
    registry.observe(A, 'processing');
    await expect(woke).resolves.toBe('timeout');
  });

  it('keeps a change that came between subscribing and waiting, so none is missed', async () => {
    const registry = new WaiterRegistry(bounds);
    const waiter = registry.acquire('waits', 'acme', [A])!;
    registry.observe(A, 'completed'); // before the waiter read anything
    await expect(waiter.wait(5000)).resolves.toBe('changed');
  });

  it('wakes again when a read and a notification cross (the read older than the notification)', async () => {
    const registry = new WaiterRegistry(bounds);
    const waiter = registry.acquire('waits', 'acme', [A])!;
    registry.observe(A, 'completed');
    await waiter.wait(0); // took the first wake
    waiter.saw(A, 'processing'); // a read that started before the search ended
    await expect(waiter.wait(5000)).resolves.toBe('changed');
  });

  it('releases every waiter at close and takes no new ones', async () => {
    const registry = new WaiterRegistry(bounds);
    const waiter = registry.acquire('streams', 'acme', [A])!;
    const woke = waiter.wait(60_000);
    registry.close();
    await expect(woke).resolves.toBe('released');
    expect(waiter.released).toBe(true);
    expect(registry.acquire('waits', 'acme', [A])).toBeNull();
    expect(registry.watchedIds()).toEqual([]);
    expect(registry.count('streams')).toBe(0);
  });

  it('lists each watched search once for the periodic read, and forgets it with its last waiter', () => {
    const registry = new WaiterRegistry(bounds);
    const one = registry.acquire('waits', 'acme', [A, B])!;
    const two = registry.acquire('waits', 'globex', [A])!;
    expect(registry.watchedIds().sort()).toEqual([A, B]);
    one.release();
    expect(registry.watchedIds()).toEqual([A]);
    two.release();
    expect(registry.watchedIds()).toEqual([]);
  });
});

describe('waitUntil', () => {
  it('answers as soon as the state ends, reading again only when woken', async () => {
    const registry = new WaiterRegistry(bounds);
    const waiter = registry.acquire('waits', 'acme', [A])!;
    let status: 'processing' | 'completed' = 'processing';
    let reads = 0;
    setTimeout(() => {
      status = 'completed';
      registry.observe(A, 'completed');
    }, 100);
    const started = Date.now();
    const ended = await waitUntil(
      waiter,
      30,
      async () => {
        reads++;
        waiter.saw(A, status);
        return status;
      },
      (s) => s === 'completed',
    );
    expect(ended).toBe('completed');
    // Far below the 30 s it may wait, with room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(reads).toBe(2);
  }, 40_000);

  it('answers the state it reads when the time is up', async () => {
    const registry = new WaiterRegistry(bounds);
    const waiter = registry.acquire('waits', 'acme', [A])!;
    const started = Date.now();
    const value = await waitUntil(
      waiter,
      1,
      async () => 'processing',
      () => false,
    );
    expect(value).toBe('processing');
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('answers at once when the waiter is released (the client left, or the process drains)', async () => {
    const registry = new WaiterRegistry(bounds);
    const waiter = registry.acquire('waits', 'acme', [A])!;
    setTimeout(() => registry.close(), 50);
    const started = Date.now();
    await waitUntil(
      waiter,
      30,
      async () => 'processing',
      () => false,
    );
    expect(Date.now() - started).toBeLessThan(10_000); // of the 30 s it may wait
  }, 40_000);

  it('reads again at once when it watches new searches (a group’s members), which may have ended before', async () => {
    const registry = new WaiterRegistry(bounds);
    const waiter = registry.acquire('waits', 'acme')!;
    const reads: string[][] = [[A], [A, B], [A, B]];
    let n = 0;
    const sleeps = jest.spyOn(waiter, 'wait');
    const value = await waitUntil(
      waiter,
      1,
      async () => reads[Math.min(n++, 2)],
      (ids) => n > 2 && ids.length === 2,
      (ids) => ids,
    );
    expect(value).toEqual([A, B]);
    expect(n).toBe(3);
    expect(sleeps).not.toHaveBeenCalled();
    expect(registry.watchedIds().sort()).toEqual([A, B]);
  });
});
