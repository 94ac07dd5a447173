import { UNDERSTANDING_VERSION } from '@cs/cv-understanding';
import { searchAttributesOf } from '@cs/search-filters';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DENSE_CLIENT, type DenseClient } from '@cs/ports';
import { DenseReindexesRepository, DocumentsRepository, type DenseReindexRecord } from '@cs/records';

/** How often a worker looks for a reindex to carry out. */
export const REINDEX_POLL_MS = 1000;
/** How often a worker asks the dense service whether a changed builtin model needs a reindex. */
export const BUILTIN_UPGRADE_CHECK_MS = 60_000;
/** A worker holds a reindex this long past its last page; a dead worker's passes to another after it. */
export const REINDEX_LEASE_MS = 60_000;
/** CVs read and embedded a page; the cursor and the count are saved after each. */
export const REINDEX_PAGE = 32;
/** CVs embedded at once within a page: the dense service batches each CV's passages itself. */
const CONCURRENCY = 2;
/**
 * Pages failed in a row, retryably, before the reindex is failed: a hosted API's outage passes
 * within them (a page is tried again every REINDEX_POLL_MS, after the API client's own retries).
 * A failure no retry can help (a refused key, an unknown model) fails it at once.
 */
export const REINDEX_MAX_FAILURES = 30;
/** After a page failed, each of its CVs is tried alone this many times (retryable failures) before it is passed over. */
export const CV_ATTEMPTS = 3;
const CV_RETRY_PAUSE_MS = 500;

type Page = Awaited<ReturnType<DocumentsRepository['processedAfter']>>;

