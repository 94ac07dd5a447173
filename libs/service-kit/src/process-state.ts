/** What the process is doing, for its health answers and its exit code. */
export const processState = {
  /** Set at SIGTERM: readiness answers 503 from then on, while requests are still served. */
  draining: false,
  /** Why the process stops on its own (a loop that cannot recover): it exits 1 after a graceful stop. */
  failed: undefined as string | undefined,
};

const drainHooks = new Set<() => void>();

/** Runs `hook` when the process starts draining (SIGTERM), e.g. to answer requests held open; the result unregisters it. */
export function onDrain(hook: () => void): () => void {
  drainHooks.add(hook);
  return () => drainHooks.delete(hook);
}

/** Marks the process draining and tells those who asked. */
export function startDraining(): void {
  processState.draining = true;
  for (const hook of drainHooks) hook();
}

/** A part of the process that can break without the process dying: what is wrong with it, if anything. */
export type LivenessCheck = () => { ok: boolean; problems: string[] };

const livenessChecks = new Map<string, LivenessCheck>();

/** Registers a part of the process whose health `/healthz` (on the metrics port) reports. */
export function watchLiveness(name: string, check: LivenessCheck): void {
  livenessChecks.set(name, check);
}

/** Every registered part's health: problems named by part. */
export function liveness(): { ok: boolean; problems: string[] } {
  const problems = [...livenessChecks].flatMap(([name, check]) => check().problems.map((p) => `${name}: ${p}`));
  return { ok: problems.length === 0, problems };
}

/**
 * Stops the process for a reason it cannot mend itself: logged by the caller, then the usual
 * graceful stop (SIGTERM), and exit code 1 so that the orchestrator restarts it.
 */
export function failProcess(reason: string): void {
  if (processState.failed) return;
  processState.failed = reason;
  process.kill(process.pid, 'SIGTERM');
}
