import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { JobFailure, http } from '@cs/contracts';
import { SavedSearchesRepository, type ClaimedArrivals, type SavedSearchRecord, type SavedSearchRun } from '@cs/records';
import { MAX_PROCESSING_MS } from '@cs/search-domain';
import { InjectConfig } from '@cs/service-kit';
import { withDeadline } from '../run-search.handler';
import { SearchPipelineService } from '../search-pipeline.service';
import type { SearchCommand } from '../stages/search-command';

/**
 * CVs one run takes at most, and how long its claim on them holds: a process that stops mid-run
 * lets the claim run out, and the next run (here or in another replica) takes them again.
 */
export const SAVED_SEARCH_RUN = { arrivals: 1000, leaseMs: 5 * 60_000 } as const;

/** A saved search as the pipeline runs it: its first page, whatever the type (the rerankers return `rerankTopN`). */
export const savedSearchCommand = (saved: SavedSearchRecord): SearchCommand => ({
  type: saved.searchType,
  companyId: saved.companyId,
  query: saved.query,
  similarTo: null,
  match: null,
  topK: saved.topK,
  rerankTopN: saved.topK,
  filter: saved.resolvedFilter,
});

/**
 * Runs the saved searches again once CVs are read: every poll, the CVs read since the last run
 * are claimed, each of their companies' saved searches runs once over everything (through the
 * same pipeline as a queued search, with no search record and no quota spent), and the claimed
 * CVs that rank within a saved search's first page become its new matches. One run per company
 * covers however many CVs arrived, so a bulk upload costs a few searches, not one per CV.
 */
@Injectable()
export class SavedSearchRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SavedSearchRunner.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;

  constructor(
    private readonly savedSearches: SavedSearchesRepository,
    private readonly pipeline: SearchPipelineService,
    @InjectConfig('savedSearchesPollMs') private readonly pollMs: AppConfig['savedSearchesPollMs'],
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), this.pollMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One run over the CVs read since the last, unless one is going on; resolves to the new matches found. */
  runOnce(): Promise<number> {
    this.running ??= this.runDue()
      .catch((error: unknown) => {
        this.logger.error(`saved searches not run: ${reason(error)}`);
        return 0;
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  private async runDue(): Promise<number> {
    let added = 0;
    for (const claimed of await this.savedSearches.claimArrivals(SAVED_SEARCH_RUN.arrivals, SAVED_SEARCH_RUN.leaseMs)) {
      try {
        added += await this.runCompany(claimed);
      } catch (error) {
        // Its CVs stay claimed until the lease runs out, then a later run tries again.
        this.logger.warn(`saved searches of company ${claimed.companyId} not run: ${reason(error)}`);
      }
    }
    return added;
  }

  private async runCompany({ companyId, arrivals }: ClaimedArrivals): Promise<number> {
    const latest = Math.max(...arrivals.map((a) => a.arrivedAt.getTime()));
    const runs: SavedSearchRun[] = [];
    for (const saved of await this.savedSearches.ofCompany(companyId)) {
      // Saved after every CV claimed: none of them is new to it.
      if (saved.createdAt.getTime() > latest) continue;
      try {
        const { results } = await withDeadline(this.pipeline.runCommand(savedSearchCommand(saved)), MAX_PROCESSING_MS[saved.searchType]);
        runs.push({ savedSearchId: saved.id, firstPage: results.map((r) => ({ documentId: r.documentId, rank: r.rank, score: r.score })) });
      } catch (error) {
        // A query or filter the search cannot run with fails the same way every time: no new matches.
        if (error instanceof JobFailure && !error.retryable) {
          this.logger.warn(`saved search ${saved.id} cannot run: ${error.message}`);
          continue;
        }
        throw error;
      }
    }
    const added = await this.savedSearches.record(companyId, arrivals, runs, http.MAX_SAVED_SEARCH_MATCHES);
    return [...added.values()].reduce((sum, n) => sum + n, 0);
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
