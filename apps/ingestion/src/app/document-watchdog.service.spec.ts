import { randomUUID } from 'node:crypto';
import { openPglite } from '@cs/pglite';
import type { JobQueue, SqlClient } from '@cs/ports';
import { DocumentsRepository, migrate } from '@cs/records';
import { MetricsRegistry } from '@cs/service-kit';
import { DocumentWatchdogService } from './document-watchdog.service';
import { IngestionMetrics } from './ingestion-metrics';

describe('DocumentWatchdogService', () => {
  let sql: SqlClient;
  const published: string[] = [];
  let oldestQueuedSeconds = 0;
  const queue = {
    publish: (kind: string, id: string) => Promise.resolve(void published.push(`${kind}:${id}`)),
    stats: () =>
      Promise.resolve([{ kind: 'ingestion', pendingJobs: 1, oldestJobAgeSeconds: oldestQueuedSeconds, redeliveries: 0, deadLetters: 0 }]),
  } as unknown as JobQueue;
  let companyId: string;

  /** A document in `status`, last changed `idleMin` minutes ago, created `ageMin` minutes ago. */
  async function document(status: string, idleMin: number, ageMin = idleMin): Promise<string> {
    const id = randomUUID();
    await sql.query(
      `INSERT INTO documents (id, company_id, document_name, document_type, document_date, status, content_hash, file_name, file_size,
         content_type, storage_key, created_at, updated_at)
       VALUES ($1::uuid, $2, 'cv', 'cv', '01-2024', $3, $1::text, 'cv.txt', 10, 'text/plain', $1::text,
         now() - make_interval(mins => $4), now() - make_interval(mins => $5))`,
      [id, companyId, status, ageMin, idleMin],
    );
    return id;
  }

  beforeAll(async () => {
    sql = await openPglite(null);
    await migrate(sql);
    companyId = randomUUID();
    await sql.query(`INSERT INTO companies (id, name) VALUES ($1, 'c')`, [companyId]);
  });
  afterAll(() => sql.close());

  it('leaves waiting documents alone while the queue holds a backlog older than the bound (they may be queued)', async () => {
    const documents = new DocumentsRepository(sql);
    const queued = await document('pending', 20);
    oldestQueuedSeconds = 30 * 60;
    try {
      expect(await new DocumentWatchdogService(documents, queue, new IngestionMetrics(new MetricsRegistry('test'))).sweep()).toEqual({
        requeued: [],
        failed: [],
      });
      expect(published).toEqual([]);
    } finally {
      oldestQueuedSeconds = 0;
      await documents.setStatus(queued, 'completed', 'done');
    }
  });

  it('requeues a document whose job was lost, fails one too old, and leaves the rest alone', async () => {
    const documents = new DocumentsRepository(sql);
    const lost = await document('pending', 20);
    const uploading = await document('uploading', 30);
    const ancient = await document('pending', 20, 180);
    const fresh = await document('pending', 1);
    const done = await document('completed', 60);
    expect(await documents.countStuck(15 * 60_000)).toBe(3);

    const watchdog = new DocumentWatchdogService(documents, queue, new IngestionMetrics(new MetricsRegistry('test')));
    const swept = await watchdog.sweep();
    expect(swept.requeued.sort()).toEqual([lost, uploading].sort());
    expect(swept.failed).toEqual([ancient]);
    expect(published.sort()).toEqual([`ingestion:${lost}`, `ingestion:${uploading}`].sort());
    expect((await documents.get(companyId, ancient))?.status).toBe('failed');
    expect((await documents.get(companyId, ancient))?.error).toEqual({ message: expect.any(String), retryable: true });
    expect((await documents.get(companyId, fresh))?.status).toBe('pending');
    expect((await documents.get(companyId, done))?.status).toBe('completed');

    // Requeued ones wait a whole bound again before the next try.
    expect(await documents.countStuck(15 * 60_000)).toBe(0);
    expect(await watchdog.sweep()).toEqual({ requeued: [], failed: [] });
  });
});
