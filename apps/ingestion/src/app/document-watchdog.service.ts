import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { JOB_QUEUE, type JobQueue } from '@cs/ports';
import { DocumentsRepository } from '@cs/records';
import { IngestionMetrics } from './ingestion-metrics';

/**
 * A document waiting (uploading or pending) this long has lost its job: an upload takes seconds
 * and a parse at most a minute, and the queue redelivers a crashed worker's job within minutes.
 */
export const STUCK_DOCUMENT_MS = 15 * 60_000;
/** Requeued every STUCK_DOCUMENT_MS meanwhile; past this age it is failed, retryable, so the client uploads it again. */
export const GIVE_UP_DOCUMENT_MS = 2 * 3600_000;
const SWEEP_MS = 60_000;
const BATCH = 100;

/**
 * No document stays uploading or pending for good: this requeues its ingestion job, and fails it
 * retryable once it is too old, counted in `cs_stuck_documents_total{action}`.
 */
@Injectable()
export class DocumentWatchdogService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DocumentWatchdogService.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly documents: DocumentsRepository,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    private readonly metrics: IngestionMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.metrics.observeStuckDocuments(() => this.documents.countStuck(STUCK_DOCUMENT_MS));
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** One sweep; what it did, by action. */
  async sweep(staleMs = STUCK_DOCUMENT_MS, giveUpMs = GIVE_UP_DOCUMENT_MS): Promise<{ requeued: string[]; failed: string[] }> {
    const done = { requeued: [] as string[], failed: [] as string[] };
    try {
      // Under a backlog older than the bound, a waiting document may simply be queued (a 100k
      // upload queues for tens of minutes): only when every queued job is younger can one that
      // waits longer have lost its job.
      const ingestion = (await this.queue.stats()).find((s) => s.kind === 'ingestion');
      if (ingestion && ingestion.oldestJobAgeSeconds * 1000 >= staleMs) return done;
      for (const { id, createdAt } of await this.documents.takeStuck(staleMs, BATCH)) {
        if (Date.now() - createdAt.getTime() > giveUpMs) {
          // The same bytes uploaded again would be answered as a duplicate of this document: delete it first.
          await this.documents.setStatus(id, 'failed', 'Processing never started; delete this document and upload the file again', {
            message: 'the document waited past its bound without being processed',
            retryable: true,
          });
          done.failed.push(id);
        } else {
          await this.queue.publish('ingestion', id, { documentId: id });
          done.requeued.push(id);
        }
      }
    } catch (error) {
      this.logger.error(`document watchdog sweep failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const action of ['requeued', 'failed'] as const) {
      if (done[action].length === 0) continue;
      this.metrics.stuckDocumentsHandled(action, done[action].length);
      this.logger.warn({ documentIds: done[action] }, `watchdog ${action} ${done[action].length} stuck documents`);
    }
    return done;
  }
}
