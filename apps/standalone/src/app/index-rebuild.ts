import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { DENSE_CLIENT, SPARSE_CLIENT, STARTUP_WORK, type DenseClient, type SparseClient, type StartupWork } from '@cs/ports';
import { DocumentsRepository } from '@cs/records';
import { UNDERSTANDING_VERSION } from '@cs/cv-understanding';
import { searchAttributesOf } from '@cs/search-filters';
import { InjectConfig, recordIndexesRebuilt, type DataDirStore } from '@cs/service-kit';

/** CVs read a page, in company and id order; the cursor lives in memory (a start cut short begins again). */
const PAGE = 64;
/** CVs indexed at once within a page. */
const CONCURRENCY = 2;
/** Tries for one CV before it is passed over (and named in the log). */
const ATTEMPTS = 3;
const RETRY_PAUSE_MS = 1000;
/** How often progress is logged. */
const LOG_EVERY_MS = 10_000;

type Page = Awaited<ReturnType<DocumentsRepository['processedAfter']>>;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whose indexes DATA_DIR holds, as the start read it (null where the process does not own the folder). */
const DATA_DIR_STORE = Symbol('DataDirStore');

/**
 * A data folder the LanceDB store wrote (the standalone's second embedded store, since removed)
 * holds tables this version does not read. Its CVs' texts and passages are in the database, so
 * at start the keyword index and vector sets are filled again from them, in the background:
 * the service listens meanwhile, /readyz says not ready with the progress, and the LanceDB
 * tables are removed once every CV is in.
 */
@Injectable()
export class IndexRebuild implements StartupWork, OnApplicationBootstrap, OnModuleDestroy {
  readonly name = 'indexes';
  private readonly logger = new Logger(IndexRebuild.name);
  private progress: { done: number; total: number; skipped: number } | null = null;
  private running: Promise<void> | undefined;
  private failure: string | null = null;
  private stopped = false;
  /** The pause before a CV's next try; tests shorten it. */
  retryPauseMs = RETRY_PAUSE_MS;

  constructor(
    @InjectConfig('dataDir') private readonly dataDir: AppConfig['dataDir'],
    @Inject(DATA_DIR_STORE) private readonly store: DataDirStore | null,
    private readonly documents: DocumentsRepository,
    @Inject(DENSE_CLIENT) private readonly dense: DenseClient,
    @Inject(SPARSE_CLIENT) private readonly sparse: SparseClient,
  ) {}

  pending(): string | null {
    const p = this.progress;
    if (p && this.failure)
      return `the rebuild of the keyword index and vector sets failed at ${p.done} of ${p.total} CVs: ${this.failure}; restart to try again`;
    return p && `rebuilding the keyword index and vector sets from the stored texts: ${p.done} of ${p.total} CVs`;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.store !== 'lancedb') return;
    const total = await this.documents.countProcessed(null);
    this.progress = { done: 0, total, skipped: 0 };
    this.logger.warn(
      `DATA_DIR=${this.dataDir} holds the LanceDB store's tables, which this version does not read: ` +
        `rebuilding the keyword index and vector sets from the ${total} CVs' stored texts; /readyz says not ready until done`,
    );
    this.running = this.rebuild().catch((error: unknown) => {
      this.failure = messageOf(error);
      this.logger.error(`the index rebuild failed: ${this.failure}; the next start tries again`);
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /** Resolves once the rebuild ended (at once where there was none): for tests. */
  whenDone(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async rebuild(): Promise<void> {
    const started = Date.now();
    let loggedAt = started;
    let cursor: { companyId: string; documentId: string } | null = null;
    const progress = this.progress!;
    while (!this.stopped) {
      let page: Page;
      try {
        page = await this.documents.processedAfter(cursor, null, PAGE);
      } catch (error) {
        // The database is local: a failed read is a passing trouble (a vacuum, a full disk freed); try again.
        this.logger.warn(`the index rebuild paused: ${messageOf(error)}`);
        await this.pause(this.retryPauseMs * ATTEMPTS);
        continue;
      }
      if (page.length === 0) break;
      for (let from = 0; from < page.length && !this.stopped; from += CONCURRENCY)
        await Promise.all(page.slice(from, from + CONCURRENCY).map((cv) => this.indexWithRetries(cv)));
      if (this.stopped) break;
      await this.forgetDeleted(page);
      progress.done += page.length;
      const last = page[page.length - 1];
      cursor = { companyId: last.companyId, documentId: last.id };
      if (Date.now() - loggedAt >= LOG_EVERY_MS) {
        loggedAt = Date.now();
        this.logger.log(`index rebuild: ${progress.done} of ${progress.total} CVs`);
      }
    }
    if (this.stopped) {
      this.logger.warn(`index rebuild stopped at ${progress.done} of ${progress.total} CVs: the next start rebuilds again`);
      return;
    }
    await recordIndexesRebuilt(this.dataDir);
    this.progress = null;
    this.logger.log(
      `index rebuild done: ${progress.done} CVs in ${((Date.now() - started) / 1000).toFixed(1)} s` +
        (progress.skipped ? `, ${progress.skipped} passed over (named above)` : '') +
        '; the LanceDB tables were removed',
    );
  }

  private async indexWithRetries(cv: Page[number]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const chunks = cv.chunks.map((c) => ({ ...c, text: cv.text.slice(c.start, c.end) }));
        // A CV read by an older version has no attributes until the profile refresh reads it again.
        const attributes = cv.understandingVersion >= UNDERSTANDING_VERSION ? searchAttributesOf(cv.profile, cv.documentDate) : undefined;
        await Promise.all([
          this.sparse.upsert(cv.companyId, cv.id, cv.text, attributes),
          this.dense.upsert(cv.companyId, cv.id, cv.text, chunks, attributes),
        ]);
        return;
      } catch (error) {
        if (attempt >= ATTEMPTS || this.stopped) {
          this.progress!.skipped++;
          this.logger.error(`index rebuild: CV ${cv.id} of company ${cv.companyId} passed over: ${messageOf(error)}`);
          return;
        }
        await this.pause(this.retryPauseMs * attempt);
      }
    }
  }

  /** A CV deleted while it was indexed again must not stay in the indexes (its delete went first). */
  private async forgetDeleted(page: Page): Promise<void> {
    for (const cv of await this.documents.deletedAmong(page))
      await Promise.all([this.dense.delete(cv.companyId, cv.id), this.sparse.delete(cv.companyId, cv.id)]);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms).unref());
  }
}

/** The rebuild, given the records and the dense and sparse services it indexes through, and whose indexes DATA_DIR holds. */
@Module({})
export class IndexRebuildModule {
  static over(ports: DynamicModule, dataDirStore: DataDirStore | null): DynamicModule {
    return {
      module: IndexRebuildModule,
      imports: [ports],
      providers: [IndexRebuild, { provide: DATA_DIR_STORE, useValue: dataDirStore }, { provide: STARTUP_WORK, useExisting: IndexRebuild }],
      exports: [STARTUP_WORK],
    };
  }
}
