import { describeWith, type TestNeed } from '@cs/test-services';
import { RateLimiterService, type RateLimitStore } from './rate-limiter';

/** What every rate-limit store must do, run by each store's spec. */
export function describeRateLimitStoreContract(
  name: string,
  open: () => Promise<{ store: RateLimitStore; close: () => Promise<void> }>,
  needs: TestNeed[] = [],
) {
  describeWith(needs)(`rate limits on ${name}`, () => {
    let opened: Awaited<ReturnType<typeof open>> | null = null;
    beforeAll(async () => {
      opened = await open();
    });
    afterAll(() => opened?.close());
    const test = (title: string, fn: (service: RateLimiterService) => Promise<void>) =>
      it(title, async () => {
        if (!opened) throw new Error('the store did not open');
        await fn(new RateLimiterService(opened.store));
      });

    test('admits the limit, refuses the next, and reports what is left', async (limits) => {
      const seen = [];
      for (let i = 0; i < 11; i++) seen.push((await limits.consume('key-a', ['search']))[0]);
      expect(seen.slice(0, 10).map((s) => s.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      expect(seen[10]).toMatchObject({ exceeded: true, remaining: 0, rule: { limit: 10, window: '1 minute' } });
      expect(seen[10].retryAfterSeconds).toBeGreaterThan(0);
    });

    test('does not count a refused request in the category that still had room', async (limits) => {
      for (let i = 0; i < 10; i++) await limits.consume('key-b', ['upload-burst', 'upload-sustained']);
      const refused = await limits.consume('key-b', ['upload-burst', 'upload-sustained']);
      expect(refused.find((s) => s.category === 'upload-burst')?.exceeded).toBe(true);
      const sustained = refused.find((s) => s.category === 'upload-sustained');
      expect(sustained).toMatchObject({ exceeded: false, remaining: 10 });
    });

    test('applies a per-company override', async (limits) => {
      const states = await limits.consume('key-c', ['search'], { search: 50 });
      expect(states[0]).toMatchObject({ remaining: 49, rule: { limit: 50 } });
    });

    test('keeps keys apart', async (limits) => {
      for (let i = 0; i < 10; i++) await limits.consume('key-d', ['search']);
      expect((await limits.consume('key-e', ['search']))[0].remaining).toBe(9);
    });
  });
}
