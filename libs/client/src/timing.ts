import { abortError } from './errors';

/** Resolves after ms, or rejects with the signal's AbortError as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Full jitter (AWS's): a random delay in [0, min(cap, base * 2^attempt)), so retrying clients spread out. */
export function fullJitter(attempt: number, baseMs = 500, capMs = 8_000, random: () => number = Math.random): number {
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** attempt));
}

/**
 * The contract's polling pace: a growing delay from 1 s (x1.5 a poll, at most 5 s), never under
 * one second, so a minute holds about 15 polls (the contract: give up after about 60 s, 20 attempts).
 */
export function pollDelay(poll: number): number {
  return Math.max(1_000, Math.min(5_000, Math.round(1_000 * 1.5 ** poll)));
}

/**
 * A signal that aborts when the caller's does or when timeoutMs passes, telling the two apart:
 * `expired()` is true only for the timeout. `dispose()` clears the timer and the listener;
 * `stopTimer()` only the timer (a stream still follows the caller's signal).
 */
export function withDeadline(
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): { signal: AbortSignal; deadline: number; expired(): boolean; stopTimer(): void; dispose(): void } {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort(new DOMException('deadline passed', 'TimeoutError'));
        }, timeoutMs);
  return {
    signal: controller.signal,
    deadline,
    expired: () => timedOut && !signal?.aborted,
    stopTimer: () => clearTimeout(timer),
    dispose: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/** A random v4 UUID: crypto.randomUUID where it exists (Node, secure browser contexts), else built from getRandomValues. */
export function randomId(): string {
  const c = globalThis.crypto as typeof globalThis.crypto | undefined;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const b = new Uint8Array(16);
  c!.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
