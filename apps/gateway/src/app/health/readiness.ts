import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  DENSE_CLIENT,
  JOB_QUEUE,
  SQL_CLIENT,
  SPARSE_CLIENT,
  STARTUP_WORK,
  type DenseClient,
  type JobQueue,
  type SparseClient,
  type SqlClient,
  type StartupWork,
} from '@cs/ports';
import { RateLimiterService } from '@cs/rate-limits';

export interface Readiness {
  ready: boolean;
  /** Each dependency this process has: `up`, or `down: <why>`. */
  checks: Record<string, string>;
}

/** Probes come every few seconds from each kubelet and load balancer: one round of checks serves them all for this long. */
const CACHE_MS = 2000;
/** A dependency that does not answer in this long is down for the probe's purpose. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * Whether the gateway can serve: the database, the rate-limit counters (Redis), the job queue
 * (NATS), in the cluster the dense and sparse services' standard gRPC health, and in the
 * standalone a rebuild of its indexes under way. Each is checked in parallel, with a deadline; the
 * answer names what is down.
 */
@Injectable()
export class ReadinessService {
  private last: { at: number; answer: Promise<Readiness> } | undefined;
  private readonly checks: Record<string, () => Promise<unknown>>;

  constructor(
    @Inject(SQL_CLIENT) sql: SqlClient,
    limiter: RateLimiterService,
    @Inject(JOB_QUEUE) queue: JobQueue,
    @Inject(DENSE_CLIENT) dense: DenseClient,
    @Inject(SPARSE_CLIENT) sparse: SparseClient,
    @Optional() @Inject(STARTUP_WORK) startup?: StartupWork,
  ) {
    this.checks = {
      database: () => sql.query('SELECT 1'),
      rateLimits: () => limiter.ping(),
      ...(queue.ping ? { queue: () => queue.ping!() } : {}),
      ...(dense.health ? { dense: () => dense.health!() } : {}),
      ...(sparse.health ? { sparse: () => sparse.health!() } : {}),
      ...(startup ? { [startup.name]: async () => throwIf(startup.pending()) } : {}),
    };
  }

  check(): Promise<Readiness> {
    if (!this.last || Date.now() - this.last.at > CACHE_MS) this.last = { at: Date.now(), answer: this.run() };
    return this.last.answer;
  }

  private async run(): Promise<Readiness> {
    const names = Object.keys(this.checks);
    const outcomes = await Promise.allSettled(names.map((name) => withDeadline(this.checks[name]())));
    const checks = Object.fromEntries(
      names.map((name, i) => {
        const outcome = outcomes[i];
        return [name, outcome.status === 'fulfilled' ? 'up' : `down: ${reasonOf(outcome.reason)}`];
      }),
    );
    return { ready: Object.values(checks).every((c) => c === 'up'), checks };
  }
}

function throwIf(pending: string | null): void {
  if (pending) throw new Error(pending);
}

function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200) || 'failed';
}

async function withDeadline(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)),
  );
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
