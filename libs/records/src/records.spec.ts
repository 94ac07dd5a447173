import { randomUUID } from 'node:crypto';
import { openPglite } from '@cs/pglite';
import type { SqlClient } from '@cs/ports';
import { CompaniesRepository, DocumentsRepository, SearchesRepository, migrate } from './index';

describe('records on PGlite', () => {
  let sql: SqlClient;
  let companies: CompaniesRepository;
  beforeAll(async () => {
    sql = await openPglite(null);
    expect(await migrate(sql)).toEqual(['0001_initial']);
    expect(await migrate(sql)).toEqual([]);
    companies = new CompaniesRepository(sql);
  }, 30_000);
  afterAll(() => sql.close());

  it('authenticates a live key by its hash only, and not after revocation', async () => {
    const company = await companies.create('acme');
    const { apiKey, record } = await companies.createKey(company.id);
    expect(apiKey).toMatch(/^csk_/);
    expect(record.keyPrefix).toBe(apiKey.slice(0, 8));
    const stored = await sql.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [record.id]);
    expect(stored[0].key_hash).not.toContain(apiKey.slice(4));
    expect((await companies.authenticate(apiKey))?.company.id).toBe(company.id);
    expect(await companies.revokeKeys(record.keyPrefix)).toBe(1);
    expect(await companies.authenticate(apiKey)).toBeNull();
  });

  it('stores per-company limit overrides', async () => {
    const company = await companies.create('limits');
    expect((await companies.setLimit(company.id, 'search', 500))?.limits).toEqual({ search: 500 });
    expect((await companies.setLimit(company.id, 'search', null))?.limits).toEqual({});
  });

  it('finds the first document when the same bytes come twice', async () => {
    const company = await companies.create('dupes');
    const documents = new DocumentsRepository(sql);
    const base = { companyId: company.id, documentName: 'cv', documentType: 'cv', documentDate: '01-2024', contentHash: 'h1', fileName: 'a.pdf', fileSize: 3, contentType: 'application/pdf', storageKey: 'k' };
    const first = await documents.createOrFindDuplicate({ ...base, id: randomUUID() });
    const second = await documents.createOrFindDuplicate({ ...base, id: randomUUID() });
    expect(first.duplicate).toBe(false);
    expect(second).toMatchObject({ duplicate: true, document: { id: first.document.id } });
  });

  it('lets the watchdog fail only overdue searches, and never overwrites the outcome', async () => {
    const company = await companies.create('searches');
    const searches = new SearchesRepository(sql);
    const id = randomUUID();
    await searches.create({ id, companyId: company.id, searchGroupId: randomUUID(), searchType: 'dense', query: 'q', topK: 20, rerankTopN: 30 });
    expect(await searches.failOverdue('dense', 60_000, 'timed out')).toEqual([]);
    expect(await searches.markProcessing(id)).toBe(true);
    expect(await searches.failOverdue('dense', 0, 'timed out')).toEqual([id]);
    expect(await searches.complete(id, [], {}, 5)).toBe(false);
    expect((await searches.getSummary(company.id, id))?.status).toBe('failed');
  });
});
