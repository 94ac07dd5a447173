import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIXTURE_CVS, FIXTURE_FORMATS, fixtureCvFile, textlessPdf } from '@cs/document-parsing/testing';
import {
  AuthenticationError,
  CandidateSearch,
  ConflictError,
  NotFoundError,
  SEARCH_TYPES,
  SearchFailedError,
  ValidationError,
  type UploadDirectoryEvent,
  type UploadDirectorySummary,
} from '@candidate-search/client/node';
import { adminApi, createCompany } from './support/fixtures';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(300_000);

/**
 * The SDK (@candidate-search/client, Node entry) against a started standalone service: a folder of
 * the fixture CVs uploaded with progress events and followed to their final status, each search
 * type, a similar search, a group of the four, the iterators, and the typed errors.
 */
describe('the TypeScript SDK against a standalone service', () => {
  let service: StandaloneService;
  let cs: CandidateSearch;
  let apiKey: string;
  let dir: string;
  let summary: UploadDirectorySummary;
  const events: UploadDirectoryEvent[] = [];

  beforeAll(async () => {
    // Saved searches run again soon after a CV is read.
    service = await StandaloneService.start({ SAVED_SEARCHES_POLL_MS: '100' });
    const company = await createCompany(service, 'sdk');
    apiKey = company.apiKey;
    // The suite uploads and searches faster than the default limits allow a real client.
    for (const [category, limit] of [
      ['read', 100_000],
      ['upload-burst', 1000],
      ['upload-sustained', 1000],
      ['search', 1000],
    ] as const)
      await adminApi(service, 'PUT', `/companies/${company.companyId}/limits/${category}`, { limit });
    cs = new CandidateSearch({ baseUrl: service.baseUrl, apiKey });

    // Each fixture CV in its four formats, the nurse's in a sub-folder, a PDF with no text, and a file of another type.
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-sdk-cvs-'));
    await fs.mkdir(path.join(dir, 'ward'));
    for (const { profession, text } of FIXTURE_CVS)
      for (const format of FIXTURE_FORMATS) {
        const { bytes } = await fixtureCvFile(text, format);
        await fs.writeFile(path.join(dir, profession === 'nurse' ? 'ward' : '', `${profession}.${format}`), bytes);
      }
    await fs.writeFile(path.join(dir, 'scan.pdf'), await textlessPdf());
    await fs.writeFile(path.join(dir, 'notes.md'), '# not a CV');

    summary = await cs.uploadDirectory(dir, { concurrency: 4, documentDate: '03-2024', wait: true, onProgress: (e) => events.push(e) });
  });

  afterAll(async () => {
    await service?.destroy();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  describe('uploadDirectory', () => {
    it('uploads every CV file of the folder and its sub-folder, and follows each to its final status', () => {
      const cvs = FIXTURE_CVS.length * FIXTURE_FORMATS.length;
      expect(summary.files).toHaveLength(cvs + 1);
      expect(summary.totals).toMatchObject({ files: cvs + 1, filesDone: cvs + 1, uploaded: cvs + 1, duplicates: 0, failed: 0, skipped: 0 });
      expect(summary.waitTimedOut).toBe(false);
      for (const file of summary.files.filter((f) => !f.path.endsWith('scan.pdf')))
        expect({ file: path.basename(file.path), outcome: file.outcome, status: file.status }).toEqual({
          file: path.basename(file.path),
          outcome: 'uploaded',
          status: 'completed',
        });
      const scan = summary.files.find((f) => f.path.endsWith('scan.pdf'));
      expect(scan).toMatchObject({ outcome: 'uploaded', status: 'invalid', reason: expect.stringMatching(/text|letters/i) });
      expect(summary.files.some((f) => f.path.endsWith('notes.md'))).toBe(false);
    });

    it('reports progress: the scan, each file started and finished with its document, and each final status', () => {
      const total = summary.files.length;
      expect(events[0]).toMatchObject({ type: 'scanned', totals: { files: total, filesDone: 0 } });
      const finished = events.flatMap((e) => (e.type === 'file-finished' ? [e] : []));
      expect(finished).toHaveLength(total);
      expect(finished.map((e) => e.totals.filesDone)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      expect(finished.at(-1)?.totals.bytesDone).toBe(summary.totals.bytes);
      for (const e of finished) expect(e.file.documentId).toMatch(/^[0-9a-f-]{36}$/);
      expect(events.filter((e) => e.type === 'file-started')).toHaveLength(total);
      expect(events.filter((e) => e.type === 'file-processed')).toHaveLength(total);
    });

    it('tells each document’s status in one round: final ones with what was read, an unknown id as deleted', async () => {
      const idOf = (name: string) => summary.files.find((f) => path.basename(f.path) === name)!.documentId!;
      const unknown = '00000000-0000-4000-8000-000000000000';
      const states = await cs.documentStatuses([idOf('chef.pdf'), idOf('scan.pdf'), unknown]);
      expect([...states.values()].map((s) => [s.status, s.document?.documentId])).toEqual([
        ['completed', idOf('chef.pdf')],
        ['invalid', idOf('scan.pdf')],
        ['deleted', undefined],
      ]);
      expect(states.get(idOf('scan.pdf'))?.reason).toMatch(/text|letters/i);
    });

    it('stops at a refused key with AuthenticationError, recording no file as failed', async () => {
      const wrong = new CandidateSearch({ baseUrl: service.baseUrl, apiKey: 'csk_wrong' });
      const failed: string[] = [];
      const error = await wrong
        .uploadDirectory(dir, { onProgress: (e) => e.type === 'file-finished' && e.file.outcome === 'failed' && failed.push(e.file.path) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(failed).toEqual([]);
    });

    it('answers the same bytes again with the first document, marked duplicate', async () => {
      const again = await cs.uploadFile(path.join(dir, 'chef.pdf'));
      expect(again).toMatchObject({ duplicate: true, documentId: summary.files.find((f) => f.path.endsWith('chef.pdf'))?.documentId });
    });
  });

  describe('uploads through a presigned URL, and deletes', () => {
    it('uploads by the presigned route, waits for the document, deletes it, and then finds it no more', async () => {
      const { bytes } = await fixtureCvFile(FIXTURE_CVS[0].text, 'docx', 7);
      const phases: string[] = [];
      const accepted = await cs.uploadFile(bytes, {
        fileName: 'other-accountant.docx',
        documentDate: '01-2025',
        route: 'presigned',
        onProgress: (p) => phases.push(`${p.route}:${p.phase}`),
      });
      expect(accepted).toMatchObject({ duplicate: false, file: { name: 'other-accountant.docx', size: bytes.length } });
      expect(phases).toEqual(['presigned:uploading', 'presigned:finalizing', 'presigned:done']);
      const done = await cs.waitForDocument(accepted.documentId);
      expect(done).toMatchObject({ status: 'completed', documentName: 'other-accountant', documentDate: '01-2025' });
      const file = await cs.getDocumentFile(accepted.documentId);
      expect(file.type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
      expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
      expect(done.extractedText).toContain('Accountant');
      await expect(cs.deleteDocument(accepted.documentId)).resolves.toMatchObject({
        documentId: accepted.documentId,
        deleted: { database: true },
      });
      await expect(cs.getDocument(accepted.documentId)).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('searches', () => {
    const query = 'accountant, general ledger, reconciliations';
    const accountantIds = () =>
      new Set(summary.files.filter((f) => path.basename(f.path).startsWith('accountant.')).map((f) => f.documentId));

    it.each(SEARCH_TYPES)('runs a %s search to its end and returns the accountant’s CVs first', async (type) => {
      const statuses: string[] = [];
      const { search, page } = await cs.search(type, query, { topK: 30, rerankTopN: 10, onStatus: (s) => statuses.push(s.status) });
      expect(search).toMatchObject({ status: 'completed', searchType: type, query });
      expect(page).toMatchObject({ searchId: search.searchId, status: 'completed', totalResults: search.resultsCount });
      expect(page.results.length).toBeGreaterThan(0);
      expect(accountantIds().has(page.results[0].documentId)).toBe(true);
      expect(statuses.at(-1) ?? 'completed').toBe('completed');
    });

    it('runs a similar search from one CV: its other formats come first, itself never, with the words it searched', async () => {
      const seed = summary.files.find((f) => path.basename(f.path) === 'accountant.pdf')!.documentId!;
      const { search, page } = await cs.similar(seed, { topK: 30, facets: ['domain'] });
      expect(search).toMatchObject({ status: 'completed', searchType: 'similar', query: '', similarTo: seed });
      expect(page).toMatchObject({ searchId: search.searchId, totalResults: search.resultsCount });
      const ids = page.results.map((r) => r.documentId);
      expect(ids).not.toContain(seed);
      // The same CV in its three other formats says the same words.
      expect(ids.slice(0, 3).every((id) => accountantIds().has(id))).toBe(true);
      expect(page.metadata).toMatchObject({ similarTo: seed, reranker: null, rerankTopN: null });
      expect(page.metadata.distinctiveTerms?.length).toBeGreaterThan(0);
      expect(page.facets?.passing.fields.domain).toBeDefined();
    });

    it('refuses a similar search from a CV that was not read (ConflictError) or that the company does not have (NotFoundError)', async () => {
      const scan = summary.files.find((f) => path.basename(f.path) === 'scan.pdf')!.documentId!;
      const conflict = await cs.similar(scan).catch((e: unknown) => e);
      expect(conflict).toBeInstanceOf(ConflictError);
      expect(conflict).toMatchObject({ status: 409, message: expect.stringContaining('invalid') });
      await expect(cs.similar('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('iterates every result of a search page by page, in the order of one whole page', async () => {
      const { search } = await cs.search('dense', 'work experience', { topK: 25 });
      const whole = await cs.getResults(search.searchId);
      const iterated: number[] = [];
      for await (const item of cs.results(search.searchId, { limit: 4 })) iterated.push(item.rank);
      expect(whole.results.length).toBeGreaterThan(4);
      expect(iterated).toEqual(whole.results.map((r) => r.rank));
    });

    /** A client over this service recording each request; `withoutPrefer` strips Prefer: a server that applies no wait. */
    const recordingClient = (withoutPrefer: boolean) => {
      const seen: { method: string; path: string; started: number; applied: string | null }[] = [];
      const client = new CandidateSearch({
        baseUrl: service.baseUrl,
        apiKey,
        fetch: async (input, init) => {
          const started = Date.now();
          const headers = new Headers(init.headers);
          if (withoutPrefer) headers.delete('prefer');
          const res = await fetch(input, { ...init, headers });
          seen.push({
            method: init.method ?? 'GET',
            path: new URL(input).pathname,
            started,
            applied: res.headers.get('preference-applied'),
          });
          return res;
        },
      });
      const polls = () => seen.filter((s) => s.method === 'GET' && /^\/v1\/public\/searches\/[0-9a-f-]{36}$/.test(s.path));
      return { client, seen, polls };
    };

    it('asks for a status at most once a second where the server applies no Prefer: wait', async () => {
      const { client, seen, polls } = recordingClient(true);
      const { search } = await client.search('hybrid', query, { topK: 30, rerankTopN: 10 });
      expect(search.status).toBe('completed');
      // The creation's 202 says processing: the client has to ask again, and waits a second first.
      expect(seen[0]).toMatchObject({ method: 'POST', applied: null });
      expect(polls().length).toBeGreaterThanOrEqual(1);
      expect(polls()[0].started - seen[0].started).toBeGreaterThanOrEqual(1_000);
      for (const [i, poll] of polls().entries()) if (i > 0) expect(poll.started - polls()[i - 1].started).toBeGreaterThanOrEqual(1_000);
    });

    it('leans on the server’s Prefer: wait: the creation is held until the search ends, leaving at most one status to ask', async () => {
      const { client, seen, polls } = recordingClient(false);
      const { search } = await client.search('hybrid', query, { topK: 30, rerankTopN: 10 });
      expect(search.status).toBe('completed');
      expect(seen[0]).toMatchObject({ method: 'POST', applied: expect.stringMatching(/^wait=\d+$/) });
      expect(polls().length).toBeLessThanOrEqual(1);
    });

    it('waits with events where the server streams them, and by polling where it does not', async () => {
      const created = await cs.createSearch('dense', 'chef, menu planning');
      await expect(cs.waitForSearch(created.searchId, { events: true, timeoutMs: 60_000 })).resolves.toMatchObject({ status: 'completed' });
    });

    it('rejects a search that fails with SearchFailedError carrying its error and errorRetryable', async () => {
      const error = await cs.search('sparse', 'the, and, of').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SearchFailedError);
      expect(error).toMatchObject({ errorRetryable: false, retryable: false, searchError: expect.stringMatching(/keywords/) });
    });

    it('rejects promptly with an AbortError when aborted', async () => {
      const controller = new AbortController();
      const pending = cs.search('hybrid', query, { signal: controller.signal });
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    });
  });

  describe('groups', () => {
    it('runs the four types in one group and returns their results with the comparison', async () => {
      const group = await cs.group('chef, kitchen, seasonal menus', { topK: 20, rerankTopN: 10 });
      expect(group.groupStatus).toBe('completed');
      expect(group.searches.map((s) => s.searchType).sort()).toEqual([...SEARCH_TYPES].sort());
      for (const s of group.searches) expect(s.results.length).toBeGreaterThan(0);
      expect(group.comparison.pairs).toHaveLength(6);
      const listed = await cs.listGroups({ limit: 100 });
      expect(listed.data.map((g) => g.searchGroupId)).toContain(group.searchGroupId);
    });
  });

  describe('documents', () => {
    it('iterates every document across pages, each once', async () => {
      const ids: string[] = [];
      for await (const doc of cs.documents({ pageSize: 7 })) ids.push(doc.documentId);
      const { pagination } = await cs.listDocuments({ limit: 1 });
      expect(ids).toHaveLength(pagination.total);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(new Set(summary.files.map((f) => f.documentId)));
    });

    it('lists by status', async () => {
      const invalid: string[] = [];
      for await (const doc of cs.documents({ status: 'invalid' })) invalid.push(doc.documentId);
      expect(invalid).toEqual([summary.files.find((f) => f.path.endsWith('scan.pdf'))?.documentId]);
    });
  });

  describe('shortlists', () => {
    it('keeps a named list of CVs with notes, exports it as CSV, and refuses a name in use with ConflictError', async () => {
      const [first, second] = summary.files.filter((f) => f.status === 'completed').map((f) => f.documentId!);
      const list = await cs.createShortlist('SDK finalists');
      expect(list).toMatchObject({ name: 'SDK finalists', itemsCount: 0, items: [] });
      expect(await cs.addToShortlist(list.shortlistId, first, 'Call back')).toMatchObject({ documentId: first, note: 'Call back' });
      await cs.addToShortlist(list.shortlistId, second);
      expect((await cs.getShortlist(list.shortlistId)).items.map((i) => i.documentId)).toEqual([first, second]);
      expect((await cs.listShortlists()).data.map((l) => l.shortlistId)).toContain(list.shortlistId);
      const csv = await cs.exportShortlist(list.shortlistId);
      expect(csv.split('\n')[0]).toMatch(/^documentId,documentName,/);
      expect(csv).toContain('Call back');
      const zip = new Uint8Array(await new Response(await cs.exportShortlistFiles(list.shortlistId)).arrayBuffer());
      // A ZIP (PK\x03\x04) holding the CSV first.
      expect([...zip.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
      expect(Buffer.from(zip).toString('latin1')).toContain('shortlist.csv');
      await cs.removeFromShortlist(list.shortlistId, second);
      expect((await cs.getShortlist(list.shortlistId)).itemsCount).toBe(1);
      await expect(cs.createShortlist('SDK finalists')).rejects.toBeInstanceOf(ConflictError);
      await cs.deleteShortlist(list.shortlistId);
      await expect(cs.getShortlist(list.shortlistId)).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('saved searches', () => {
    it('saves a search, lists the CVs read since that entered its first page, and refuses a name in use with ConflictError', async () => {
      const saved = await cs.createSavedSearch({ name: 'SDK sommeliers', searchType: 'sparse', query: 'sommelier' });
      expect(saved).toMatchObject({ name: 'SDK sommeliers', top_k: 10, newMatchesCount: 0 });
      const since = new Date();
      const text =
        'Head Sommelier\nSummary\nSommelier running a wine list of 400 labels, cellar inventory and staff tastings.\nExperience\nSommelier, 2015 to 2024: wine pairing for a tasting menu, supplier buying and training of the floor team.';
      const accepted = await cs.uploadFile(new TextEncoder().encode(text), { fileName: 'sommelier.txt', documentDate: '03-2024' });
      await cs.waitForDocument(accepted.documentId);
      let fresh = await cs.savedSearchNewMatches(saved.savedSearchId, { since });
      for (let waited = 0; fresh.data.length === 0 && waited < 30_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        fresh = await cs.savedSearchNewMatches(saved.savedSearchId, { since });
      }
      expect(fresh).toMatchObject({ since: since.toISOString(), data: [{ documentId: accepted.documentId, rank: 1 }] });
      expect((await cs.listSavedSearches()).data.map((s) => s.savedSearchId)).toContain(saved.savedSearchId);
      expect((await cs.getSavedSearch(saved.savedSearchId)).newMatchesCount).toBe(1);
      await expect(cs.createSavedSearch({ name: 'SDK sommeliers', searchType: 'dense', query: 'wine' })).rejects.toBeInstanceOf(
        ConflictError,
      );
      await cs.deleteSavedSearch(saved.savedSearchId);
      await expect(cs.getSavedSearch(saved.savedSearchId)).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('typed errors', () => {
    it('throws AuthenticationError for a wrong key, with the request id', async () => {
      const wrong = new CandidateSearch({ baseUrl: service.baseUrl, apiKey: 'csk_wrong' });
      const error = await wrong.listDocuments().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ status: 401, error: 'unauthorized', retryable: false, requestId: expect.any(String) });
    });

    it('throws ValidationError naming the parameter for an id that is no UUID, without retrying', async () => {
      const error = await cs.getSearch('not-a-uuid').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ status: 400, error: 'invalid_request', message: 'searchId must be a UUID', limit: expect.any(Number) });
    });

    it('throws ValidationError for a query over 500 characters, and NotFoundError for an unknown search', async () => {
      await expect(cs.createSearch('dense', 'a'.repeat(501))).rejects.toMatchObject({ constructor: ValidationError, status: 400 });
      await expect(cs.getSearch('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
    });
  });
});
