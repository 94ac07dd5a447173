import { randomUUID } from 'node:crypto';
import { UNDERSTANDING_VERSION } from '@cs/cv-understanding';
import { openPglite, type PgliteDatabase } from '@cs/pglite';
import type { DenseClient, SparseClient } from '@cs/ports';
import { DocumentsRepository, migrate } from '@cs/records';
import type { SearchAttributes } from '@cs/search-filters';
import { ProfileRefresh } from './profile-refresh.service';

const TEXT = `Ana Torres
Senior Software Engineer
Austin, TX | ana@example.com

EXPERIENCE
Senior Software Engineer, Example Systems
01/2015 - 12/2024
Built Java services on Kubernetes.

EDUCATION
Bachelor of Science in Computer Science

LANGUAGES
English, Spanish`;

describe('ProfileRefresh', () => {
  let sql: PgliteDatabase;
  const companyId = randomUUID();

  beforeAll(async () => {
    sql = await openPglite(null);
    await migrate(sql);
    await sql.query(`INSERT INTO companies (id, name) VALUES ($1, 'c')`, [companyId]);
  });
  afterAll(() => sql.close());

  /** A completed CV as an older version of CV understanding stored it. */
  async function storedBefore(version: number): Promise<string> {
    const documents = new DocumentsRepository(sql);
    const id = randomUUID();
    await documents.createOrFindDuplicate({
      id,
      companyId,
      documentName: 'cv',
      documentType: 'cv',
      documentDate: '12-2024',
      fileName: 'cv.txt',
      fileSize: TEXT.length,
      contentType: 'text/plain',
      storageKey: id,
      contentHash: id,
    });
    await documents.complete(
      id,
      { extractedText: TEXT, summary: null, contact: null, profile: null, chunks: [], understandingVersion: version },
      'Searchable',
    );
    return id;
  }

  function stores(failFirst = 0) {
    const given = new Map<string, SearchAttributes[]>();
    let failures = failFirst;
    const setAttributes = async (_companyId: string, documentId: string, attributes: SearchAttributes) => {
      if (failures > 0) {
        failures--;
        throw new Error('the dense service is unavailable');
      }
      given.set(documentId, [...(given.get(documentId) ?? []), attributes]);
      return true;
    };
    return { given, dense: { setAttributes } as unknown as DenseClient, sparse: { setAttributes } as unknown as SparseClient };
  }

  it('reads older CVs again, gives both stores their attributes, and leaves CVs read by this version alone', async () => {
    const older = await storedBefore(0);
    const current = await storedBefore(UNDERSTANDING_VERSION);
    const { given, dense, sparse } = stores();
    const documents = new DocumentsRepository(sql);
    const refresh = new ProfileRefresh(documents, dense, sparse);
    refresh.onApplicationBootstrap();
    await refresh.whenDone();

    expect([...given.keys()]).toEqual([older]);
    const [fromDense, fromSparse] = given.get(older)!;
    expect(fromDense).toEqual(fromSparse);
    expect(fromDense).toMatchObject({
      skills: expect.arrayContaining(['java', 'kubernetes']),
      seniority: 'senior',
      degree: 3,
      languages: ['english', 'spanish'],
      documentDate: 2024 * 12 + 11,
      location: { countryCode: 'US', regionCode: 'TX', city: 'austin', cityPoint: true },
    });
    expect((await documents.get(companyId, older))?.profile).toMatchObject({ degree: 'bachelor', languages: ['English', 'Spanish'] });
    expect((await documents.get(companyId, current))?.profile).toBeNull();
    expect(await documents.readBefore(UNDERSTANDING_VERSION, null, 10)).toEqual([]);
  });

  it('tries a page again when a store fails, and finishes', async () => {
    const older = await storedBefore(0);
    const { given, dense, sparse } = stores(1);
    const refresh = new ProfileRefresh(new DocumentsRepository(sql), dense, sparse);
    refresh.retryPauseMs = 10;
    refresh.onApplicationBootstrap();
    await refresh.whenDone();
    expect(given.has(older)).toBe(true);
    expect(await new DocumentsRepository(sql).readBefore(UNDERSTANDING_VERSION, null, 10)).toEqual([]);
  });

  it('passes over a CV that keeps failing, and goes on with the rest', async () => {
    const first = await storedBefore(0);
    const second = await storedBefore(0);
    const failing = [first, second].sort()[0];
    const given: string[] = [];
    const setAttributes = async (_companyId: string, documentId: string) => {
      if (documentId === failing) throw new Error('this CV always fails');
      given.push(documentId);
      return true;
    };
    const stores = { setAttributes } as unknown as DenseClient & SparseClient;
    const refresh = new ProfileRefresh(new DocumentsRepository(sql), stores, stores);
    refresh.retryPauseMs = 10;
    refresh.onApplicationBootstrap();
    await refresh.whenDone();
    expect(given).toContain([first, second].sort()[1]);
    expect((await new DocumentsRepository(sql).readBefore(UNDERSTANDING_VERSION, null, 10)).map((d) => d.id)).toEqual([failing]);
  });
});
