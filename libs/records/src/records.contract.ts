import { randomUUID } from 'node:crypto';
import type { SqlClient } from '@cs/ports';
import { describeWith, type TestNeed } from '@cs/test-services';
import {
  CompaniesRepository,
  DenseReindexesRepository,
  DocumentsRepository,
  IdempotencyKeysRepository,
  MIGRATIONS,
  OutboxRepository,
  SKIPPED_IDS_KEPT,
  SearchesRepository,
  SavedSearchesRepository,
  ShortlistsRepository,
  WebhooksRepository,
  migrate,
  type OutboxEntry,
} from './index';
import { DENSE_METADATA, MATCH_METADATA, storedResult } from './testing/stored-search';

/** A small text file's document fields, for tests that need CVs but not what is in them. */
const TEXT_FILE = {
  documentName: 'cv',
  documentType: 'cv',
  documentDate: '01-2024',
  fileName: 'a.txt',
  fileSize: 3,
  contentType: 'text/plain',
  storageKey: 'k',
};

const SKILL_CRITERION = { kind: 'skill' as const, name: 'general ledger', required: true, weight: 1 };

/** What the repositories must do on every SqlClient (PGlite and PostgreSQL). */
export function describeRecordsContract(
  name: string,
  open: () => Promise<{ sql: SqlClient; cleanup: () => Promise<void> }>,
  needs: TestNeed[] = [],
): void {
  describeWith(needs)(`records on ${name}`, () => {
    let sql: SqlClient;
    let cleanup: () => Promise<void> = async () => undefined;
    let companies: CompaniesRepository;
    beforeAll(async () => {
      ({ sql, cleanup } = await open());
      expect(await migrate(sql)).toEqual(MIGRATIONS.map((m) => m.id));
      expect(await migrate(sql)).toEqual([]);
      companies = new CompaniesRepository(sql);
    }, 30_000);
    afterAll(async () => {
      await sql?.close();
      await cleanup();
    });
    const test = it;

    test('authenticates a live key by its hash only, and not after revocation', async () => {
      const company = await companies.create('acme');
      const { apiKey, record } = await companies.createKey(company.id);
      expect(apiKey).toMatch(/^csk_/);
      expect(record.keyPrefix).toBe(apiKey.slice(0, 8));
      const stored = await sql.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [record.id]);
      expect(stored[0].key_hash).not.toContain(apiKey.slice(4));
      expect((await companies.authenticate(apiKey))?.company.id).toBe(company.id);
      const other = await companies.create('other');
      expect(await companies.revokeKeys(other.id, record.keyPrefix)).toBe(0);
      expect((await companies.authenticate(apiKey))?.company.id).toBe(company.id);
      expect(await companies.revokeKeys(company.id, record.keyPrefix)).toBe(1);
      expect(await companies.authenticate(apiKey)).toBeNull();
    });

    test('trusts an authenticated key for a while, and a change made elsewhere after that while', async () => {
      const company = await companies.create('cached');
      const { apiKey, record } = await companies.createKey(company.id);
      let lookups = 0;
      const counting = {
        ...sql,
        query: <T>(text: string, params?: unknown[]) => ((lookups += text.includes('FROM api_keys k') ? 1 : 0), sql.query<T>(text, params)),
      };
      // The cache's expiry reads Date.now: held still here, and moved on by hand.
      let now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
      try {
        const replica = new CompaniesRepository(counting, 150);
        expect((await replica.authenticate(apiKey))?.keyId).toBe(record.id);
        expect((await replica.authenticate(apiKey))?.keyId).toBe(record.id);
        expect(lookups).toBe(1);
        // Revoked through another process: this one notices once its entry expires, and not before.
        expect(await companies.revokeKeys(company.id, record.keyPrefix)).toBe(1);
        now += 149;
        expect((await replica.authenticate(apiKey))?.keyId).toBe(record.id);
        expect(lookups).toBe(1);
        now += 1;
        expect(await replica.authenticate(apiKey)).toBeNull();
        expect(lookups).toBe(2);
      } finally {
        clock.mockRestore();
      }
    });

    test('sees a changed limit at once in the process that changed it', async () => {
      const company = await companies.create('limit-cached');
      const { apiKey } = await companies.createKey(company.id);
      expect((await companies.authenticate(apiKey))?.company.limits).toEqual({});
      await companies.setLimit(company.id, 'search', 7);
      expect((await companies.authenticate(apiKey))?.company.limits).toEqual({ search: 7 });
    });

    test('stores per-company limit overrides', async () => {
      const company = await companies.create('limits');
      expect((await companies.setLimit(company.id, 'search', 500))?.limits).toEqual({ search: 500 });
      expect((await companies.setLimit(company.id, 'search', null))?.limits).toEqual({});
    });

    test('finds the first document when the same bytes come twice', async () => {
      const company = await companies.create('dupes');
      const documents = new DocumentsRepository(sql);
      const base = {
        companyId: company.id,
        documentName: 'cv',
        documentType: 'cv',
        documentDate: '01-2024',
        contentHash: 'h1',
        fileName: 'a.pdf',
        fileSize: 3,
        contentType: 'application/pdf',
        storageKey: 'k',
      };
      const first = await documents.createOrFindDuplicate({ ...base, id: randomUUID() });
      const second = await documents.createOrFindDuplicate({ ...base, id: randomUUID() });
      expect(first.duplicate).toBe(false);
      expect(second).toMatchObject({ duplicate: true, document: { id: first.document.id } });
      const listed = await documents.list(company.id, {}, 10, 0);
      expect(listed.total).toBe(1);
      expect(listed.items[0].extractedText).toBeNull();
    });

    test('keeps a job posting apart from the CVs: listed by kind, never searchable, counted, reindexed or read again', async () => {
      const company = await companies.create('postings');
      const documents = new DocumentsRepository(sql);
      const base = { ...TEXT_FILE, companyId: company.id, documentName: 'doc' };
      const cv = (await documents.createOrFindDuplicate({ ...base, id: randomUUID(), contentHash: 'k1' })).document;
      const job = (await documents.createOrFindDuplicate({ ...base, id: randomUUID(), contentHash: 'k2', kind: 'job' })).document;
      expect([cv.kind, job.kind]).toEqual(['cv', 'job']);
      const read = { extractedText: 'Staff Accountant', summary: null, contact: null, profile: null, chunks: [], understandingVersion: 0 };
      for (const d of [cv, job]) await documents.complete(d.id, read, 'done');
      expect((await documents.list(company.id, { kind: 'job' }, 10, 0)).items.map((d) => d.id)).toEqual([job.id]);
      expect((await documents.list(company.id, { kind: 'cv', status: 'completed' }, 10, 0)).items.map((d) => d.id)).toEqual([cv.id]);
      expect([...(await documents.getSearchable(company.id, [cv.id, job.id])).keys()]).toEqual([cv.id]);
      expect(await documents.countCompleted(company.id)).toBe(1);
      expect(await documents.countProcessed(company.id)).toBe(1);
      expect((await documents.processedAfter(null, company.id, 10)).map((d) => d.id)).toEqual([cv.id]);
      expect((await documents.readBefore(1, null, 1000)).map((d) => d.id)).not.toContain(job.id);
      await expect(sql.query("UPDATE documents SET kind = 'resume' WHERE id = $1", [job.id])).rejects.toThrow();
    });

    test('takes a document to pending and to completed only while it exists, and never back from a final status', async () => {
      const company = await companies.create('lifecycle');
      const documents = new DocumentsRepository(sql);
      const base = {
        companyId: company.id,
        documentName: 'cv',
        documentType: 'cv',
        documentDate: '01-2024',
        fileName: 'a.pdf',
        fileSize: 3,
        contentType: 'application/pdf',
        storageKey: 'k',
      };
      const waiting = (await documents.createOrFindDuplicate({ ...base, id: randomUUID(), contentHash: 'l1' })).document;
      const started = await documents.startProcessing(waiting.id, 'Parsing and indexing');
      expect(started).toMatchObject({ id: waiting.id, status: 'pending', message: 'Parsing and indexing', companyId: company.id });
      // A redelivered job picks a document cut off mid-processing up again.
      expect((await documents.startProcessing(waiting.id, 'Parsing and indexing'))?.status).toBe('pending');
      const processed = {
        extractedText: 'Nurse, ICU.',
        summary: 'Nurse.',
        contact: null,
        profile: null,
        chunks: [{ index: 0, start: 0, end: 11 }],
        understandingVersion: 1,
      };
      expect(await documents.complete(waiting.id, processed, 'Searchable')).toBe(true);
      expect(await documents.get(company.id, waiting.id)).toMatchObject({
        status: 'completed',
        message: 'Searchable',
        extractedText: 'Nurse, ICU.',
        summary: 'Nurse.',
        chunks: processed.chunks,
      });
      expect(await documents.startProcessing(waiting.id, 'Parsing and indexing')).toBeNull();

      const failed = (await documents.createOrFindDuplicate({ ...base, id: randomUUID(), contentHash: 'l2' })).document;
      await documents.setStatus(failed.id, 'failed', 'The file could not be read', { message: 'bad pdf', retryable: false });
      expect(await documents.startProcessing(failed.id, 'Parsing and indexing')).toBeNull();

      const deleted = (await documents.createOrFindDuplicate({ ...base, id: randomUUID(), contentHash: 'l3' })).document;
      await documents.delete(company.id, deleted.id);
      expect(await documents.startProcessing(deleted.id, 'Parsing and indexing')).toBeNull();
      expect(await documents.complete(deleted.id, processed, 'Searchable')).toBe(false);
    });

    test('hands out the texts of processed documents only, kept uncompressed for fast reads', async () => {
      const company = await companies.create('texts');
      const documents = new DocumentsRepository(sql);
      const base = {
        companyId: company.id,
        documentName: 'cv',
        documentType: 'cv',
        documentDate: '01-2024',
        fileName: 'a.pdf',
        fileSize: 3,
        contentType: 'application/pdf',
        storageKey: 'k',
      };
      const processed = (await documents.createOrFindDuplicate({ ...base, id: randomUUID(), contentHash: 't1' })).document;
      const unprocessed = (await documents.createOrFindDuplicate({ ...base, id: randomUUID(), contentHash: 't2' })).document;
      // Long and repetitive: pglz would compress it, were the column compressed.
      const text = 'Senior Java engineer. '.repeat(400);
      await documents.complete(
        processed.id,
        {
          extractedText: text,
          summary: null,
          contact: null,
          profile: null,
          chunks: [{ index: 0, start: 0, end: 22 }],
          understandingVersion: 1,
        },
        'Searchable',
      );
      expect(await documents.getTexts(company.id, [processed.id, unprocessed.id])).toEqual(new Map([[processed.id, text]]));
      expect(await documents.getContents(company.id, [processed.id, unprocessed.id])).toEqual(
        new Map([[processed.id, { text, chunks: [{ index: 0, start: 0, end: 22 }] }]]),
      );
      expect(await documents.getChunks(company.id, [processed.id, unprocessed.id])).toEqual(
        new Map([[processed.id, [{ index: 0, start: 0, end: 22 }]]]),
      );
      expect(await documents.getProfiles(company.id, [processed.id, unprocessed.id])).toEqual(new Map([[processed.id, null]]));
      expect(await documents.getTexts(randomUUID(), [processed.id])).toEqual(new Map());
      const [stored] = await sql.query<{ stored: number }>('SELECT pg_column_size(extracted_text) AS stored FROM documents WHERE id = $1', [
        processed.id,
      ]);
      expect(Number(stored.stored)).toBeGreaterThanOrEqual(text.length);
    });

    test("reads a completed search's results and its type's metadata back as stored, and refuses what does not fit them", async () => {
      const company = await companies.create('stored results');
      const searches = new SearchesRepository(sql);
      const search = {
        companyId: company.id,
        searchGroupId: randomUUID(),
        searchType: 'dense' as const,
        query: 'nurse',
        topK: 5,
        rerankTopN: 30,
      };
      const id = randomUUID();
      await searches.create({ ...search, id });
      const results = [storedResult(randomUUID())];
      expect(await searches.complete(id, results, DENSE_METADATA, 7)).toBe(true);
      const read = await searches.get(company.id, id);
      expect(read).toMatchObject({ searchType: 'dense', results, metadata: DENSE_METADATA, resultsCount: 1 });
      expect(await searches.getMany(company.id, [id])).toEqual([read]);
      // As the database returns them, keys in jsonb's order: answers built from them keep their bytes.
      const [raw] = await sql.query<{ results: unknown; metadata: unknown }>('SELECT results, metadata FROM searches WHERE id = $1', [id]);
      expect(JSON.stringify([read?.results, read?.metadata])).toBe(JSON.stringify([raw.results, raw.metadata]));
      // The status view reads no results, and its metadata alike.
      expect(await searches.getSummary(company.id, id)).toMatchObject({ results: null, metadata: DENSE_METADATA });

      // A search stored before the dense model was recorded still reads.
      await sql.query('UPDATE searches SET metadata = $2 WHERE id = $1', [id, { ...DENSE_METADATA, denseModel: undefined }]);
      expect((await searches.get(company.id, id))?.metadata).toEqual({ ...DENSE_METADATA, denseModel: undefined });
      // Metadata that fits no version of the type's: the read names the search and the missing field.
      await sql.query('UPDATE searches SET metadata = $2 WHERE id = $1', [id, { ...DENSE_METADATA, stageTimingsMs: undefined }]);
      await expect(searches.get(company.id, id)).rejects.toThrow(new RegExp(`metadata of search ${id}[^]*stageTimingsMs`));
      await sql.query('UPDATE searches SET metadata = $2, results = $3 WHERE id = $1', [
        id,
        DENSE_METADATA,
        JSON.stringify([{ ...results[0], rank: 0 }]),
      ]);
      await expect(searches.getMany(company.id, [id])).rejects.toThrow(new RegExp(`results of search ${id}[^]*rank`));

      // A match search keeps its criteria, and reads them back against their schema.
      const match = {
        criteria: {
          title: 'Staff Accountant',
          summary: null,
          skills: { required: [{ name: 'general ledger', weight: 1 }], preferred: [] },
          experienceYears: { min: 2 },
          seniority: null,
          location: { remote: true as const },
          degree: null,
          languages: [],
        },
        strict: true,
        place: null,
        requirements: {
          base: { seniority: ['senior'] },
          each: [{ criterion: SKILL_CRITERION, filter: { skills: { all: ['general ledger'], any: [], none: [] } } }],
        },
      };
      const matchId = randomUUID();
      await searches.create({ ...search, id: matchId, searchType: 'match', query: '', match });
      expect(await searches.getSummary(company.id, matchId)).toMatchObject({ searchType: 'match', match });
      expect((await searches.getSummary(company.id, id))?.match).toBeNull();
      // Completed, its requirement counts and near misses read back; the status view reads none.
      const matchOutcome = {
        candidatesMeetingAll: 3,
        relaxations: [{ criterion: SKILL_CRITERION, additionalCandidates: 12 }],
        nearMisses: [
          { documentId: randomUUID(), documentName: 'cv', score: 0.5, missing: SKILL_CRITERION, match: { score: 0.5, criteria: [] } },
        ],
      };
      expect(await searches.complete(matchId, [], MATCH_METADATA, 9, null, matchOutcome)).toBe(true);
      expect(await searches.get(company.id, matchId)).toMatchObject({ metadata: MATCH_METADATA, matchOutcome });
      expect((await searches.getSummary(company.id, matchId))?.matchOutcome).toBeNull();
      await sql.query('UPDATE searches SET match = $2 WHERE id = $1', [matchId, { ...match, strict: 'yes' }]);
      await expect(searches.get(company.id, matchId)).rejects.toThrow(new RegExp(`criteria of search ${matchId}[^]*strict`));
    });

    test("reads a document's contact and profile back as stored, and refuses what does not fit them", async () => {
      const company = await companies.create('stored contact');
      const documents = new DocumentsRepository(sql);
      const { document } = await documents.createOrFindDuplicate({
        id: randomUUID(),
        companyId: company.id,
        documentName: 'cv',
        documentType: 'cv',
        documentDate: '01-2024',
        contentHash: 'c1',
        fileName: 'a.pdf',
        fileSize: 3,
        contentType: 'application/pdf',
        storageKey: 'k',
      });
      const contact = {
        firstName: 'Ada',
        lastName: 'Byron',
        email: null,
        phone: null,
        linkedin: null,
        location: { city: 'London', country: null },
      };
      const profile = {
        domain: 'healthcare',
        specialization: null,
        seniorityLevel: 'senior',
        experienceYears: 8,
        technicalStack: [],
        skills: [],
        degree: 'bachelor' as const,
        languages: ['English', 'Spanish'],
        industries: ['healthcare'],
        recentExpertise: ['icu'],
        hasManagement: null,
        location: {
          kind: 'city' as const,
          city: 'London',
          region: 'England',
          regionCode: 'ENG',
          country: 'United Kingdom',
          countryCode: 'GB',
          lat: 51.50853,
          lon: -0.12574,
        },
      };
      await documents.complete(
        document.id,
        { extractedText: 'Nurse, ICU.', summary: null, contact, profile, chunks: [], understandingVersion: 1 },
        'Searchable',
      );
      expect(await documents.get(company.id, document.id)).toMatchObject({ contact, profile });
      expect((await documents.list(company.id, {}, 10, 0)).items).toEqual([expect.objectContaining({ contact, profile })]);

      await sql.query('UPDATE documents SET profile = $2 WHERE id = $1', [document.id, { ...profile, experienceYears: '8' }]);
      await expect(documents.get(company.id, document.id)).rejects.toThrow(
        new RegExp(`profile of document ${document.id}[^]*experienceYears`),
      );
    });

    test('lets the watchdog fail only overdue searches, and never overwrites the outcome', async () => {
      const company = await companies.create('searches');
      const searches = new SearchesRepository(sql);
      const id = randomUUID();
      const group = randomUUID();
      await searches.create({ id, companyId: company.id, searchGroupId: group, searchType: 'dense', query: 'q', topK: 20, rerankTopN: 30 });
      const sparse = randomUUID();
      await searches.create({
        id: sparse,
        companyId: company.id,
        searchGroupId: randomUUID(),
        searchType: 'sparse',
        query: 'q',
        topK: 20,
        rerankTopN: 30,
      });
      expect(await searches.failOverdue({ dense: 60_000, sparse: 60_000 }, 'timed out')).toEqual([]);
      expect(await searches.markProcessing(id)).toBe(true);
      // Each type against its own limit: only the dense search is past it.
      expect(await searches.failOverdue({ dense: 0, sparse: 60_000 }, 'timed out')).toEqual([id]);
      expect((await searches.getSummary(company.id, sparse))?.status).toBe('initiated');
      expect(await searches.complete(id, [], DENSE_METADATA, 5)).toBe(false);
      expect((await searches.getSummary(company.id, id))?.status).toBe('failed');
      const groups = await searches.listGroups(company.id, 'failed', 10, 0);
      expect(groups.items).toEqual([
        expect.objectContaining({ searchGroupId: group, statuses: ['failed'], searchTypes: ['dense'], query: 'q' }),
      ]);
    });

    test("refuses a search past its group's bound", async () => {
      const company = await companies.create('bounded group');
      const searches = new SearchesRepository(sql);
      const group = randomUUID();
      const make = (companyId = company.id) =>
        searches.create(
          { id: randomUUID(), companyId, searchGroupId: group, searchType: 'dense', query: 'q', topK: 20, rerankTopN: 30 },
          2,
        );
      expect(await make()).not.toBeNull();
      expect(await make()).not.toBeNull();
      expect(await make()).toBeNull();
      // Groups are per company: another company's searches under the same id do not count.
      const other = await companies.create('other company');
      expect(await make(other.id)).not.toBeNull();
    });

    test("writes a job in its record's transaction, leases due rows to one claimer at a time, and keeps a row until it is deleted", async () => {
      const company = await companies.create('outbox');
      const outbox = new OutboxRepository(sql);
      const newSearch = (id: string) => ({
        id,
        companyId: company.id,
        searchGroupId: randomUUID(),
        searchType: 'dense' as const,
        query: 'q',
        topK: 20,
        rerankTopN: 30,
      });
      const job = (searchId: string): OutboxEntry => ({ kind: 'search', jobId: searchId, payload: { searchId } });
      const stored = async (id: string) =>
        (
          await sql.query<{ attempts: number; last_error: string | null }>('SELECT attempts, last_error FROM outbox WHERE id = $1', [id])
        )[0];

      // Rolled back: neither the search nor its job.
      const lost = randomUUID();
      await expect(
        sql.transaction(async (tx) => {
          await new SearchesRepository(tx).create(newSearch(lost));
          await outbox.add([job(lost)], 0, tx);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await sql.query('SELECT id FROM searches WHERE id = $1', [lost])).toEqual([]);
      expect(await stored(`search:${lost}`)).toBeUndefined();

      // Committed: both. Its writer holds the row for the lease, so no poll takes it meanwhile.
      const held = randomUUID();
      await sql.transaction(async (tx) => {
        await new SearchesRepository(tx).create(newSearch(held));
        await outbox.add([job(held)], 60_000, tx);
      });
      expect(await stored(`search:${held}`)).toEqual({ attempts: 0, last_error: null });
      expect(await outbox.claimDue(10, 60_000)).toEqual([]);

      // Due rows go to one claimer each, even when claims race.
      const due = Array.from({ length: 12 }, () => randomUUID());
      await outbox.add(due.map(job), 0);
      const claims = await Promise.all([outbox.claimDue(5, 60_000), outbox.claimDue(5, 60_000), outbox.claimDue(5, 60_000)]);
      const claimed = claims.flat().map((row) => row.jobId);
      expect(claimed.sort()).toEqual([...due].sort());
      expect(claims.flat()[0]).toEqual({
        id: `search:${claims.flat()[0].jobId}`,
        kind: 'search',
        jobId: claims.flat()[0].jobId,
        payload: { searchId: claims.flat()[0].jobId },
        attempts: 0,
      });
      expect(await outbox.claimDue(10, 60_000)).toEqual([]);

      // A failed publish: counted, due again after its delay, then published and deleted.
      await outbox.release(`search:${due[0]}`, 0, 'queue down');
      expect(await stored(`search:${due[0]}`)).toEqual({ attempts: 1, last_error: 'queue down' });
      expect(await outbox.claimDue(10, 60_000)).toEqual([expect.objectContaining({ jobId: due[0], attempts: 1 })]);
      await outbox.delete(due.map((id) => `search:${id}`));
      expect(await sql.query('SELECT id FROM outbox WHERE id = ANY($1::text[])', [due.map((id) => `search:${id}`)])).toEqual([]);
      expect(await stored(`search:${held}`)).toBeDefined();
    });

    describe('idempotency keys', () => {
      const request = (scope: string, key: string, body = 'b1') => ({
        scope,
        key,
        method: 'POST',
        path: '/v1/public/searches/dense',
        fingerprint: `fp-${body}`,
      });
      const answer = {
        status: 202,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: Buffer.from([0, 1, 254, 255, 123]),
      };
      const expire = (scope: string, key: string) =>
        sql.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE scope = $1 AND key = $2`, [scope, key]);

      test('gives a key to one claimer, keeps its answer byte for byte, and hands that answer to later claims', async () => {
        const keys = new IdempotencyKeysRepository(sql);
        const scope = `company:${randomUUID()}`;
        const first = await keys.claim(request(scope, 'k1'));
        if (!first.claimed) throw new Error('the first claim must take the key');
        // In flight: another claim sees the row, without an answer.
        expect(await keys.claim(request(scope, 'k1'))).toMatchObject({
          claimed: false,
          record: { state: 'processing', answer: null, fingerprint: 'fp-b1', path: '/v1/public/searches/dense' },
        });
        expect(await keys.complete(scope, 'k1', first.token, answer)).toBe(true);
        const later = await keys.claim(request(scope, 'k1', 'another body'));
        expect(later).toMatchObject({ claimed: false, record: { state: 'completed', fingerprint: 'fp-b1', answer } });
        if (later.claimed) return;
        expect(Buffer.isBuffer(later.record.answer?.body)).toBe(true);
        expect(later.record.expiresAt.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
        // A completed claim cannot be completed or released again.
        expect(await keys.complete(scope, 'k1', first.token, answer)).toBe(false);
        expect(await keys.release(scope, 'k1', first.token)).toBe(false);
      });

      test('gives a key to exactly one of many racing claims, and keeps scopes apart', async () => {
        const keys = new IdempotencyKeysRepository(sql);
        const scope = `company:${randomUUID()}`;
        const claims = await Promise.all(Array.from({ length: 8 }, () => keys.claim(request(scope, 'race'))));
        expect(claims.filter((c) => c.claimed)).toHaveLength(1);
        // The same key in another company, or the admin scope, is another key.
        expect((await keys.claim(request(`company:${randomUUID()}`, 'race'))).claimed).toBe(true);
        expect((await keys.claim(request('admin', `race-${randomUUID()}`))).claimed).toBe(true);
      });

      test('frees a released key for the next claim, and lets a claim take over an expired answer or lease', async () => {
        const keys = new IdempotencyKeysRepository(sql);
        const scope = `company:${randomUUID()}`;
        const first = await keys.claim(request(scope, 'k'));
        if (!first.claimed) throw new Error('the first claim must take the key');
        expect(await keys.release(scope, 'k', first.token)).toBe(true);
        const second = await keys.claim(request(scope, 'k', 'b2'));
        if (!second.claimed) throw new Error('a released key is free');
        await keys.complete(scope, 'k', second.token, answer);
        await expire(scope, 'k');
        const third = await keys.claim(request(scope, 'k', 'b3'));
        if (!third.claimed) throw new Error('an expired answer is not replayed');
        expect(await keys.get(scope, 'k')).toMatchObject({ state: 'processing', answer: null, fingerprint: 'fp-b3' });
        // A lease past its end (its process died): taken over, and the old claimer cannot store over the new one.
        await expire(scope, 'k');
        const fourth = await keys.claim(request(scope, 'k', 'b4'));
        if (!fourth.claimed) throw new Error('an expired lease is taken over');
        expect(await keys.complete(scope, 'k', third.token, answer)).toBe(false);
        expect(await keys.release(scope, 'k', third.token)).toBe(false);
        expect(await keys.get(scope, 'k')).toMatchObject({ state: 'processing', fingerprint: 'fp-b4' });
      });

      test('prunes expired keys a bounded batch at a time, and only those', async () => {
        const keys = new IdempotencyKeysRepository(sql, { ttlMs: 60_000 });
        const scope = `company:${randomUUID()}`;
        for (let i = 0; i < 5; i++) {
          const claim = await keys.claim(request(scope, `p${i}`));
          if (claim.claimed) await keys.complete(scope, `p${i}`, claim.token, answer);
        }
        await sql.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE scope = $1 AND key <> 'p4'`, [scope]);
        const pruned: number[] = [];
        for (let pass = 0; pass < 4; pass++) pruned.push(await keys.pruneExpired(3));
        // Other tests' expired rows may be pruned too; this scope's four go, within the bound of each pass.
        expect(pruned.every((n) => n <= 3)).toBe(true);
        const left = await sql.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE scope = $1', [scope]);
        expect(left.map((r) => r.key)).toEqual(['p4']);
      });

      test('refuses to store an answer over the bound', async () => {
        const keys = new IdempotencyKeysRepository(sql);
        const scope = `company:${randomUUID()}`;
        const claim = await keys.claim(request(scope, 'big'));
        if (!claim.claimed) throw new Error('the first claim must take the key');
        await expect(keys.complete(scope, 'big', claim.token, { ...answer, body: Buffer.alloc(64 * 1024 + 1) })).rejects.toThrow(
          /over the 65536 bytes/,
        );
      });
    });

    test('walks processed CVs in company and id order, one company or all, for a reindex, and names those deleted meanwhile', async () => {
      const company = await companies.create('reindexed');
      const documents = new DocumentsRepository(sql);
      const ids = [randomUUID(), randomUUID(), randomUUID()].sort();
      for (const [i, id] of ids.entries()) {
        await documents.createOrFindDuplicate({
          id,
          companyId: company.id,
          documentName: `cv${i}`,
          documentType: 'cv',
          documentDate: '01-2024',
          contentHash: `walk-${id}`,
          fileName: 'a.txt',
          fileSize: 3,
          contentType: 'text/plain',
          storageKey: 'k',
        });
        // The last one stays pending: not processed, nothing to embed again.
        if (i < 2)
          await documents.complete(
            id,
            { extractedText: `CV ${i}`, summary: null, contact: null, profile: null, chunks: [], understandingVersion: 1 },
            'Searchable',
          );
      }
      expect(await documents.countProcessed(company.id)).toBe(2);
      const first = await documents.processedAfter(null, company.id, 1);
      expect(first).toEqual([
        { companyId: company.id, id: ids[0], text: 'CV 0', chunks: [], profile: null, documentDate: '01-2024', understandingVersion: 1 },
      ]);
      const rest = await documents.processedAfter({ companyId: company.id, documentId: ids[0] }, company.id, 10);
      expect(rest.map((d) => d.id)).toEqual([ids[1]]);
      expect(await documents.processedAfter({ companyId: company.id, documentId: ids[1] }, company.id, 10)).toEqual([]);

      // A CV deleted after its page was read is named, with what the caller gave; another company's id is not taken for it.
      const page = await documents.processedAfter(null, company.id, 10);
      const elsewhere = {
        companyId: (await companies.create('elsewhere')).id,
        id: ids[0],
        text: '',
        chunks: [],
        profile: null,
        documentDate: '01-2024',
        understandingVersion: 1,
      };
      expect(await documents.deletedAmong(page)).toEqual([]);
      await documents.delete(company.id, ids[1]);
      expect(await documents.deletedAmong([...page, elsewhere])).toEqual([page[1], elsewhere]);
      expect(await documents.deletedAmong([])).toEqual([]);
    });

    test('runs one dense reindex at a time, leased to one worker, which records its pages and its end', async () => {
      const reindexes = new DenseReindexesRepository(sql);
      const started = await reindexes.start({ companyId: null, fromModel: 'builtin:a', toModel: 'onnx:b@1', documentsTotal: 5 });
      expect(started).toMatchObject({ state: 'running', documentsDone: 0, cursorCompanyId: null, switched: false });
      expect(await reindexes.start({ companyId: null, fromModel: 'builtin:a', toModel: 'onnx:b@1', documentsTotal: 5 })).toBeNull();
      expect((await reindexes.claim('worker-1', 60_000))?.id).toBe(started!.id);
      // Another worker waits while the lease holds; the holder may claim it again.
      expect(await reindexes.claim('worker-2', 60_000)).toBeNull();
      expect((await reindexes.claim('worker-1', 60_000))?.id).toBe(started!.id);
      const cursor = { companyId: randomUUID(), documentId: randomUUID() };
      const skipped = [randomUUID()];
      const page = { cursor, done: 3, skipped };
      expect(await reindexes.advance(started!.id, 'worker-2', page, 60_000)).toBe(false);
      expect(await reindexes.advance(started!.id, 'worker-1', page, 60_000)).toBe(true);
      expect(await reindexes.get(started!.id)).toMatchObject({
        documentsDone: 3,
        documentsSkipped: 1,
        skippedDocumentIds: skipped,
        cursorCompanyId: cursor.companyId,
        cursorDocumentId: cursor.documentId,
      });
      // The catch-up pass has no cursor: it stays; skipped CVs add up, their ids kept up to a bound.
      const many = Array.from({ length: SKIPPED_IDS_KEPT + 5 }, () => randomUUID());
      expect(await reindexes.advance(started!.id, 'worker-1', { cursor: null, done: 0, skipped: many }, 60_000)).toBe(true);
      const after = await reindexes.get(started!.id);
      expect(after).toMatchObject({ documentsDone: 3, documentsSkipped: SKIPPED_IDS_KEPT + 6, cursorDocumentId: cursor.documentId });
      expect(after!.skippedDocumentIds).toEqual([...skipped, ...many].slice(0, SKIPPED_IDS_KEPT));
      // A lease that ran out passes to another worker, which resumes from the cursor.
      await reindexes.claim('worker-1', -1000);
      expect(await reindexes.claim('worker-2', 60_000)).toMatchObject({ id: started!.id, documentsDone: 3 });
      expect(await reindexes.finish(started!.id, 'worker-1', { state: 'completed', switched: true })).toBe(false);
      expect(await reindexes.finish(started!.id, 'worker-2', { state: 'completed', switched: true })).toBe(true);
      expect(await reindexes.latest()).toMatchObject({
        id: started!.id,
        state: 'completed',
        switched: true,
        finishedAt: expect.any(Date) as unknown,
      });
      const next = await reindexes.start({ companyId: null, fromModel: 'onnx:b@1', toModel: 'onnx:b@1', documentsTotal: 0 });
      expect(next?.id).not.toBe(started!.id);
      expect(await reindexes.claim('worker-3', 60_000)).toMatchObject({ id: next!.id });
      expect(await reindexes.finish(next!.id, 'worker-3', { state: 'failed', error: 'the API refused the key' })).toBe(true);
      expect(await reindexes.get(next!.id)).toMatchObject({ state: 'failed', error: 'the API refused the key', switched: false });
    });

    test('keeps shortlists to their company, within their limits, and drops a deleted CV from them', async () => {
      const shortlists = new ShortlistsRepository(sql);
      const documents = new DocumentsRepository(sql);
      const company = await companies.create('lists');
      const other = await companies.create('lists elsewhere');
      const limits = { listsPerCompany: 2, itemsPerList: 2 };
      const cv = async (companyId: string, hash: string, kind: 'cv' | 'job' = 'cv') =>
        (await documents.createOrFindDuplicate({ ...TEXT_FILE, companyId, id: randomUUID(), contentHash: hash, kind })).document;
      const [a, b, c] = [await cv(company.id, 's1'), await cv(company.id, 's2'), await cv(company.id, 's3')];
      const job = await cv(company.id, 's4', 'job');
      const foreign = await cv(other.id, 's5');

      const list = await shortlists.create(company.id, 'Backend', limits);
      if (typeof list === 'string') throw new Error(list);
      expect(list).toMatchObject({ name: 'Backend', itemsCount: 0, companyId: company.id });
      expect(await shortlists.create(company.id, 'Backend', limits)).toBe('name_taken');
      expect(typeof (await shortlists.create(other.id, 'Backend', limits))).toBe('object');
      expect(typeof (await shortlists.create(company.id, 'Frontend', limits))).toBe('object');
      expect(await shortlists.create(company.id, 'Third', limits)).toBe('too_many_lists');

      expect(await shortlists.addItem(company.id, list.id, a.id, 'call Monday', limits)).toMatchObject({
        added: true,
        item: { note: 'call Monday' },
      });
      expect(await shortlists.addItem(company.id, list.id, a.id, null, limits)).toMatchObject({ added: false, item: { note: null } });
      expect(await shortlists.addItem(company.id, list.id, foreign.id, null, limits)).toBe('no_cv');
      expect(await shortlists.addItem(company.id, list.id, job.id, null, limits)).toBe('job_posting');
      expect(await shortlists.addItem(other.id, list.id, foreign.id, null, limits)).toBe('no_list');
      await shortlists.addItem(company.id, list.id, b.id, null, limits);
      expect(await shortlists.addItem(company.id, list.id, c.id, null, limits)).toBe('too_many_items');
      expect((await shortlists.items(company.id, list.id)).map((i) => i.documentId)).toEqual([a.id, b.id]);
      expect(await shortlists.items(other.id, list.id)).toEqual([]);
      expect(await shortlists.get(other.id, list.id)).toBeNull();

      expect(await shortlists.removeItem(other.id, list.id, b.id)).toBe(false);
      expect(await documents.delete(company.id, a.id)).toBe(true);
      expect(await shortlists.get(company.id, list.id)).toMatchObject({ itemsCount: 1 });
      expect(await shortlists.removeItem(company.id, list.id, b.id)).toBe(true);
      expect(await shortlists.removeItem(company.id, list.id, b.id)).toBe(false);

      const page = await shortlists.list(company.id, 1, 0);
      expect(page).toMatchObject({ total: 2, rows: [{ name: 'Frontend' }] });
      expect(await shortlists.delete(other.id, list.id)).toBe(false);
      expect(await shortlists.delete(company.id, list.id)).toBe(true);
      expect(await shortlists.get(company.id, list.id)).toBeNull();
    });

    test('lists documents by name or status, and finds them by their name or the candidate’s, wildcards taken literally', async () => {
      const documents = new DocumentsRepository(sql);
      const company = await companies.create('library');
      let uploaded = 0;
      const put = async (documentName: string, hash: string, contact: { firstName: string; lastName: string } | null) => {
        const { document } = await documents.createOrFindDuplicate({
          ...TEXT_FILE,
          documentName,
          companyId: company.id,
          id: randomUUID(),
          contentHash: hash,
        });
        if (contact) {
          const read = { extractedText: 'text', summary: null, chunks: [], understandingVersion: 0, profile: null };
          const fullContact = { ...contact, email: null, phone: null, linkedin: null, location: null };
          await documents.complete(document.id, { ...read, contact: fullContact }, 'done');
        }
        // A day apart: uploads in one millisecond would leave the order by date to their ids.
        await sql.query('UPDATE documents SET created_at = $2 WHERE id = $1', [document.id, new Date(Date.UTC(2026, 0, ++uploaded))]);
        return document.id;
      };
      const zoe = await put('zoe.pdf', 'n1', { firstName: 'Zoë', lastName: 'Adams' });
      const bob = await put('Bob 100%_sure.docx', 'n2', null);
      const amy = await put('amy.txt', 'n3', { firstName: 'Amy', lastName: 'Zhang' });
      const names = async (sort: Parameters<DocumentsRepository['list']>[4], name?: string) =>
        (await documents.list(company.id, { name }, 10, 0, sort)).items.map((d) => d.id);
      expect(await names('name')).toEqual([amy, bob, zoe]);
      expect(await names('-name')).toEqual([zoe, bob, amy]);
      expect(await names('-createdAt')).toEqual([amy, bob, zoe]);
      expect(await names('createdAt')).toEqual([zoe, bob, amy]);
      expect(await names('status')).toEqual([amy, zoe, bob]); // completed before uploading
      expect(await names('name', 'ZHANG')).toEqual([amy]);
      expect(await names('name', 'zoë adams')).toEqual([zoe]);
      expect(await names('name', '%_')).toEqual([bob]);
      expect(await names('name', '_')).toEqual([bob]);
      expect(await names('name', '%')).toEqual([bob]);
      expect((await documents.list(company.id, { name: 'nobody' }, 10, 0)).total).toBe(0);
    });

    test('keeps saved searches to their company and limit, and records once the arrived CVs that entered a first page', async () => {
      const saved = new SavedSearchesRepository(sql);
      const documents = new DocumentsRepository(sql);
      const webhooks = new WebhooksRepository(sql);
      const company = await companies.create('saved');
      const other = await companies.create('saved elsewhere');
      await webhooks.createEndpoint(
        { companyId: company.id, url: 'https://hooks.example.com/x', eventTypes: ['saved_search.new_matches'], secret: 's' },
        10,
      );
      const read = { extractedText: 'Java', summary: null, contact: null, profile: null, chunks: [], understandingVersion: 0 };
      const arrive = async (companyId: string, hash: string, kind: 'cv' | 'job' = 'cv') => {
        const { document } = await documents.createOrFindDuplicate({ ...TEXT_FILE, companyId, id: randomUUID(), contentHash: hash, kind });
        await documents.complete(document.id, read, 'done');
        return document;
      };
      const before = await arrive(company.id, 'v0');
      const search = { searchType: 'hybrid' as const, query: 'java', filters: null, resolvedFilter: null, topK: 2 };
      const backend = await saved.create(company.id, { ...search, name: 'Backend' }, 2);
      if (typeof backend === 'string') throw new Error(backend);
      expect(backend).toMatchObject({ name: 'Backend', searchType: 'hybrid', topK: 2, matchesCount: 0, lastMatchAt: null });
      expect(await saved.create(company.id, { ...search, name: 'Backend' }, 2)).toBe('name_taken');
      expect(typeof (await saved.create(company.id, { ...search, name: 'Data' }, 2))).toBe('object');
      expect(await saved.create(company.id, { ...search, name: 'Third' }, 2)).toBe('too_many');
      expect(await saved.get(other.id, backend.id)).toBeNull();

      // Only CVs read after a saved search exists arrive; a posting and another company's CV without one do not.
      const [a, b, c] = [await arrive(company.id, 'v1'), await arrive(company.id, 'v2'), await arrive(company.id, 'v3')];
      await arrive(company.id, 'v4', 'job');
      await arrive(other.id, 'v5');
      const claimed = await saved.claimCompany(100, 60_000);
      expect(claimed && [claimed.companyId, claimed.attempts, claimed.arrivals.map((y) => y.documentId).sort()]).toEqual([
        company.id,
        1,
        [a.id, b.id, c.id].sort(),
      ]);
      expect(await saved.claimCompany(100, 60_000)).toBeNull(); // claimed, until the lease runs out
      expect(await saved.renew(claimed!.token, 60_000)).toBe(true);

      await documents.delete(company.id, c.id);
      const firstPage = [before, a, b, c].map((d, i) => ({ documentId: d.id, rank: i + 1, score: 1 - i / 10 }));
      // Another token holds nothing: it records nothing and lets nothing go.
      expect(await saved.record(company.id, randomUUID(), [{ savedSearchId: backend.id, firstPage }], 1000)).toBeNull();
      const added = await saved.record(company.id, claimed!.token, [{ savedSearchId: backend.id, firstPage }], 1000);
      expect(added).toEqual(new Map([[backend.id, 2]])); // not the CV from before, nor the deleted one
      expect(await saved.claimCompany(100, 60_000)).toBeNull(); // let go
      expect(await saved.renew(claimed!.token, 60_000)).toBe(false);
      const found = await saved.matches(company.id, backend.id, null, 10, 0);
      expect(found?.total).toBe(2);
      expect(found?.rows.map((m) => [m.documentId, m.rank])).toEqual([
        [a.id, 2],
        [b.id, 3],
      ]);
      expect(await saved.matches(other.id, backend.id, null, 10, 0)).toBeNull();
      // `since` is the finding's time, which the service sets.
      const foundAt = found!.rows[0].foundAt;
      expect((await saved.matches(company.id, backend.id, foundAt, 10, 0))?.total).toBe(0);
      expect((await saved.matches(company.id, backend.id, new Date(foundAt.getTime() - 1), 10, 0))?.total).toBe(2);
      expect(await saved.get(company.id, backend.id)).toMatchObject({ matchesCount: 2, lastMatchAt: foundAt });

      const events = await sql.query<{
        type: string;
        payload: { savedSearchId: string; newMatches: { documentId: string; rank: number }[] };
      }>('SELECT type, payload FROM webhook_events WHERE company_id = $1', [company.id]);
      expect(events).toHaveLength(1);
      expect(events[0].payload.savedSearchId).toBe(backend.id);
      expect(events[0].payload.newMatches.map((m) => m.rank)).toEqual([2, 3]);

      // A claim that runs out passes to the next runner, counted; the batch claimed fewest times goes first.
      const d = await arrive(company.id, 'v6');
      const lapsed = await saved.claimCompany(100, -1000);
      expect(lapsed?.attempts).toBe(1);
      const fresh = await arrive(other.id, 'v7');
      await saved.create(other.id, { ...search, name: 'Theirs' }, 2);
      const later = await arrive(other.id, 'v8');
      const next = await saved.claimCompany(100, 60_000);
      expect(next && [next.companyId, next.arrivals.map((x) => x.documentId)]).toEqual([other.id, [later.id]]);
      expect(fresh.id).not.toBe(later.id); // read before the company saved a search: no arrival
      const again = await saved.claimCompany(100, 60_000);
      expect(again && [again.companyId, again.attempts]).toEqual([company.id, 2]);
      expect(await saved.record(company.id, lapsed!.token, [], 1000)).toBeNull(); // lost to the next claim
      // Found again, a CV keeps its first finding; past the kept number, the oldest go.
      await saved.record(
        company.id,
        again!.token,
        [{ savedSearchId: backend.id, firstPage: [{ documentId: d.id, rank: 1, score: 1 }] }],
        2,
      );
      expect((await saved.matches(company.id, backend.id, null, 10, 0))?.total).toBe(2);
      expect((await saved.matches(company.id, backend.id, null, 10, 0))?.rows[0].documentId).toBe(d.id);

      expect(await saved.delete(other.id, backend.id)).toBe(false);
      expect(await saved.delete(company.id, backend.id)).toBe(true);
      expect(await saved.list(company.id, 10, 0)).toMatchObject({ total: 1, rows: [{ name: 'Data' }] });
    });

    test('runs a transaction as one unit', async () => {
      await expect(
        sql.transaction(async (tx) => {
          await tx.query(`INSERT INTO companies (id, name) VALUES ($1, 'rolled back')`, [randomUUID()]);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await sql.query(`SELECT id FROM companies WHERE name = 'rolled back'`)).toEqual([]);
    });
  });
}
