import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { JobFailure } from '@cs/contracts';
import { JOB_QUEUE, type Job, type JobOutcome, type JobPayloads, type JobQueue } from '@cs/ports';
import { DocumentsRepository, SearchesRepository } from '@cs/records';
import { MAX_PROCESSING_MS } from '@cs/search-domain';
import { InjectConfig } from '@cs/service-kit';
import { SearchMetrics } from './search-metrics';
import { SearchPipelineService } from './search-pipeline.service';

/** Deliveries after which a temporary failure fails the search (retryable) instead of retrying. */
export const SEARCH_MAX_ATTEMPTS = 3;

/**
 * Runs a queued search: initiated -> processing -> completed | failed. Idempotent by search id:
 * a finished search is never run again, and the result is stored only while it still runs.
 */
@Injectable()
export class RunSearchHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger(RunSearchHandler.name);

  constructor(
    private readonly searches: SearchesRepository,
    private readonly documents: DocumentsRepository,
    private readonly pipeline: SearchPipelineService,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @InjectConfig('searchConcurrency') private readonly concurrency: AppConfig['searchConcurrency'],
    private readonly metrics: SearchMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.consume('search', this.concurrency, (job) => this.handle(job));
  }

  async handle(job: Job<JobPayloads['search']>): Promise<JobOutcome> {
    const search = await this.searches.getById(job.payload.searchId);
    if (!search || search.status === 'completed' || search.status === 'failed') return { ack: true };
    const remainingMs = search.createdAt.getTime() + MAX_PROCESSING_MS[search.searchType] - Date.now();
    if (remainingMs <= 0) {
      await this.searches.fail(search.id, 'the search ran past its maximum time; start a new one', true);
      return { ack: true };
    }
    if (!(await this.searches.markProcessing(search.id))) return { ack: true };
    const started = performance.now();
    try {
      const { results, metadata, facets, matchOutcome } = await withDeadline(this.pipeline.run(search), remainingMs);
      // Asked only when nothing was found, so a search that finds CVs pays no extra query.
      if (results.length === 0 && (await this.documents.countCompleted(search.companyId)) === 0) {
        throw new JobFailure('the company has no searchable documents; upload CVs and wait until they are completed', false);
      }
      const processingTimeMs = Math.max(1, Math.round(performance.now() - started));
      if (await this.searches.complete(search.id, results, metadata, processingTimeMs, facets ?? null, matchOutcome ?? null)) {
        this.metrics.ended(search.searchType, 'completed', processingTimeMs, metadata.stageTimingsMs);
      }
      return { ack: true };
    } catch (error) {
      if (error instanceof JobFailure && !(error.retryable && job.attempt < SEARCH_MAX_ATTEMPTS)) {
        await this.searches.fail(search.id, error.message, error.retryable);
        this.metrics.ended(search.searchType, 'failed', performance.now() - started);
        return { ack: true };
      }
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`search ${search.id} failed on attempt ${job.attempt}: ${reason}`);
      if (job.attempt >= SEARCH_MAX_ATTEMPTS) {
        await this.searches.fail(search.id, 'a temporary problem stopped the search; start a new one', true);
        this.metrics.ended(search.searchType, 'failed', performance.now() - started);
        return { ack: true };
      }
      // A dependency may be back in a moment: the queue delivers the job again after a backoff.
      return { ack: false, retry: true, reason };
    }
  }
}

export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JobFailure('the search ran past its maximum time; start a new one', true)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
