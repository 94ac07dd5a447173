import type { NotificationListener, SqlClient } from '@cs/ports';
import { eventually } from '@cs/test-services';
import { CompaniesRepository } from './companies.repository';
import { migrate } from './migrations';
import { DOCUMENT_CHANGED_CHANNEL, parseDocumentChanged, type DocumentChanged } from './document-changed';
import { DocumentsRepository } from './documents.repository';
import { SEARCH_ENDED_CHANNEL, parseSearchEnded, type SearchEnded } from './search-ended';
import { SearchesRepository } from './searches.repository';
import { DENSE_METADATA } from './testing/stored-search';

/** Migrations 0009 and 0011 in each database: the notifications a search's end and a CV's change send, and only then. */
export function describeNotificationsContract(
  name: string,
  open: () => Promise<{ sql: SqlClient; listener: NotificationListener; cleanup: () => Promise<void> }>,
) {
  describe(`notifications (${name})`, () => {
    let sql: SqlClient;
    let listener: NotificationListener;
    let cleanup: () => Promise<void>;
    const received: SearchEnded[] = [];
    const changed: DocumentChanged[] = [];
    let stop: () => Promise<void>;
    let stopChanged: () => Promise<void>;

    beforeAll(async () => {
      ({ sql, listener, cleanup } = await open());
      await migrate(sql);
      stop = await listener.listen(SEARCH_ENDED_CHANNEL, { onMessage: (p) => received.push(parseSearchEnded(p)!) });
      stopChanged = await listener.listen(DOCUMENT_CHANGED_CHANNEL, { onMessage: (p) => changed.push(parseDocumentChanged(p)!) });
    }, 60_000);
    afterAll(async () => {
      await stop?.();
      await stopChanged?.();
      await listener?.close();
      await sql?.close();
      await cleanup?.();
    });

    it('notifies the id, company and status when a search completes or fails, not when it starts', async () => {
      const company = await new CompaniesRepository(sql).create('acme');
      const searches = new SearchesRepository(sql);
      const base = {
        companyId: company.id,
        searchGroupId: crypto.randomUUID(),
        searchType: 'dense' as const,
        query: 'q',
        topK: 5,
        rerankTopN: 5,
      };
      const ok = (await searches.create({ ...base, id: crypto.randomUUID() }))!;
      const bad = (await searches.create({ ...base, id: crypto.randomUUID() }))!;
      await searches.markProcessing(ok.id);
      await searches.complete(ok.id, [], DENSE_METADATA, 12);
      await searches.fail(bad.id, 'no documents', false);
      await searches.fail(ok.id, 'too late', true); // already ended: no change, no notification
      await eventually(() =>
        expect(received).toEqual([
          { id: ok.id, companyId: company.id, status: 'completed' },
          { id: bad.id, companyId: company.id, status: 'failed' },
        ]),
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(received).toHaveLength(2);
    });

    it('sends nothing for a transaction that rolls back, and the same change committed after it once', async () => {
      const before = received.length;
      const company = await new CompaniesRepository(sql).create('rolled back');
      const id = crypto.randomUUID();
      await new SearchesRepository(sql).create({
        id,
        companyId: company.id,
        searchGroupId: id,
        searchType: 'dense',
        query: 'q',
        topK: 5,
        rerankTopN: 5,
      });
      await expect(
        sql.transaction(async (tx) => {
          await new SearchesRepository(tx).fail(id, 'x', true);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      // Notifications arrive in commit order: once the committed one is here, a rolled-back one
      // sent before it would be here too, with the same payload.
      await new SearchesRepository(sql).fail(id, 'x', true);
      await eventually(() => expect(received.slice(before)).toContainEqual({ id, companyId: company.id, status: 'failed' }));
      expect(received.slice(before)).toEqual([{ id, companyId: company.id, status: 'failed' }]);
    });

    it('notifies a CV changed after its first processing, or deleted; not its first processing, nor a change of status alone', async () => {
      const company = await new CompaniesRepository(sql).create('cvs');
      const documents = new DocumentsRepository(sql);
      const cv = (
        await documents.createOrFindDuplicate({
          id: crypto.randomUUID(),
          companyId: company.id,
          documentName: 'cv',
          documentType: 'pdf',
          documentDate: '01-2024',
          contentHash: crypto.randomUUID(),
          fileName: 'cv.pdf',
          fileSize: 10,
          contentType: 'application/pdf',
          storageKey: 'k',
        })
      ).document;
      const processed = { extractedText: 'text', summary: 'a summary', contact: null, profile: null, chunks: [], understandingVersion: 1 };
      await documents.complete(cv.id, processed, 'Searchable');
      await documents.complete(cv.id, processed, 'Searchable again'); // the same fields: nothing shown changes
      await new Promise((r) => setTimeout(r, 200));
      expect(changed).toEqual([]);
      await documents.complete(cv.id, { ...processed, summary: 'another summary' }, 'Processed again');
      await eventually(() => expect(changed).toEqual([{ id: cv.id, companyId: company.id }]));
      await documents.delete(company.id, cv.id);
      await eventually(() => expect(changed).toHaveLength(2));
      expect(changed[1]).toEqual({ id: cv.id, companyId: company.id });
    });
  });
}
