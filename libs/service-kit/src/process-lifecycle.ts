/** A part of the process that can break without the process dying: what is wrong with it, if anything. */
export type LivenessCheck = () => { ok: boolean; problems: string[] };

/**
 * What the process is doing, for its health answers and its exit code: draining since SIGTERM,
 * the health of its own loops, and why it stops on its own. One per process (ProcessModule
 * provides it); the bootstrap's signal handler reaches it with `app.get(ProcessLifecycle)`.
 */
export class ProcessLifecycle {
  private isDraining = false;
  private failure: string | undefined;
  private readonly drainHooks = new Set<() => void>();
  private readonly livenessChecks = new Map<string, LivenessCheck>();

  /** `stop`: how the process asks itself to stop gracefully (a test passes its own, not a SIGTERM to the test runner). */
  constructor(private readonly stop: () => void = () => process.kill(process.pid, 'SIGTERM')) {}

  /** Set at SIGTERM: readiness answers 503 from then on, while requests are still served. */
  get draining(): boolean {
    return this.isDraining;
  }

  /** Why the process stops on its own (a loop that cannot recover): it exits 1 after a graceful stop. */
  get failed(): string | undefined {
    return this.failure;
  }

  /** Runs `hook` when the process starts draining (SIGTERM), e.g. to answer requests held open; the result unregisters it. */
  onDrain(hook: () => void): () => void {
    this.drainHooks.add(hook);
    return () => this.drainHooks.delete(hook);
  }

  /** Marks the process draining and tells those who asked. */
  startDraining(): void {
    this.isDraining = true;
    for (const hook of this.drainHooks) hook();
  }

  /** Registers a part of the process whose health `/healthz` reports. */
  watchLiveness(name: string, check: LivenessCheck): void {
    this.livenessChecks.set(name, check);
  }

  /** Every registered part's health: problems named by part. */
  liveness(): { ok: boolean; problems: string[] } {
    const problems = [...this.livenessChecks].flatMap(([name, check]) => check().problems.map((p) => `${name}: ${p}`));
    return { ok: problems.length === 0, problems };
  }

  /**
   * Stops the process for a reason it cannot mend itself: logged by the caller, then the usual
   * graceful stop (SIGTERM), and exit code 1 so that the orchestrator restarts it.
   */
  fail(reason: string): void {
    if (this.failure) return;
    this.failure = reason;
    this.stop();
  }
}
