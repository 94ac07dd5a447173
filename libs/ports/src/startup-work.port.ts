/**
 * Work a process must finish after it starts before it can serve all it holds (a rebuild of its
 * indexes): /readyz says not ready, and why, until it is done.
 */
export interface StartupWork {
  /** The readiness check's name. */
  readonly name: string;
  /** Null once done; else what is under way, as /readyz shows it. */
  pending(): string | null;
}
export const STARTUP_WORK = Symbol('StartupWork');
