import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { UNDERSTANDING_VERSION, understandCv } from '@cs/cv-understanding';
import { DENSE_CLIENT, SPARSE_CLIENT, type DenseClient, type SparseClient } from '@cs/ports';
import { DocumentsRepository } from '@cs/records';
import { searchAttributesOf } from '@cs/search-filters';
import { endOfMonth } from './ingest-document.handler';

/** CVs read a page at a time, in company and id order. */
const PAGE = 100;
/** The pause after a failure before the CV is tried again. */
const RETRY_PAUSE_MS = 5000;
/** Tries for one CV before it is passed over (and named in the log), so that one CV never stalls the walk. */
const ATTEMPTS = 3;
const LOG_EVERY_MS = 10_000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * After an upgrade whose CV understanding reads more (UNDERSTANDING_VERSION), every CV stored by
 * an older version is read again from its stored text, in the background: its summary, contact
 * and profile are replaced, and the indexes get the attributes filters read. Until its turn, an
 * older CV passes only the filters that need no profile. Idempotent: several replicas may walk
 * at once, and a CV stored meanwhile by a new ingestion is left alone.
 */
@Injectable()
export class ProfileRefresh implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ProfileRefresh.name);
  private running: Promise<void> | undefined;
  private stopped = false;
  /** The pause after a failure; tests shorten it. */
  retryPauseMs = RETRY_PAUSE_MS;

  constructor(
    private readonly documents: DocumentsRepository,
    @Inject(DENSE_CLIENT) private readonly dense: DenseClient,
    @Inject(SPARSE_CLIENT) private readonly sparse: SparseClient,
  ) {}

  onApplicationBootstrap(): void {
    this.running = this.refresh();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Resolves once the walk ended: for tests. */
  whenDone(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async refresh(): Promise<void> {
    let cursor: { companyId: string; documentId: string } | null = null;
    let done = 0;
    let failures = 0;
    let loggedAt = Date.now();
    while (!this.stopped) {
      try {
        const page = await this.documents.readBefore(UNDERSTANDING_VERSION, cursor, PAGE);
        if (page.length === 0) break;
        if (done === 0)
          this.logger.log(`reading CVs stored by an older version of CV understanding again (version ${UNDERSTANDING_VERSION})`);
        for (const cv of page) {
          if (this.stopped) return;
          try {
            await this.refreshOne(cv);
          } catch (error) {
            if (++failures < ATTEMPTS) throw error;
            this.logger.error(
              `profile refresh: CV ${cv.id} of company ${cv.companyId} passed over after ${ATTEMPTS} tries: ${messageOf(error)}`,
            );
          }
          failures = 0;
          cursor = { companyId: cv.companyId, documentId: cv.id };
          done++;
        }
        if (Date.now() - loggedAt >= LOG_EVERY_MS) {
          loggedAt = Date.now();
          this.logger.log(`profile refresh: ${done} CVs read again`);
        }
      } catch (error) {
        // A store or the database is away for a while: the CV is tried again, the rest waits.
        this.logger.warn(`profile refresh paused after ${done} CVs: ${messageOf(error)}`);
        await new Promise((resolve) => setTimeout(resolve, this.retryPauseMs).unref());
      }
    }
    if (done > 0) this.logger.log(`profile refresh done: ${done} CVs read again`);
  }

  private async refreshOne(cv: { companyId: string; id: string; text: string; documentDate: string }): Promise<void> {
    const { summary, contact, profile } = understandCv(cv.text, endOfMonth(cv.documentDate));
    const attributes = searchAttributesOf(profile, cv.documentDate);
    // Indexes first: a CV whose record says it was read again has its attributes in both.
    await Promise.all([
      this.dense.setAttributes(cv.companyId, cv.id, attributes),
      this.sparse.setAttributes(cv.companyId, cv.id, attributes),
    ]);
    await this.documents.storeUnderstanding(cv.id, { summary, contact, profile, understandingVersion: UNDERSTANDING_VERSION });
  }
}
