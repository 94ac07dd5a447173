import { DEFAULT_RETRY_SCHEDULE, baseDelayMs, nextRetry } from './retry-schedule';

const SECOND = 1000;
const HOUR = 3600 * SECOND;

describe('the retry schedule', () => {
  it('waits 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 3 h', () => {
    const waits = Array.from({ length: 9 }, (_, i) => baseDelayMs(DEFAULT_RETRY_SCHEDULE, i + 1) / SECOND);
    expect(waits).toEqual([5, 30, 120, 600, 1800, 3600, 10_800, 10_800, 10_800]);
  });

  it('spreads each wait by at most 20 % either way', () => {
    const first = new Date(0);
    expect(nextRetry(DEFAULT_RETRY_SCHEDULE, 1, first, first, () => 0)).toEqual({ retry: true, delayMs: 4000 });
    expect(nextRetry(DEFAULT_RETRY_SCHEDULE, 1, first, first, () => 0.5)).toEqual({ retry: true, delayMs: 5000 });
    expect(nextRetry(DEFAULT_RETRY_SCHEDULE, 1, first, first, () => 0.999_999)).toEqual({ retry: true, delayMs: 6000 });
  });

  it('gives up once the next attempt would start more than 24 h after the first', () => {
    const first = new Date(0);
    const middle = () => 0.5;
    expect(nextRetry(DEFAULT_RETRY_SCHEDULE, 13, first, new Date(21 * HOUR), middle)).toEqual({ retry: true, delayMs: 3 * HOUR });
    expect(nextRetry(DEFAULT_RETRY_SCHEDULE, 14, first, new Date(21 * HOUR + 1), middle)).toEqual({ retry: false });
  });

  it('makes 14 attempts within 24 h when every one fails, with the jitter at its middle', () => {
    const first = new Date(0);
    let now = first;
    let attempts = 1;
    for (;;) {
      const decision = nextRetry(DEFAULT_RETRY_SCHEDULE, attempts, first, now, () => 0.5);
      if (!decision.retry) break;
      now = new Date(now.getTime() + decision.delayMs);
      attempts++;
    }
    expect(attempts).toBe(14);
    expect(now.getTime() / HOUR).toBeCloseTo(22.71, 1);
  });

  it('repeats the last wait of a short schedule, as the tests configure it', () => {
    const schedule = { delaysMs: [200], retryForMs: 10 * SECOND };
    expect(baseDelayMs(schedule, 1)).toBe(200);
    expect(baseDelayMs(schedule, 7)).toBe(200);
  });
});
