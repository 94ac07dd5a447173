import { gunzipSync } from 'node:zlib';
import { openPglite, type PgliteDatabase } from '@cs/pglite';
import type { NotificationHandlers, NotificationListener } from '@cs/ports';
import { CompaniesRepository, DocumentsRepository, migrate } from '@cs/records';
import { eventually } from '@cs/test-services';
import { SerializedBody } from '../http/conditional-get';
import { EndedSearchAnswers, PAGE_TTL_MS } from './ended-search-answers';

const PAGE = { offset: 0, limit: 20, include: { extractedText: false } };
const body = (value: unknown) => new SerializedBody(JSON.stringify(value));

/** A listener the test drives: what it sends reaches the cache as a notification would. */
class ScriptedListener implements NotificationListener {
  handlers: NotificationHandlers | null = null;
  refuse = false;
  listen(_channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>> {
    // As PostgresNotificationListener: a first failure keeps the handlers, and it tells onResync once it listens.
    this.handlers = handlers;
    if (this.refuse) return Promise.reject(new Error('connection refused'));
    return Promise.resolve(async () => undefined);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

async function answersWith(listener: NotificationListener, bytes = 1024 * 1024): Promise<EndedSearchAnswers> {
  const answers = new EndedSearchAnswers(bytes, listener);
  await answers.onModuleInit();
  return answers;
}

describe('EndedSearchAnswers', () => {
  it("keeps a status and a page for their company only; another company's read finds nothing", async () => {
    const answers = await answersWith(new ScriptedListener());
    answers.rememberStatus('acme', 's1', body({ status: 'completed' }));
    answers.rememberPage('acme', 's1', PAGE, body({ results: [] }), ['d1'], answers.generation);
    expect(answers.status('acme', 's1')?.body.bytes.toString()).toBe('{"status":"completed"}');
    expect(answers.page('acme', 's1', PAGE)?.documentIds).toEqual(['d1']);
    expect(answers.status('globex', 's1')).toBeUndefined();
    expect(answers.page('globex', 's1', PAGE)).toBeUndefined();
    // Each page is its own answer: another offset, limit or include is not this one.
    expect(answers.page('acme', 's1', { ...PAGE, offset: 1 })).toBeUndefined();
    expect(answers.page('acme', 's1', { ...PAGE, include: { extractedText: true } })).toBeUndefined();
  });

  it('drops the pages showing a CV that changed, here or as the database tells it, and keeps the rest', async () => {
    const listener = new ScriptedListener();
    const answers = await answersWith(listener);
    answers.rememberStatus('acme', 's1', body({ status: 'completed' }));
    answers.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1', 'd2'], answers.generation);
    answers.rememberPage('acme', 's2', PAGE, body({ n: 2 }), ['d3'], answers.generation);
    answers.forgetDocument('d2');
    expect(answers.page('acme', 's1', PAGE)).toBeUndefined();
    expect(answers.page('acme', 's2', PAGE)).toBeDefined();
    listener.handlers!.onMessage(JSON.stringify({ id: 'd3', companyId: 'acme' }));
    expect(answers.page('acme', 's2', PAGE)).toBeUndefined();
    expect(answers.status('acme', 's1')).toBeDefined();
  });

  it('keeps no page read while a CV changed, and drops every page when notifications may have been missed', async () => {
    const listener = new ScriptedListener();
    const answers = await answersWith(listener);
    const before = answers.generation;
    answers.forgetDocument('d9'); // a delete committed while the page was being read
    answers.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], before);
    expect(answers.page('acme', 's1', PAGE)).toBeUndefined();

    answers.rememberStatus('acme', 's1', body({ status: 'completed' }));
    answers.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], answers.generation);
    listener.handlers!.onResync!();
    expect(answers.page('acme', 's1', PAGE)).toBeUndefined();
    expect(answers.status('acme', 's1')).toBeDefined();
    // A payload it cannot read might have named any CV.
    answers.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], answers.generation);
    listener.handlers!.onMessage('not json');
    expect(answers.page('acme', 's1', PAGE)).toBeUndefined();
  });

  it('keeps statuses but no page until it listens for changed CVs, nor once stopping', async () => {
    const listener = new ScriptedListener();
    listener.refuse = true;
    const answers = await answersWith(listener);
    answers.rememberStatus('acme', 's1', body({ status: 'completed' }));
    answers.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], answers.generation);
    expect(answers.status('acme', 's1')).toBeDefined();
    expect(answers.page('acme', 's1', PAGE)).toBeUndefined();
    listener.handlers!.onResync!(); // listening at last
    answers.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], answers.generation);
    expect(answers.page('acme', 's1', PAGE)).toBeDefined();

    const listening = await answersWith(new ScriptedListener());
    listening.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], listening.generation);
    await listening.onModuleDestroy();
    expect(listening.page('acme', 's1', PAGE)).toBeUndefined();
    listening.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], listening.generation);
    expect(listening.page('acme', 's1', PAGE)).toBeUndefined();
  });

  it('stays within its bytes, least recently read going first, compressed codings counted', async () => {
    const answers = await answersWith(new ScriptedListener(), 40_000);
    const big = (n: number) => body({ n, text: `${n}`.repeat(4000) });
    for (let i = 0; i < 8; i++) answers.rememberStatus('acme', `s${i}`, big(i));
    answers.status('acme', 's0'); // read: now the most recent
    answers.rememberStatus('acme', 's8', big(8));
    answers.rememberStatus('acme', 's9', big(9));
    expect(answers.status('acme', 's1')).toBeUndefined();
    expect(answers.status('acme', 's0')).toBeDefined();
    expect(answers.status('acme', 's9')).toBeDefined();
    expect(answers.keptBytes).toBeLessThanOrEqual(40_000);

    // Two reads holding the same entry, each adding a coding: both count.
    const before = answers.keptBytes;
    const [first, second] = [answers.status('acme', 's9')!, answers.status('acme', 's9')!];
    const gzip = await answers.encoded(first, 'gzip');
    const br = await answers.encoded(second, 'br');
    expect(JSON.parse(gunzipSync(gzip).toString())).toMatchObject({ n: 9 });
    expect(answers.keptBytes - before).toBe(gzip.length + br.length);
    expect(await answers.encoded(answers.status('acme', 's9')!, 'gzip')).toBe(gzip); // made once
  });

  it('keeps no one answer above an eighth of its bytes, and a small body in memory of its own', async () => {
    const answers = await answersWith(new ScriptedListener(), 80_000);
    answers.rememberStatus('acme', 'huge', body({ text: 'x'.repeat(11_000) }));
    expect(answers.status('acme', 'huge')).toBeUndefined();
    const small = body({ status: 'completed' });
    // Not a slice of Node's shared pool: keeping it holds its own bytes only.
    expect(small.bytes.buffer.byteLength).toBe(small.bytes.length);
  });

  it('reads a page from the database again after its time (PAGE_TTL_MS), a status never', async () => {
    const answers = await answersWith(new ScriptedListener());
    expect(answers.pageTtlMs).toBe(PAGE_TTL_MS);
    answers.pageTtlMs = 50;
    answers.rememberStatus('acme', 's1', body({ status: 'completed' }));
    answers.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], answers.generation);
    expect(answers.page('acme', 's1', PAGE)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(answers.page('acme', 's1', PAGE)).toBeUndefined();
    expect(answers.status('acme', 's1')).toBeDefined();
  });

  it('keeps nothing when given no bytes', async () => {
    const answers = await answersWith(new ScriptedListener(), 0);
    answers.rememberStatus('acme', 's1', body({ status: 'completed' }));
    expect(answers.status('acme', 's1')).toBeUndefined();
  });

  describe('with the database telling it (PGlite, migration 0011)', () => {
    let db: PgliteDatabase;
    beforeAll(async () => {
      db = await openPglite(null);
      await migrate(db);
    });
    afterAll(() => db.close());

    it('drops a page when its CV is deleted, by whatever process deleted it', async () => {
      const company = await new CompaniesRepository(db).create('acme');
      const documents = new DocumentsRepository(db);
      const cv = (
        await documents.createOrFindDuplicate({
          id: crypto.randomUUID(),
          companyId: company.id,
          documentName: 'cv',
          documentType: 'txt',
          documentDate: '01-2024',
          contentHash: 'h1',
          fileName: 'cv.txt',
          fileSize: 4,
          contentType: 'text/plain',
          storageKey: 'k',
        })
      ).document;
      await documents.complete(
        cv.id,
        { extractedText: 'text', summary: null, contact: null, profile: null, chunks: [], understandingVersion: 1 },
        'Searchable',
      );
      const answers = await answersWith(db.notifications);
      answers.rememberPage(company.id, 's1', PAGE, body({ n: 1 }), [cv.id], answers.generation);
      answers.rememberPage(company.id, 's2', PAGE, body({ n: 2 }), [crypto.randomUUID()], answers.generation);
      await documents.delete(company.id, cv.id);
      await eventually(() => expect(answers.page(company.id, 's1', PAGE)).toBeUndefined());
      expect(answers.page(company.id, 's2', PAGE)).toBeDefined();
      await answers.onModuleDestroy();
    });
  });
});
