/**
 * When a failed delivery is tried again: the n-th failure waits `delaysMs[n-1]` (the last delay
 * repeats once the list is spent), spread by ±20 % so that endpoints that failed together are not
 * retried together; a delivery whose next attempt would start more than `retryForMs` after its
 * first is failed for good instead.
 */
export interface RetrySchedule {
  delaysMs: readonly number[];
  retryForMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 3 h: an endpoint down for a deploy is caught
 * within seconds, one down for a night within hours: 14 attempts in all (jitter aside), the last
 * about 22 h 40 min after the first.
 */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  delaysMs: [5 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR],
  retryForMs: 24 * HOUR,
};

/** ±20 %: enough to spread a burst of failures, little enough to keep the schedule readable. */
const JITTER = 0.2;

/** The wait after the `failures`-th failed attempt (1 for the first), before jitter. */
export function baseDelayMs(schedule: RetrySchedule, failures: number): number {
  const { delaysMs } = schedule;
  return delaysMs[Math.min(Math.max(failures, 1), delaysMs.length) - 1];
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * After a failed attempt: when to try again, or not at all. `firstAttemptAt` is when the delivery
 * was first due (its event's fan-out); `random` in [0, 1) picks the jitter.
 */
export function nextRetry(
  schedule: RetrySchedule,
  failures: number,
  firstAttemptAt: Date,
  now: Date,
  random: () => number = Math.random,
): RetryDecision {
  const delayMs = Math.round(baseDelayMs(schedule, failures) * (1 - JITTER + 2 * JITTER * random()));
  if (now.getTime() + delayMs - firstAttemptAt.getTime() > schedule.retryForMs) return { retry: false };
  return { retry: true, delayMs };
}
