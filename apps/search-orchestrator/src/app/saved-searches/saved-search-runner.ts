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
 * CVs of one company a claim takes at most; how long a claim holds before another runner may take
 * its CVs (renewed after each saved search, so that only a runner that stopped loses it); how many
 * claims a batch gets before a saved search that keeps failing is given up on for it; and how
 * many companies one poll serves.
 */
export const SAVED_SEARCH_RUN = { arrivals: 1000, leaseMs: 2 * 60_000, attempts: 3, companiesPerPoll: 20 } as const;

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
 * are claimed one company at a time, each of the company's saved searches runs once over all its
 * CVs (through the same pipeline as a queued search, with no search record and no quota spent),
 * and the claimed CVs that rank within a saved search's first page become its new matches. One run
 * per company covers however many CVs arrived, so a bulk upload costs a few searches, not one per CV.
 * A saved search that fails for a moment (a store unreachable, its time run out) leaves the batch
 * claimed, to be run again when the claim runs out; after SAVED_SEARCH_RUN.attempts claims it is
 * passed over for that batch, so that one saved search never holds the others' new matches back.
 */
@Injectable()
export class SavedSearchRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SavedSearchRunner.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;
  private stopping = false;

  constructor(
    private readonly savedSearches: SavedSearchesRepository,
    private readonly pipeline: SearchPipelineService,
    @InjectConfig('savedSearchesPollMs') private readonly pollMs: AppConfig['savedSearchesPollMs'],
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), this.pollMs);
    this.timer.unref();
  }

  /** Stops between saved searches: what is claimed and not recorded is run again by the next runner. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
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
    for (let served = 0; served < SAVED_SEARCH_RUN.companiesPerPoll && !this.stopping; served++) {
      const claimed = await this.savedSearches.claimCompany(SAVED_SEARCH_RUN.arrivals, SAVED_SEARCH_RUN.leaseMs);
      if (!claimed) break;
      try {
        added += await this.runCompany(claimed);
      } catch (error) {
        // Its CVs stay claimed until the lease runs out, then a later run tries again.
        this.logger.warn(`saved searches of company ${claimed.companyId} not run (claim ${claimed.attempts}): ${reason(error)}`);
      }
    }
    return added;
  }

  private async runCompany(claimed: ClaimedArrivals): Promise<number> {
    const latest = Math.max(...claimed.arrivals.map((a) => a.arrivedAt.getTime()));
    const runs: SavedSearchRun[] = [];
    for (const saved of await this.savedSearches.ofCompany(claimed.companyId)) {
      if (this.stopping) return 0;
      // Saved after every CV claimed: none of them is new to it.
      if (saved.createdAt.getTime() > latest) continue;
      try {
        const { results } = await withDeadline(this.pipeline.runCommand(savedSearchCommand(saved)), MAX_PROCESSING_MS[saved.searchType]);
        runs.push({ savedSearchId: saved.id, firstPage: results.map((r) => ({ documentId: r.documentId, rank: r.rank, score: r.score })) });
      } catch (error) {
        // A query or filter the search cannot run with fails the same way every time: no new matches.
        const lasting = error instanceof JobFailure && !error.retryable;
        if (!lasting && claimed.attempts < SAVED_SEARCH_RUN.attempts) throw error;
        this.logger.warn(`saved search ${saved.id} passed over for ${claimed.arrivals.length} new CVs: ${reason(error)}`);
      }
      if (!(await this.savedSearches.renew(claimed.token, SAVED_SEARCH_RUN.leaseMs))) return 0;
    }
    const added = await this.savedSearches.record(claimed.companyId, claimed.token, runs, http.MAX_SAVED_SEARCH_MATCHES);
    return added ? [...added.values()].reduce((sum, n) => sum + n, 0) : 0;
  }
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
