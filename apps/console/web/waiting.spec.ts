import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { Answer } from './api';
import { FIRST_DELAY_MS, MAX_DELAY_MS, MIN_INTERVAL_MS, nextRead, preferenceApplied, waitFor } from './waiting';

const answer = (status: string, applied: boolean): Answer<{ status: string }> => ({
  status: 200,
  headers: new Headers(applied ? { 'Preference-Applied': 'wait=10' } : {}),
  body: { status },
});

describe('reading a status until it is final', () => {
  it('reads Preference-Applied as RFC 7240 writes it, and nothing else', () => {
    expect(preferenceApplied(new Headers({ 'Preference-Applied': 'wait=10' }))).toBe(true);
    expect(preferenceApplied(new Headers({ 'Preference-Applied': 'respond-async, wait=5' }))).toBe(true);
    expect(preferenceApplied(new Headers({ 'Preference-Applied': 'return=minimal' }))).toBe(false);
    expect(preferenceApplied(new Headers({ 'Preference-Applied': 'waiting=3' }))).toBe(false);
    expect(preferenceApplied(new Headers())).toBe(false);
  });

  it('backs off from 1 s by half again each read, up to 5 s, when the server does not wait', () => {
    let delayMs = FIRST_DELAY_MS;
    const pauses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const next = nextRead({ delayMs, lastStartMs: 0, nowMs: 100, applied: false });
      pauses.push(next.atMs - 100);
      delayMs = next.delayMs;
    }
    expect(pauses).toEqual([1000, 1500, 2250, 3375, 5000, 5000, 5000]);
    expect(Math.max(...pauses)).toBe(MAX_DELAY_MS);
  });

  it('reads again at once after a read the server held, but never twice within a second', () => {
    // Held for 8 s: the next read may start now.
    expect(nextRead({ delayMs: 3375, lastStartMs: 0, nowMs: 8000, applied: true })).toEqual({ atMs: 8000, delayMs: FIRST_DELAY_MS });
    // Answered after 200 ms (the status changed): the next waits for the second to pass.
    expect(nextRead({ delayMs: 1000, lastStartMs: 0, nowMs: 200, applied: true }).atMs).toBe(MIN_INTERVAL_MS);
  });

  describe('against a server', () => {
    beforeEach(() => {
      jest.useFakeTimers({ now: 0 });
    });
    afterEach(() => {
      jest.useRealTimers();
    });

    async function run(applied: boolean, heldMs: number, finalAt: number) {
      const starts: number[] = [];
      const headers: Record<string, string>[] = [];
      const done = waitFor(
        async (sent) => {
          starts.push(Date.now());
          headers.push(sent);
          // A server that honours Prefer holds the read; one that does not answers at once.
          if (heldMs) await new Promise((resolve) => setTimeout(resolve, heldMs));
          return answer(starts.length >= finalAt ? 'completed' : 'processing', applied);
        },
        (body) => body.status === 'completed',
        { deadlineMs: 60_000 },
      );
      await jest.advanceTimersByTimeAsync(60_000);
      return { body: await done, starts, headers };
    }

    it('sends Prefer: wait on every read and follows a server that applies it', async () => {
      const { body, starts, headers } = await run(true, 4000, 3);
      expect(body).toEqual({ status: 'completed' });
      expect(headers).toEqual([{ Prefer: 'wait=10' }, { Prefer: 'wait=10' }, { Prefer: 'wait=10' }]);
      expect(starts).toEqual([0, 4000, 8000]);
    });

    it('polls a server that ignores it with a growing delay', async () => {
      const { starts } = await run(false, 0, 4);
      expect(starts).toEqual([0, 1000, 2500, 4750]);
    });

    it('gives up past its deadline', async () => {
      const done = waitFor(
        async () => answer('processing', false),
        () => false,
        { deadlineMs: 10_000 },
      );
      const failed = expect(done).rejects.toThrow(/gave up waiting/);
      await jest.advanceTimersByTimeAsync(20_000);
      await failed;
    });
  });
});
