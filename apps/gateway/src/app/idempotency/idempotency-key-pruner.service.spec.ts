import type { IdempotencyKeysRepository } from '@cs/records';
import { IdempotencyKeyPrunerService } from './idempotency-key-pruner.service';

/** A repository whose expired rows are a number, deleted `limit` at a time. */
function fakeKeys(expired: number) {
  const calls: number[] = [];
  const keys = {
    pruneExpired: (limit: number) => {
      calls.push(limit);
      const deleted = Math.min(limit, expired);
      expired -= deleted;
      return Promise.resolve(deleted);
    },
  };
  return { keys: keys as unknown as IdempotencyKeysRepository, calls, left: () => expired };
}

describe('IdempotencyKeyPrunerService', () => {
  it('deletes in batches of 1,000 until a batch comes back short', async () => {
    const { keys, calls, left } = fakeKeys(2500);
    expect(await new IdempotencyKeyPrunerService(keys).prune()).toBe(2500);
    expect(calls).toEqual([1000, 1000, 1000]);
    expect(left()).toBe(0);
  });

  it('stops a pass at 20 batches, leaving the rest to the next pass', async () => {
    const { keys, calls, left } = fakeKeys(50_000);
    const pruner = new IdempotencyKeyPrunerService(keys);
    expect(await pruner.prune()).toBe(20_000);
    expect(calls).toHaveLength(20);
    expect(left()).toBe(30_000);
    expect(await pruner.prune()).toBe(20_000);
  });

  it('runs one pass at a time, and survives a database that fails', async () => {
    const { keys, calls } = fakeKeys(10);
    const pruner = new IdempotencyKeyPrunerService(keys);
    const [a, b] = await Promise.all([pruner.prune(), pruner.prune()]);
    expect([a, b, calls.length]).toEqual([10, 10, 1]);
    const failing = { pruneExpired: () => Promise.reject(new Error('database down')) } as unknown as IdempotencyKeysRepository;
    expect(await new IdempotencyKeyPrunerService(failing).prune()).toBe(0);
  });
});
