import { eventually, waitFor } from './polling';

describe('eventually', () => {
  it('returns the value of the first try that passes, and tries no more', async () => {
    let tries = 0;
    const value = await eventually(
      () => {
        tries++;
        if (tries < 3) throw new Error(`not yet (${tries})`);
        return 'done';
      },
      { intervalMs: 1 },
    );
    expect([value, tries]).toEqual(['done', 3]);
  });

  it('throws the last failure, saying for how long it was tried', async () => {
    let tries = 0;
    const failure = await eventually(
      () => {
        tries++;
        throw new Error(`still down (try ${tries})`);
      },
      { timeoutMs: 30, intervalMs: 5 },
    ).catch((error: unknown) => error as Error);
    expect(failure.message).toBe(`still failing after 30 ms (${tries} tries): still down (try ${tries})`);
    expect(tries).toBeGreaterThan(1);
    expect((failure.cause as Error).message).toBe(`still down (try ${tries})`);
  });

  it('waits in real time under fake timers', async () => {
    jest.useFakeTimers();
    try {
      let tries = 0;
      await expect(eventually(() => ++tries >= 2 || Promise.reject(new Error('first')), { intervalMs: 1 })).resolves.toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('waitFor', () => {
  it('resolves once the predicate holds, and names the condition when it never does', async () => {
    let ready = false;
    setTimeout(() => (ready = true), 5);
    await waitFor(() => ready);
    await expect(waitFor(async () => false, { timeoutMs: 20, what: 'the job delivered' })).rejects.toThrow(
      /^still failing after 20 ms \(\d+ tries\): the job delivered did not hold$/,
    );
  });
});
