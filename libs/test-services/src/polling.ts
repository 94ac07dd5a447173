import { setTimeout as sleep } from 'node:timers/promises';

// Taken at load, before any test installs fake timers: the helpers wait in real time even under
// them (node:timers/promises and a captured hrtime are not what jest fakes).
const hrtime = process.hrtime.bigint.bind(process.hrtime);
const monotonicMs = () => Number(hrtime() / 1_000_000n);

export interface PollOptions {
  /** How long to keep trying before failing; 20 s unless told (a loaded CI machine may take seconds). */
  timeoutMs?: number;
  /** The pause between tries; 10 ms unless told. */
  intervalMs?: number;
}

/**
 * Runs `assertion` until it passes and returns its value; after `timeoutMs` of failures, throws
 * its last failure, prefixed with how long it was tried. For what a test must wait for: a job
 * delivered, a row written, a status reached.
 */
export async function eventually<T>(
  assertion: () => T | Promise<T>,
  { timeoutMs = 20_000, intervalMs = 10 }: PollOptions = {},
): Promise<T> {
  const deadline = monotonicMs() + timeoutMs;
  let tries = 0;
  for (;;) {
    tries++;
    try {
      return await assertion();
    } catch (error) {
      if (monotonicMs() >= deadline) throw failedFor(`still failing after ${timeoutMs} ms (${tries} tries)`, error);
    }
    await sleep(intervalMs);
  }
}

/** Waits until `predicate` holds, like {@link eventually}; `what` names the condition in the failure. */
export async function waitFor(
  predicate: () => boolean | Promise<boolean>,
  { what = 'the condition', ...options }: PollOptions & { what?: string } = {},
): Promise<void> {
  await eventually(async () => {
    if (!(await predicate())) throw new Error(`${what} did not hold`);
  }, options);
}

/** The last failure's message (a matcher's diff, say), with the failure itself as the cause. */
function failedFor(context: string, error: unknown): Error {
  return new Error(`${context}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
