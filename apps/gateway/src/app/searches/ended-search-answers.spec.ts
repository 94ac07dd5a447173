import { gunzipSync } from 'node:zlib';
import type { AppConfig } from '@cs/config';
import { openPglite, type PgliteDatabase } from '@cs/pglite';
import type { NotificationHandlers, NotificationListener } from '@cs/ports';
import { DOCUMENT_CHANGED_CHANNEL } from '@cs/records';
import { eventually } from '@cs/test-services';
import { SerializedBody } from '../http/conditional-get';
import { EndedSearchAnswers } from './ended-search-answers';

const PAGE = { offset: 0, limit: 20, include: { extractedText: false } };
const body = (value: unknown) => new SerializedBody(JSON.stringify(value));

/** A listener the test drives: what it sends reaches the cache as a notification would. */
class ScriptedListener implements NotificationListener {
  handlers: NotificationHandlers | null = null;
  refuse = false;
  listen(_channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>> {
    if (this.refuse) return Promise.reject(new Error('connection refused'));
    this.handlers = handlers;
    return Promise.resolve(async () => undefined);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

async function answersWith(listener: NotificationListener, bytes = 1024 * 1024): Promise<EndedSearchAnswers> {
  const answers = new EndedSearchAnswers({ readCacheBytes: bytes } as AppConfig, listener);
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

  it('keeps statuses but no page when it cannot listen for changed CVs', async () => {
    const listener = new ScriptedListener();
    listener.refuse = true;
    const answers = await answersWith(listener);
    answers.rememberStatus('acme', 's1', body({ status: 'completed' }));
    answers.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], answers.generation);
    expect(answers.status('acme', 's1')).toBeDefined();
    expect(answers.page('acme', 's1', PAGE)).toBeUndefined();
  });

  it('stays within its bytes, least recently read going first, compressed codings counted', async () => {
    const answers = await answersWith(new ScriptedListener(), 40_000);
    const big = (n: number) => body({ n, text: 'x'.repeat(9000) });
    for (let i = 0; i < 3; i++) answers.rememberStatus('acme', `s${i}`, big(i));
    answers.status('acme', 's0'); // read: now the most recent
    answers.rememberStatus('acme', 's3', big(3));
    answers.rememberStatus('acme', 's4', big(4));
    expect(answers.status('acme', 's1')).toBeUndefined();
    expect(answers.status('acme', 's0')).toBeDefined();
    const kept = answers.status('acme', 's4')!;
    const gzip = answers.encoded(kept, 'gzip');
    expect(JSON.parse(gunzipSync(gzip).toString())).toMatchObject({ n: 4 });
    expect(answers.encoded(answers.status('acme', 's4')!, 'gzip')).toBe(gzip); // made once
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
    });
    afterAll(() => db.close());

    it('drops a page when its CV is deleted by another process', async () => {
      const answers = await answersWith(db.notifications);
      answers.rememberPage('acme', 's1', PAGE, body({ n: 1 }), ['d1'], answers.generation);
      await db.query(`SELECT pg_notify('${DOCUMENT_CHANGED_CHANNEL}', $1)`, [JSON.stringify({ id: 'd1', companyId: 'acme' })]);
      await eventually(() => expect(answers.page('acme', 's1', PAGE)).toBeUndefined());
      await answers.onModuleDestroy();
    });
  });
});
