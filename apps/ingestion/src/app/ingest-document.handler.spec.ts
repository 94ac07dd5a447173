import { ParseLimitError, TextExtractor, UnreadableFileError } from '@cs/document-parsing';
import type { BlobStore, DenseClient, JobQueue, SparseClient } from '@cs/ports';
import type { DocumentRecord, DocumentsRepository } from '@cs/records';
import { MetricsRegistry } from '@cs/service-kit';
import { INGESTION_MAX_ATTEMPTS, IngestDocumentHandler, NO_CRITERIA_READ } from './ingest-document.handler';
import { IngestionMetrics } from './ingestion-metrics';

/** The handler over a document record and an extractor that fails as told; records every status set. */
function handlerFailingWith(failure: Error) {
  const statuses: unknown[][] = [];
  const document = {
    id: 'doc-1',
    companyId: 'company-a',
    contentType: 'application/pdf',
    storageKey: 'k',
    documentDate: '01-2024',
  } as DocumentRecord;
  const documents = {
    startProcessing: async () => document,
    setStatus: async (...args: unknown[]) => (statuses.push(args), true),
  } as unknown as DocumentsRepository;
  const blobs = { get: async () => Buffer.from('%PDF-1.7') } as unknown as BlobStore;
  const extractor = { extract: async () => Promise.reject(failure) } as unknown as TextExtractor;
  const metrics = new IngestionMetrics(new MetricsRegistry('test'));
  const handler = new IngestDocumentHandler(documents, blobs, {} as DenseClient, {} as SparseClient, {} as JobQueue, 1, extractor, metrics);
  return { handler, statuses };
}

const job = (attempt: number) => ({ id: 'job-1', kind: 'ingestion' as const, payload: { documentId: 'doc-1' }, attempt });

describe('IngestDocumentHandler', () => {
  it('ends a file past a parse bound invalid on the first delivery, with the bound in its message, not retried', async () => {
    const { handler, statuses } = handlerFailingWith(
      new ParseLimitError('unpacked-size', 'The file expands to more than 64 MB when unpacked; a CV is far smaller'),
    );
    expect(await handler.handle(job(1))).toEqual({ ack: true });
    expect(statuses).toEqual([['doc-1', 'invalid', 'The file expands to more than 64 MB when unpacked; a CV is far smaller']]);
  });

  it('ends a file that took a worker out of memory invalid at once', async () => {
    const { handler, statuses } = handlerFailingWith(
      new ParseLimitError('memory', 'The file needed too much memory to read; a CV needs far less'),
    );
    expect(await handler.handle(job(1))).toEqual({ ack: true });
    expect(statuses).toEqual([['doc-1', 'invalid', 'The file needed too much memory to read; a CV needs far less']]);
  });

  it('still ends an unreadable file failed, not retryable, and retries other errors', async () => {
    const unreadable = handlerFailingWith(new UnreadableFileError('the file could not be read as application/pdf: bad xref'));
    expect(await unreadable.handler.handle(job(1))).toEqual({ ack: true });
    expect(unreadable.statuses).toEqual([
      [
        'doc-1',
        'failed',
        'The file could not be read',
        { message: 'the file could not be read as application/pdf: bad xref', retryable: false },
      ],
    ]);

    const flaky = handlerFailingWith(new Error('blob store timed out'));
    expect(await flaky.handler.handle(job(1))).toMatchObject({ ack: false, retry: true });
    expect(await flaky.handler.handle(job(INGESTION_MAX_ATTEMPTS))).toEqual({ ack: true });
    expect(flaky.statuses).toEqual([
      ['doc-1', 'failed', 'Processing failed', { message: 'processing failed: blob store timed out', retryable: true }],
    ]);
  });

  describe('a job posting', () => {
    /** The handler over a posting whose text is `text`; the indexes throw if asked anything. */
    function handlerOfPosting(text: string) {
      const statuses: unknown[][] = [];
      const completed: unknown[][] = [];
      const document = {
        id: 'job-doc',
        companyId: 'company-a',
        contentType: 'text/plain',
        storageKey: 'k',
        documentDate: '01-2024',
        kind: 'job',
      };
      const documents = {
        startProcessing: async () => document,
        setStatus: async (...args: unknown[]) => (statuses.push(args), true),
        complete: async (...args: unknown[]) => (completed.push(args), true),
      } as unknown as DocumentsRepository;
      const untouchable = new Proxy({}, { get: () => () => Promise.reject(new Error('a job posting is never indexed')) });
      const handler = new IngestDocumentHandler(
        documents,
        { get: async () => Buffer.from(text) } as unknown as BlobStore,
        untouchable as DenseClient,
        untouchable as SparseClient,
        {} as JobQueue,
        1,
        { extract: async () => text } as unknown as TextExtractor,
        new IngestionMetrics(new MetricsRegistry('test')),
      );
      return { handler, statuses, completed };
    }

    it('is kept with its text and no profile, never indexed', async () => {
      const posting = 'Staff Accountant\n\nRequirements\n- General ledger and account reconciliations\n- 3+ years of accounting experience';
      const { handler, statuses, completed } = handlerOfPosting(posting);
      expect(await handler.handle(job(1))).toEqual({ ack: true });
      expect(statuses).toEqual([]);
      expect(completed).toEqual([
        [
          'job-doc',
          expect.objectContaining({ extractedText: posting, profile: null, chunks: [] }),
          'A job posting, ready for match searches',
        ],
      ]);
    });

    it('is invalid when no title and no skill can be read from it', async () => {
      const { handler, statuses, completed } = handlerOfPosting(
        'And then it was to be so, and so it is: it is as it was, and it will be.\n'.repeat(5),
      );
      expect(await handler.handle(job(1))).toEqual({ ack: true });
      expect(statuses).toEqual([['job-doc', 'invalid', NO_CRITERIA_READ]]);
      expect(completed).toEqual([]);
    });
  });
});
