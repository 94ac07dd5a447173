import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EmbeddedJobQueue } from '@cs/embedded-queue';
import { LocalFilesStore } from '@cs/local-files';
import { openPglite } from '@cs/pglite';
import type { JobKind, JobPayloads, JobQueue, SqlClient } from '@cs/ports';
import { CompaniesRepository, DocumentsRepository, OutboxRelay, SearchesRepository, migrate } from '@cs/records';
import { eventually, waitFor } from '@cs/test-services';
import type { AuthContext } from '../../../gateway/src/app/auth/auth-context';
import { DocumentIntakeService } from '../../../gateway/src/app/documents/document-intake.service';
import { EndedSearchAnswers } from '../../../gateway/src/app/searches/ended-search-answers';
import { SearchesService } from '../../../gateway/src/app/searches/searches.service';
import { SearchFilterResolver } from '../../../gateway/src/app/searches/search-filter-resolver';

/** Standalone's stores (PGlite, the embedded queue) with a queue whose publish throws while `down`. */
describe('standalone: the outbox when the queue refuses publishes', () => {
  let sql: SqlClient;
  let embedded: EmbeddedJobQueue;
  let relay: OutboxRelay;
  let filesDir: string;
  let down = false;

  beforeEach(async () => {
    sql = await openPglite(null);
    await migrate(sql);
    embedded = await EmbeddedJobQueue.open(sql, { pollMs: 10, backoffMs: 20, shutdownGraceMs: 200 });
    const flaky: JobQueue = {
      publish: <K extends JobKind>(kind: K, id: string, payload: JobPayloads[K]) =>
        down ? Promise.reject(new Error('queue unreachable')) : embedded.publish(kind, id, payload),
      consume: (kind, concurrency, handler) => embedded.consume(kind, concurrency, handler),
      stats: () => embedded.stats(),
      health: () => embedded.health(),
      close: () => embedded.close(),
      deadLetters: (query) => embedded.deadLetters(query),
      deadLetter: (kind, id) => embedded.deadLetter(kind, id),
      replayDeadLetters: (kind, id) => embedded.replayDeadLetters(kind, id),
      purgeDeadLetters: (kind, id) => embedded.purgeDeadLetters(kind, id),
    };
    relay = new OutboxRelay(sql, flaky, { pollMs: 20, leaseMs: 300, retryMs: 30, maxRetryMs: 150 });
    relay.start();
    filesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-outbox-'));
  }, 30_000);

  afterEach(async () => {
    down = false;
    await relay.close();
    await embedded.close();
    await sql.close();
    await fs.rm(filesDir, { recursive: true, force: true });
  });

  it('accepts a search and an upload at once, keeps their jobs, and delivers both once publishing works again', async () => {
    const company = await new CompaniesRepository(sql).create('acme');
    const auth: AuthContext = { keyId: 'k', company };
    const keepsNothing = new EndedSearchAnswers(0, {
      listen: () => Promise.reject(new Error('unused')),
      close: async () => undefined,
    });
    const searches = new SearchesService(
      new SearchesRepository(sql),
      new DocumentsRepository(sql),
      relay,
      keepsNothing,
      new SearchFilterResolver(),
    );
    const intake = new DocumentIntakeService(new LocalFilesStore(filesDir), relay);
    const delivered: string[] = [];
    embedded.consume('search', 1, async (job) => (delivered.push(`search:${job.payload.searchId}`), { ack: true }));
    embedded.consume('ingestion', 1, async (job) => (delivered.push(`ingestion:${job.payload.documentId}`), { ack: true }));

    down = true;
    const search = await searches.create(auth, 'dense', { query: 'registered nurse' });
    const upload = await intake.accept(auth, {
      bytes: Buffer.from('Jane Doe\nRegistered nurse, ICU, ten years.\nSkills: triage, patient care.'),
      mime: 'text/plain',
      fileName: 'jane.txt',
      documentName: 'Jane',
      documentDate: '01-2024',
      documentType: 'cv',
      kind: 'cv',
    });
    expect(search).toMatchObject({ status: 'processing' });
    expect(upload.status).toBe(201);
    const searchId = search.searchId;
    const documentId = upload.body.documentId;

    // Publishes fail and are retried; the records wait as accepted, not failed.
    const attempts = async () =>
      (await sql.query<{ id: string; attempts: number }>('SELECT id, attempts FROM outbox ORDER BY id')).map(
        (r) => `${r.id}:${r.attempts > 1}`,
      );
    await eventually(async () => expect(await attempts()).toEqual([`ingestion:${documentId}:true`, `search:${searchId}:true`]), {
      timeoutMs: 10_000,
    });
    expect(delivered).toEqual([]);
    expect((await new SearchesRepository(sql).getById(searchId))?.status).toBe('initiated');
    expect((await new DocumentsRepository(sql).get(company.id, documentId))?.status).toBe('uploading');

    down = false;
    await waitFor(() => delivered.length === 2, { timeoutMs: 10_000, what: 'both jobs delivered' });
    expect(delivered.sort()).toEqual([`ingestion:${documentId}`, `search:${searchId}`]);
    await eventually(async () => expect(await sql.query('SELECT id FROM outbox')).toEqual([]), { timeoutMs: 10_000 });
  }, 60_000);
});
