import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { IdempotencyKeysRepository } from '@cs/records';

/** A pass every minute deletes expired keys in batches of 1,000, at most 20 batches: one pass is bounded in time and locks. */
const PRUNE_EVERY_MS = 60_000;
const BATCH = 1000;
const BATCHES_A_PASS = 20;

/**
 * Deletes Idempotency-Key rows past their expiry (answers past the TTL, claims past their lease).
 * A pass keeps up with 20,000 new keys a minute, far above what the rate limits let companies
 * send; each gateway replica runs one, and they skip the rows another is deleting.
 */
@Injectable()
export class IdempotencyKeyPrunerService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Idempotency');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;

  constructor(private readonly keys: IdempotencyKeysRepository) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; returns how many rows went. A pass still running is not doubled. */
  prune(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private async pass(): Promise<number> {
    let pruned = 0;
    try {
      for (let batch = 0; batch < BATCHES_A_PASS; batch++) {
        const deleted = await this.keys.pruneExpired(BATCH);
        pruned += deleted;
        if (deleted < BATCH) break;
      }
    } catch (error) {
      this.logger.warn(`pruning expired idempotency keys failed: ${String(error)}`);
    }
    if (pruned) this.logger.log(`pruned ${pruned} expired idempotency keys`);
    return pruned;
  }
}
