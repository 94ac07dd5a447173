import type { Answer } from './api';
import { sleep } from './dom';

/** The first pause between two status reads, its growth, and its ceiling. */
export const FIRST_DELAY_MS = 1000;
const GROWTH = 1.5;
export const MAX_DELAY_MS = 5000;
/** Never more often than this, whatever the server answers (the contract: at most once a second). */
export const MIN_INTERVAL_MS = 1000;
/** How long a read may ask the server to hold it (`Prefer: wait=N`). */
export const PREFER_WAIT_SECONDS = 10;

/** Whether the server honoured `Prefer: wait` (RFC 7240's `Preference-Applied: wait=N`). */
export function preferenceApplied(headers: Headers): boolean {
  return /(^|[\s,;])wait(\s*=\s*\d+)?($|[\s,;])/i.test(headers.get('Preference-Applied') ?? '');
}

/**
 * When the next read may start. A server that applied `Prefer: wait` held the read until
 * something changed or its wait ran out, so reading again at once is right; otherwise the pause
 * grows from 1 s to 5 s. Either way, reads start at least a second apart.
 */
export function nextRead(state: { delayMs: number; lastStartMs: number; nowMs: number; applied: boolean }): {
  atMs: number;
  delayMs: number;
} {
  const delayMs = state.applied ? FIRST_DELAY_MS : Math.min(MAX_DELAY_MS, Math.round(state.delayMs * GROWTH));
  const wanted = state.applied ? state.nowMs : state.nowMs + state.delayMs;
  return { atMs: Math.max(wanted, state.lastStartMs + MIN_INTERVAL_MS), delayMs };
}

/**
 * Reads a status until `isFinal` says so, or throws after `deadlineMs`. Every read sends
 * `Prefer: wait=N`; servers that ignore it are polled with a growing delay.
 */
export async function waitFor<T>(
  read: (headers: Record<string, string>) => Promise<Answer<T>>,
  isFinal: (body: T) => boolean,
  options: { deadlineMs: number; signal?: AbortSignal; onRead?: (body: T) => void },
): Promise<T> {
  const started = Date.now();
  let delayMs = FIRST_DELAY_MS;
  for (;;) {
    const lastStartMs = Date.now();
    const answer = await read({ Prefer: `wait=${PREFER_WAIT_SECONDS}` });
    options.onRead?.(answer.body);
    if (isFinal(answer.body)) return answer.body;
    const now = Date.now();
    if (now - started > options.deadlineMs)
      throw new Error(`still not finished after ${Math.round((now - started) / 1000)} s; gave up waiting`);
    const next = nextRead({ delayMs, lastStartMs, nowMs: now, applied: preferenceApplied(answer.headers) });
    delayMs = next.delayMs;
    if (next.atMs > now) await sleep(next.atMs - now, options.signal);
  }
}