/** Whether trying again may help: errors say so by `retryable` (JobFailure, the encoders' errors); anything else may pass. */
const isRetryable = (error: unknown) => (error as { retryable?: unknown } | null)?.retryable !== false;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Carries out the running dense reindex (`admin reindex --dense`): every processed CV, page by
 * page in company and id order, embedded again from its stored text by the dense service (into
 * the next model's set when DENSE_MODEL_NEXT is set), then, once all are done, searches switched
 * to that set. Searches read the old vectors until then, and new CVs go into both sets meanwhile.
 */
@Injectable()
export class DenseReindexRunner implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DenseReindexRunner.name);
  private readonly owner = `ingestion-${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private stopped = false;
  private failures = 0;
  private upgradeCheckedAt = -Infinity;
  /** The pause before a CV's second try alone, doubled before its third. */
  retryPauseMs = CV_RETRY_PAUSE_MS;

  constructor(
    private readonly reindexes: DenseReindexesRepository,
    private readonly documents: DocumentsRepository,
    @Inject(DENSE_CLIENT) private readonly dense: DenseClient,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.runOnce()
        .catch((error: unknown) => this.logger.warn(`the dense reindex paused: ${(error as Error).message}`))
        .finally(() => (this.running = null));
    }, REINDEX_POLL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Claims the running reindex, if any is free, and carries it on until it ends or the lease is lost. */
  async runOnce(): Promise<void> {
    const reindex = (await this.reindexes.claim(this.owner, REINDEX_LEASE_MS)) ?? (await this.startBuiltinUpgrade());
    if (!reindex) return;
    let cursor =
      reindex.cursorCompanyId && reindex.cursorDocumentId
        ? { companyId: reindex.cursorCompanyId, documentId: reindex.cursorDocumentId }
        : null;
    try {
      while (!this.stopped) {
        const page = await this.documents.processedAfter(cursor, reindex.companyId, REINDEX_PAGE);
        if (page.length === 0) break;
        const skipped = await this.embedPage(reindex, page);
        if (!skipped) return;
        this.failures = 0;
        const last = page[page.length - 1];
        cursor = { companyId: last.companyId, documentId: last.id };
        if (!(await this.reindexes.advance(reindex.id, this.owner, { cursor, done: page.length, skipped }, REINDEX_LEASE_MS))) return;
      }
      if (this.stopped) return;
      // A CV completed after the cursor passed its place went into the next set only if every
      // dense replica wrote to both (not one of an earlier release, nor one whose next model failed):
      // those completed since the reindex began are embedded again before the switch.
      let caughtUp: { companyId: string; documentId: string } | null = null;
      while (!this.stopped) {
        const page = await this.documents.processedAfter(caughtUp, reindex.companyId, REINDEX_PAGE, reindex.createdAt);
        if (page.length === 0) break;
        const skipped = await this.embedPage(reindex, page);
        if (!skipped) return;
        if (skipped.length && !(await this.reindexes.advance(reindex.id, this.owner, { cursor: null, done: 0, skipped }, REINDEX_LEASE_MS)))
          return;
        caughtUp = { companyId: page[page.length - 1].companyId, documentId: page[page.length - 1].id };
      }
      if (!this.stopped) await this.end(reindex);
    } catch (error) {
      const retryable = isRetryable(error);
      if (retryable && ++this.failures < REINDEX_MAX_FAILURES) throw error;
      this.failures = 0;
      const reason = retryable ? `${REINDEX_MAX_FAILURES} pages failed in a row: ${messageOf(error)}` : messageOf(error);
      await this.reindexes.finish(reindex.id, this.owner, { state: 'failed', error: reason });
      this.logger.error(`dense reindex ${reindex.id} failed: ${reason}`);
    }
  }

  /**
   * Embeds a page again, renewing the lease as it goes (a slow model's page may outlast it): the
   * ids of the CVs passed over (see embedAlone), or null when the lease was lost.
   */
  private async embedPage(reindex: DenseReindexRecord, page: Page): Promise<string[] | null> {
    let skipped: string[] = [];
    try {
      for (let from = 0; from < page.length; from += CONCURRENCY) {
        await Promise.all(page.slice(from, from + CONCURRENCY).map((cv) => this.embed(reindex, cv)));
        if (!(await this.reindexes.renew(reindex.id, this.owner, REINDEX_LEASE_MS))) return null;
      }
    } catch {
      const alone = await this.embedAlone(reindex, page);
      if (!alone) return null;
      skipped = alone;
    }
    // A CV deleted while it was embedded again must not stay in the new set.
    for (const cv of await this.documents.deletedAmong(page)) await this.dense.delete(cv.companyId, cv.id);
    return skipped;
  }

  /**
   * After a page failed, each CV alone (CV_ATTEMPTS tries for a retryable failure, one for another):
   * when some embed and others keep failing, those are a CV's own trouble and are passed over
   * (counted, and named, on the reindex); when all fail, the trouble is the model's or the
   * service's, and the page fails with the first reason. Null when the lease was lost.
   */
  private async embedAlone(reindex: DenseReindexRecord, page: Page): Promise<string[] | null> {
    const failed: { id: string; error: unknown }[] = [];
    for (const cv of page) {
      for (let attempt = 1; ; attempt++) {
        try {
          await this.embed(reindex, cv);
          break;
        } catch (error) {
          if (!isRetryable(error) || attempt >= CV_ATTEMPTS) {
            failed.push({ id: cv.id, error });
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, this.retryPauseMs * attempt));
        }
      }
      if (!(await this.reindexes.renew(reindex.id, this.owner, REINDEX_LEASE_MS))) return null;
    }
    if (failed.length === page.length) throw failed[0].error;
    for (const { id, error } of failed) this.logger.warn(`dense reindex ${reindex.id}: CV ${id} passed over: ${messageOf(error)}`);
    return failed.map((f) => f.id);
  }

  private embed(reindex: DenseReindexRecord, cv: Page[number]): Promise<unknown> {
    return this.dense.reindex(
      cv.companyId,
      cv.id,
      cv.text,
      cv.chunks.map((c) => ({ ...c, text: cv.text.slice(c.start, c.end) })),
      reindex.toModel,
      // A CV read by an older version has no attributes until the profile refresh reads it again.
      cv.understandingVersion >= UNDERSTANDING_VERSION ? searchAttributesOf(cv.profile, cv.documentDate) : undefined,
    );
  }

  /**
   * A release that changed the builtin model leaves the dense service reading the old version's
   * vectors with the new version as its next model (DenseService): the reindex that makes the new
   * ones starts here, with no operator asked. Not again after one to that model failed: an
   * operator then starts it (`admin reindex --dense`) once the cause is fixed.
   */
  private async startBuiltinUpgrade(): Promise<DenseReindexRecord | null> {
    if (Date.now() - this.upgradeCheckedAt < BUILTIN_UPGRADE_CHECK_MS) return null;
    this.upgradeCheckedAt = Date.now();
    const { active, next } = await this.dense.models();
    if (!next || !active.id.startsWith('builtin:') || !next.id.startsWith('builtin:')) return null;
    const latest = await this.reindexes.latest();
    if (latest?.toModel === next.id && latest.state === 'failed') return null;
    const started = await this.reindexes.start({
      companyId: null,
      fromModel: active.id,
      toModel: next.id,
      documentsTotal: await this.documents.countProcessed(null),
    });
    if (!started) return null;
    this.logger.log(`the builtin dense model changed (${active.id} -> ${next.id}): reindex ${started.id} makes its vectors`);
    return this.reindexes.claim(this.owner, REINDEX_LEASE_MS);
  }

  /** Every CV is done: searches switch to the new set when the reindex was filling the next model's. */
  private async end(reindex: DenseReindexRecord): Promise<void> {
    const { active, next } = await this.dense.models();
    // Only the lease's holder switches: another worker may have taken the reindex meanwhile.
    if (!(await this.reindexes.renew(reindex.id, this.owner, REINDEX_LEASE_MS))) return;
    if (next?.id === reindex.toModel) {
      await this.dense.activateNext(reindex.toModel);
      await this.reindexes.finish(reindex.id, this.owner, { state: 'completed', switched: true });
      this.logger.log(`dense reindex ${reindex.id} done: searches now read ${next.id}`);
    } else if (active.id === reindex.toModel) {
      await this.reindexes.finish(reindex.id, this.owner, { state: 'completed', switched: reindex.fromModel !== reindex.toModel });
      this.logger.log(`dense reindex ${reindex.id} done: ${active.id} holds every CV again`);
    } else {
      await this.reindexes.finish(reindex.id, this.owner, {
        state: 'failed',
        error: `the dense service now serves ${active.id}${next ? ` and fills ${next.id}` : ''}, not ${reindex.toModel}: DENSE_MODEL_NEXT changed during the reindex; start it again`,
      });
    }
  }
}
