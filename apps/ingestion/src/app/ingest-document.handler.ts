import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { ParseLimitError, TextExtractor, UnreadableFileError, insufficientTextReason, isAcceptedType } from '@cs/document-parsing';
import { UNDERSTANDING_VERSION, splitSections, understandCv } from '@cs/cv-understanding';
import { chunkText } from '@cs/embeddings';
import {
  BLOB_STORE,
  DENSE_CLIENT,
  JOB_QUEUE,
  SPARSE_CLIENT,
  type BlobStore,
  type DenseClient,
  type Job,
  type JobOutcome,
  type JobPayloads,
  type JobQueue,
  type SparseClient,
} from '@cs/ports';
import { MAX_POSTING_CHARS, readJobCriteria } from '@cs/job-criteria';
import { DocumentsRepository, type DocumentRecord } from '@cs/records';
import { searchAttributesOf } from '@cs/search-filters';
import { InjectConfig } from '@cs/service-kit';
import { IngestionMetrics } from './ingestion-metrics';

type FinalStatus = 'completed' | 'invalid' | 'failed';

/** Why a job posting is invalid: nothing to match CVs by could be read from it. */
export const NO_CRITERIA_READ =
  'No job title and no skill could be read from this posting (postings are read in English): a match search could not rank CVs by it';

/** Deliveries after which a document that keeps failing is marked failed, not retried. */
export const INGESTION_MAX_ATTEMPTS = 5;

/**
 * parse -> understand -> chunk -> index: takes a stored CV (a job posting: parse only) from `uploading` to `completed`, `invalid` (no text,
 * or a file past a parse bound: it would break the bound again, so it is not retried) or `failed` (unreadable). Idempotent by document id: a redelivered job re-indexes the same
 * entries, and a finished document is left alone.
 */
@Injectable()
export class IngestDocumentHandler implements OnApplicationBootstrap {
  private readonly logger = new Logger(IngestDocumentHandler.name);

  constructor(
    private readonly documents: DocumentsRepository,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(DENSE_CLIENT) private readonly dense: DenseClient,
    @Inject(SPARSE_CLIENT) private readonly sparse: SparseClient,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @InjectConfig('ingestionConcurrency') private readonly concurrency: AppConfig['ingestionConcurrency'],
    private readonly extractor: TextExtractor,
    private readonly metrics: IngestionMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.queue.consume('ingestion', this.concurrency, (job) => this.handle(job));
  }

  async handle(job: Job<JobPayloads['ingestion']>): Promise<JobOutcome> {
    const document = await this.documents.startProcessing(job.payload.documentId, 'Parsing and indexing');
    if (!document) return { ack: true }; // deleted, or finished by an earlier delivery
    const started = performance.now();
    const { finished, ...outcome } = await this.process(job, document);
    if (finished) this.metrics.ingested(finished, (performance.now() - started) / 1000);
    return outcome;
  }

  /** The job's outcome, and the status the document finished in, if it did. */
  private async process(job: Job<JobPayloads['ingestion']>, document: DocumentRecord): Promise<JobOutcome & { finished?: FinalStatus }> {
    const documentId = document.id;
    try {
      const mime = document.contentType;
      if (!isAcceptedType(mime)) throw new UnreadableFileError(`unsupported type ${mime}`);
      const bytes = await this.blobs.get(document.storageKey);
      const text = await this.extractor.extract(bytes, mime, document.companyId);
      const tooLittle = insufficientTextReason(text);
      if (tooLittle) {
        await this.documents.setStatus(documentId, 'invalid', tooLittle);
        return { ack: true, finished: 'invalid' };
      }
      if (document.kind === 'job') return await this.keepPosting(document, text);
      // Passages by section (a heading starts a new one), for the dense highlight.
      const chunks = chunkText(
        text,
        120,
        30,
        splitSections(text).map((section) => section.start - section.heading.length),
      );
      const { summary, contact, profile } = understandCv(text, endOfMonth(document.documentDate));
      // The stores keep what filters read beside each CV's entries.
      const attributes = searchAttributesOf(profile, document.documentDate);
      await Promise.all([
        this.dense.upsert(document.companyId, documentId, text, chunks, attributes),
        this.sparse.upsert(document.companyId, documentId, text, attributes),
      ]);
      // Searches show completed documents only, so the index entries may come first; one
      // statement then stores the text and the profile and makes the CV searchable.
      const processed = {
        extractedText: text,
        summary,
        contact,
        profile,
        chunks: chunks.map(({ index, start, end }) => ({ index, start, end })),
        understandingVersion: UNDERSTANDING_VERSION,
      };
      if (await this.documents.complete(documentId, processed, 'Searchable')) return { ack: true, finished: 'completed' };
      await this.removeFromIndexes(document.companyId, documentId);
      return { ack: true };
    } catch (error) {
      if (error instanceof ParseLimitError) {
        this.logger.warn(`document ${documentId} is past a parse bound (${error.limit})`);
        await this.documents.setStatus(documentId, 'invalid', error.message);
        return { ack: true, finished: 'invalid' };
      }
      if (error instanceof UnreadableFileError) {
        await this.documents.setStatus(documentId, 'failed', 'The file could not be read', { message: error.message, retryable: false });
        return { ack: true, finished: 'failed' };
      }
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`ingestion of ${documentId} failed on attempt ${job.attempt}: ${reason}`);
      if (job.attempt >= INGESTION_MAX_ATTEMPTS) {
        await this.documents.setStatus(documentId, 'failed', 'Processing failed', {
          message: `processing failed: ${reason}`,
          retryable: true,
        });
        return { ack: true, finished: 'failed' };
      }
      return { ack: false, retry: true, reason };
    }
  }

  /**
   * A job posting is kept with its text for match searches to read, never indexed: no search
   * returns it. One from which no title and no skill can be read is invalid, said at once rather
   * than at its first match search.
   */
  private async keepPosting(document: DocumentRecord, text: string): Promise<JobOutcome & { finished?: FinalStatus }> {
    const criteria = readJobCriteria(text.slice(0, MAX_POSTING_CHARS));
    if (criteria.title === null && criteria.skills.required.length === 0 && criteria.skills.preferred.length === 0) {
      await this.documents.setStatus(document.id, 'invalid', NO_CRITERIA_READ);
      return { ack: true, finished: 'invalid' };
    }
    const kept = {
      extractedText: text,
      summary: null,
      contact: null,
      profile: null,
      chunks: [],
      understandingVersion: UNDERSTANDING_VERSION,
    };
    if (await this.documents.complete(document.id, kept, 'A job posting, ready for match searches'))
      return { ack: true, finished: 'completed' };
    return { ack: true };
  }

  /** A document deleted while it was being indexed must not stay findable. */
  private async removeFromIndexes(companyId: string, documentId: string): Promise<void> {
    await Promise.all([this.dense.delete(companyId, documentId), this.sparse.delete(companyId, documentId)]);
  }
}

/** The last day of a `MM-YYYY` document date: what "present" meant when the CV was written. */
export function endOfMonth(documentDate: string): Date {
  const [month, year] = documentDate.split('-').map(Number);
  return month >= 1 && month <= 12 && year > 0 ? new Date(Date.UTC(year, month, 0)) : new Date();
}
