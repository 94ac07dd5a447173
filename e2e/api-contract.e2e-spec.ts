import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIXTURE_CVS, fixtureCvFile } from '@cs/document-parsing/testing';
import { describeWith, missingNeeds } from '@cs/test-services';
import { ApiClient, type Answer } from './support/api-client';
import { ClusterServices } from './support/cluster-services';
import { PDF, TEXT, TEXT_CVS, adminCli, evalCorpus, generatedCorpus } from './support/fixtures';
import { MODES, describeMode, type ServiceUnderTest } from './support/service-under-test';

jest.setTimeout(300_000);
// Where ../shared/eval is absent its cases are declared skipped (describeWith); the others run on generated fixture CVs.
const haveEval = missingNeeds(['eval']) === null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const SEARCH_TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank'] as const;
const words = (text: string) => text.split(/\s+/).filter(Boolean);

for (const mode of MODES)
  describeMode(mode)(`the public API (${mode.name} mode)`, () => {
    let service: ServiceUnderTest;
    let admin: ApiClient;
    let acme: ApiClient;
    let other: ApiClient;
    let files: Server;
    let filesUrl = '';
    const served = new Map<string, { type: string; bytes: Buffer }>();
    /** document id -> category, for the documents acme uploaded. */
    const categoryOf = new Map<string, string>();
    /** generated file name (`chef.pdf`) -> document id, for acme's fixture CVs. */
    const generatedId = new Map<string, string>();

    const createCompany = (name: string) => {
      const { status, stdout, stderr } = adminCli(['companies', 'create', '--name', name], {
        ADMIN_URL: service.baseUrl,
        DATA_DIR: service.dataDir,
      });
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
      return JSON.parse(stdout) as { companyId: string; apiKey: string };
    };
    const grant = (companyId: string, category: string, limit: number) =>
      admin.request('PUT', `/admin/v1/companies/${companyId}/limits/${category}`, {
        json: { limit },
        headers: { authorization: `Bearer ${service.adminToken}` },
      });

    beforeAll(async () => {
      service = await mode.start({ UPLOAD_FROM_URL_ALLOW_PRIVATE_NETWORKS: 'true' });
      admin = new ApiClient(service.baseUrl, undefined);
      const a = createCompany('acme');
      expect(a.apiKey).toMatch(/^csk_/);
      acme = new ApiClient(service.baseUrl, a.apiKey);
      for (const [category, limit] of [
        ['read', 100_000],
        ['upload-burst', 1000],
        ['upload-sustained', 1000],
        ['search', 1000],
      ] as const) {
        expect((await grant(a.companyId, category, limit)).status).toBe(200);
      }
      other = new ApiClient(service.baseUrl, createCompany('other').apiKey);

      files = createServer((req, res) => {
        const file = served.get(req.url ?? '');
        if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>not a CV</body></html>');
        else if (file) res.writeHead(200, { 'content-type': file.type }).end(file.bytes);
        else res.writeHead(404).end();
      });
      await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
      filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      if (files) await new Promise((r) => files.close(r));
      await service?.destroy();
    });

    describe('authentication', () => {
      it('answers 401 with the error body for a missing, wrong or misplaced key', async () => {
        const none = await admin.get('/v1/public/documents');
        expect(none.status).toBe(401);
        expect(none.body).toEqual({ error: 'unauthorized', message: expect.stringContaining('X-API-Key') });
        const wrong = await new ApiClient(service.baseUrl, 'csk_not-a-key').get('/v1/public/documents');
        expect(wrong.status).toBe(401);
        expect(wrong.body.error).toBe('unauthorized');
        const bearer = await admin.request('GET', '/v1/public/documents', { headers: { authorization: `Bearer ${acme.apiKey}` } });
        expect(bearer.status).toBe(401);
        expect(bearer.body.message).toMatch(/X-API-Key header, not Authorization/);
      });

      it('keeps the admin API behind the admin token', async () => {
        expect((await admin.get('/admin/v1/companies')).status).toBe(401);
        expect((await admin.request('GET', '/admin/v1/companies', { headers: { authorization: `Bearer ${acme.apiKey}` } })).status).toBe(
          401,
        );
        const listed = await admin.request('GET', '/admin/v1/companies', { headers: { authorization: `Bearer ${service.adminToken}` } });
        expect(listed.body.data.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['acme', 'other']));
        expect(JSON.stringify(listed.body)).not.toContain(acme.apiKey!);
      });
    });

    describe('uploads that are refused', () => {
      const params = { documentName: 'cv', documentDate: '03-2024' };

      it.each([
        ['an unsupported type', Buffer.from('GIF89a...'), 'image/gif', params, 415, 'unsupported_media_type'],
        ['bytes that are not the declared type', Buffer.from('just words, no PDF'), PDF, params, 415, 'unsupported_media_type'],
        ['an empty file', Buffer.alloc(0), PDF, params, 400, 'invalid_request'],
        ['a missing documentName', Buffer.from('%PDF-1.4'), PDF, { documentDate: '03-2024' }, 400, 'invalid_request'],
        ['a bad documentDate', Buffer.from('%PDF-1.4'), PDF, { documentName: 'cv', documentDate: '2024-03' }, 400, 'invalid_request'],
        ['an unknown query parameter', Buffer.from('%PDF-1.4'), PDF, { ...params, color: 'red' }, 400, 'invalid_request'],
        ['a documentName holding NUL', Buffer.from('%PDF-1.4'), PDF, { ...params, documentName: 'a\u0000b' }, 400, 'invalid_request'],
      ])('refuses %s', async (_, bytes, type, query, status, error) => {
        const answer = await acme.upload(bytes, type, query);
        expect(answer.status).toBe(status);
        expect(answer.body).toEqual({ error, message: expect.any(String) });
      });

      it('refuses a file over 10 MB with 413', async () => {
        const answer = await acme.upload(Buffer.alloc(10 * 1024 * 1024 + 10, 0x20), TEXT, params);
        expect(answer.status).toBe(413);
        expect(answer.body.error).toBe('payload_too_large');
      });
    });

    describe('a corpus through the three upload routes', () => {
      const uploaded: string[] = [];

      async function viaDirect(bytes: Buffer, type: string, name: string) {
        const answer = await acme.upload(bytes, type, { documentName: name, documentDate: '01-2024', fileName: name });
        expect(answer.status).toBe(201);
        return answer.body;
      }
      async function viaPresigned(bytes: Buffer, type: string, name: string) {
        const created = await acme.post('/v1/public/documents/upload-presigned', {
          fileName: name,
          contentType: type,
          fileSize: bytes.length,
        });
        expect(created.status).toBe(200);
        expect(created.body).toEqual({
          uploadId: expect.stringMatching(UUID),
          presignedUrl: expect.any(String),
          method: 'PUT',
          headers: { 'Content-Type': type },
          expiresAt: expect.stringMatching(ISO_MS),
        });
        const put = await acme.putPresigned(created.body.presignedUrl, created.body.headers, bytes);
        expect(put.status).toBe(200);
        expect((await acme.get(`/v1/public/documents/upload-presigned/${created.body.uploadId}`)).body.status).toBe('uploaded');
        const finalized = await acme.post('/v1/public/documents/upload-presigned-finalize', {
          uploadId: created.body.uploadId,
          documentName: name,
          documentDate: '02-2024',
        });
        expect(finalized.status).toBe(201);
        const again = await acme.post('/v1/public/documents/upload-presigned-finalize', {
          uploadId: created.body.uploadId,
          documentName: name,
          documentDate: '02-2024',
        });
        expect(again.status).toBe(200);
        expect(again.body.documentId).toBe(finalized.body.documentId);
        const verified = await acme.get(`/v1/public/documents/upload-presigned/${created.body.uploadId}`);
        expect(verified.body).toMatchObject({
          status: 'finalized',
          documentId: finalized.body.documentId,
          fileName: name,
          fileSize: bytes.length,
        });
        return finalized.body;
      }
      async function viaUrl(bytes: Buffer, type: string, name: string) {
        served.set(`/${name}`, { type, bytes });
        const answer = await acme.post('/v1/public/documents/upload-from-url', {
          url: `${filesUrl}/${name}`,
          documentName: name,
          documentDate: '12-2023',
        });
        expect(answer.status).toBe(201);
        return answer.body;
      }
      const routes = [viaDirect, viaPresigned, viaUrl];
      /** Uploads the i-th file through the routes in turn, checks the contract's first answer, and files its category. */
      async function uploadNth(i: number, bytes: Buffer, contentType: string, name: string, category: string): Promise<string> {
        const body = await routes[i % 3](bytes, contentType, name);
        expect(body).toMatchObject({
          documentId: expect.stringMatching(UUID),
          status: 'uploading',
          duplicate: false,
          file: { size: bytes.length, contentType },
        });
        expect(body.statusEndpoint).toBe(`/v1/public/documents/${body.documentId}`);
        categoryOf.set(body.documentId, category);
        return body.documentId as string;
      }

      it('takes each generated CV as PDF, DOCX, DOC and TXT to completed with its words, and the textless PDF to invalid', async () => {
        const { files, textlessPdf } = await generatedCorpus();
        const ids: string[] = [];
        for (let i = 0; i < files.length; i++) {
          const { bytes, contentType, file, category } = files[i];
          const documentId = await uploadNth(i, bytes, contentType, file, category);
          ids.push(documentId);
          generatedId.set(file, documentId);
        }
        const textless = await viaDirect(textlessPdf, PDF, 'textless.pdf');
        const finished = await acme.waitForDocuments([...ids, textless.documentId]);
        files.forEach(({ file, text }, i) => {
          const document = finished.get(ids[i])!;
          expect({ file, status: document.status }).toEqual({ file, status: 'completed' });
          expect({ file, words: words(document.extractedText) }).toEqual({ file, words: words(text) });
        });
        expect(finished.get(textless.documentId)).toMatchObject({
          status: 'invalid',
          message: expect.stringMatching(/^No text could be extracted/),
        });
        expect(finished.get(ids[0])).toMatchObject({
          documentType: 'cv',
          documentDate: '01-2024',
          createdAt: expect.stringMatching(ISO_MS),
          updatedAt: expect.stringMatching(ISO_MS),
          error: null,
        });
      });

      it('finds each generated CV, in all four of its formats, by words only it holds', async () => {
        const queries: Record<string, string> = {
          accountant: 'Bergmann Treuhand',
          developer: 'Nordlicht Logistics',
          chef: 'Célestins Bocuse',
          teacher: 'Västra Skolan',
          nurse: 'Misericordiae sepsis',
        };
        for (const [profession, query] of Object.entries(queries)) {
          const answer = await acme.post('/v1/public/searches/sparse', { query });
          expect(await acme.waitForSearch(answer.body.searchId)).toMatchObject({ status: 'completed' });
          const { body } = await acme.get(`/v1/public/searches/${answer.body.searchId}/results`);
          const found = body.results.slice(0, 4).map((r: { documentId: string }) => r.documentId);
          const expected = ['pdf', 'docx', 'doc', 'txt'].map((format) => generatedId.get(`${profession}.${format}`));
          expect({ query, found: [...found].sort() }).toEqual({ query, found: [...expected].sort() });
        }
      });

      describeWith(['eval'])('the evaluation corpus', () => {
        it('takes 40 PDFs and 10 DOCX CVs to completed, and the empty PDF to invalid', async () => {
          const { pdfs, docx, emptyPdf } = evalCorpus();
          const all = [...pdfs, ...docx];
          for (let i = 0; i < all.length; i++) {
            const { bytes, contentType, file, category } = all[i];
            uploaded.push(await uploadNth(i, bytes, contentType, file.replace('/', '-'), category));
          }
          const empty = await viaDirect(emptyPdf, PDF, 'empty.pdf');
          const finished = await acme.waitForDocuments([...uploaded, empty.documentId]);
          const statuses = [...finished.values()].map((d) => d.status);
          expect(statuses.filter((s) => s === 'completed')).toHaveLength(50);
          expect(finished.get(empty.documentId)?.status).toBe('invalid');
          const one = finished.get(uploaded[0])!;
          expect(one.extractedText.length).toBeGreaterThan(500);
          expect(one).toMatchObject({
            documentType: 'cv',
            documentDate: '01-2024',
            createdAt: expect.stringMatching(ISO_MS),
            updatedAt: expect.stringMatching(ISO_MS),
            error: null,
          });
        });
      });

      it('indexes plain-text CVs too', async () => {
        const ids: string[] = [];
        for (const [name, text] of Object.entries(TEXT_CVS)) {
          const body = await viaDirect(Buffer.from(text), TEXT, `${name}.txt`);
          ids.push(body.documentId);
          categoryOf.set(body.documentId, `TEXT-${name}`);
        }
        const finished = await acme.waitForDocuments(ids);
        expect([...finished.values()].map((d) => d.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
      });

      it('answers known bytes with the first document and duplicate: true', async () => {
        const again = await acme.upload(Buffer.from(TEXT_CVS.chef), TEXT, { documentName: 'chef again', documentDate: '05-2024' });
        expect(again.status).toBe(200);
        expect(again.body.duplicate).toBe(true);
        expect(categoryOf.get(again.body.documentId)).toBe('TEXT-chef');
      });

      it('answers a generated PDF known by its bytes as a duplicate, and its variant (other bytes, same text) as a new CV', async () => {
        const chef = (corpus: Awaited<ReturnType<typeof generatedCorpus>>) => corpus.files.find((f) => f.file === 'chef.pdf')!;
        const known = chef(await generatedCorpus());
        const again = await acme.upload(known.bytes, PDF, { documentName: 'chef pdf again', documentDate: '05-2024' });
        expect(again.status).toBe(200);
        expect(again.body).toMatchObject({ duplicate: true, documentId: generatedId.get('chef.pdf') });
        const variant = chef(await generatedCorpus(1));
        expect(variant.bytes.equals(known.bytes)).toBe(false);
        const other = await acme.upload(variant.bytes, PDF, { documentName: 'chef pdf variant', documentDate: '05-2024' });
        expect(other.status).toBe(201);
        expect(other.body.duplicate).toBe(false);
        const [done] = (await acme.waitForDocuments([other.body.documentId])).values();
        const [first] = (await acme.waitForDocuments([generatedId.get('chef.pdf')!])).values();
        expect(done).toMatchObject({ status: 'completed', extractedText: first.extractedText });
        // Removed, so the later cases see each generated CV once per format.
        expect((await acme.delete(`/v1/public/documents/${other.body.documentId}`)).status).toBe(200);
      });

      it('lists documents newest first with pagination and a status filter', async () => {
        const page = await acme.get('/v1/public/documents?limit=2&offset=1');
        expect(page.status).toBe(200);
        expect(page.body.data).toHaveLength(2);
        expect(page.body.pagination).toMatchObject({ limit: 2, offset: 1, hasMore: true });
        expect(page.body.data[0]).not.toHaveProperty('extractedText');
        const all = await acme.get('/v1/public/documents?limit=100');
        const created = all.body.data.map((d: { createdAt: string }) => d.createdAt);
        expect([...created].sort().reverse()).toEqual(created);
        // The textless fixture PDF, and the evaluation set's scan where it was uploaded.
        expect((await acme.get('/v1/public/documents?status=invalid')).body.pagination.total).toBe(haveEval ? 2 : 1);
        expect((await acme.get('/v1/public/documents?limit=0')).body).toEqual({
          error: 'invalid_request',
          message: 'limit must be an integer between 1 and 100',
        });
        expect((await acme.get('/v1/public/documents?status=lost')).status).toBe(400);
      });
    });

    describe('presigned uploads that go wrong', () => {
      it('says 409 before the bytes arrive, refuses a bad signature or type, and 422 on a size mismatch', async () => {
        const bytes = Buffer.from('Presigned plain text CV with enough words to matter for the parser here and there.');
        const created = await acme.post('/v1/public/documents/upload-presigned', {
          fileName: 'p.txt',
          contentType: TEXT,
          fileSize: bytes.length + 5,
        });
        const early = await acme.post('/v1/public/documents/upload-presigned-finalize', {
          uploadId: created.body.uploadId,
          documentName: 'p',
          documentDate: '01-2024',
        });
        expect(early.status).toBe(409);
        expect((await acme.get(`/v1/public/documents/upload-presigned/${created.body.uploadId}`)).body.status).toBe('pending');
        if (mode.name === 'standalone') {
          // The gateway's own PUT target checks what S3 (the cluster's target) checks in its own way.
          const forged = new URL(created.body.presignedUrl);
          forged.searchParams.set('signature', 'f'.repeat(64));
          expect((await acme.putPresigned(forged.href, { 'content-type': TEXT }, bytes)).status).toBe(401);
          expect((await acme.putPresigned(created.body.presignedUrl, { 'content-type': PDF }, bytes)).status).toBe(400);
        } else {
          expect(created.body.presignedUrl).toMatch(/X-Amz-Signature=/);
        }
        expect((await acme.putPresigned(created.body.presignedUrl, { 'content-type': TEXT }, bytes)).status).toBe(200);
        const mismatch = await acme.post('/v1/public/documents/upload-presigned-finalize', {
          uploadId: created.body.uploadId,
          documentName: 'p',
          documentDate: '01-2024',
        });
        expect(mismatch.status).toBe(422);
        expect(mismatch.body.message).toMatch(/bytes but fileSize said/);
      });

      it('refuses unsupported types and sizes when the upload is created', async () => {
        expect(
          (await acme.post('/v1/public/documents/upload-presigned', { fileName: 'a.png', contentType: 'image/png', fileSize: 10 })).status,
        ).toBe(415);
        expect(
          (await acme.post('/v1/public/documents/upload-presigned', { fileName: 'a.pdf', contentType: PDF, fileSize: 0 })).status,
        ).toBe(400);
        expect(
          (
            await acme.post('/v1/public/documents/upload-presigned-finalize', {
              uploadId: randomUUID(),
              documentName: 'x',
              documentDate: '01-2024',
            })
          ).status,
        ).toBe(404);
      });
    });

    describe('upload from a URL', () => {
      it('names the cause when the URL is unusable', async () => {
        const html = await acme.post('/v1/public/documents/upload-from-url', {
          url: `${filesUrl}/page.html`,
          documentName: 'x',
          documentDate: '01-2024',
        });
        expect(html.status).toBe(422);
        expect(html.body.message).toMatch(/HTML page/);
        const missing = await acme.post('/v1/public/documents/upload-from-url', {
          url: `${filesUrl}/nothing.pdf`,
          documentName: 'x',
          documentDate: '01-2024',
        });
        expect(missing.status).toBe(422);
        expect(missing.body.message).toMatch(/HTTP 404/);
        // A URL that cannot be fetched at all is the request's fault.
        const ftp = await acme.post('/v1/public/documents/upload-from-url', {
          url: 'ftp://example.com/cv.pdf',
          documentName: 'x',
          documentDate: '01-2024',
        });
        expect(ftp.body).toEqual({ error: 'invalid_request', message: 'url must be http or https, not ftp' });
        const malformed = await acme.post('/v1/public/documents/upload-from-url', {
          url: 'http//missing-colon',
          documentName: 'x',
          documentDate: '01-2024',
        });
        expect(malformed.status).toBe(400);
      });

      it('takes the type from the bytes when the server says octet-stream', async () => {
        const cv = Buffer.from(`${TEXT_CVS.chef}\nServed as bytes of no particular type.`);
        served.set('/chef.txt', { type: 'application/octet-stream', bytes: cv });
        const answer = await acme.post('/v1/public/documents/upload-from-url', {
          url: `${filesUrl}/chef.txt`,
          documentName: 'octet chef',
          documentDate: '01-2024',
        });
        expect(answer.status).toBe(201);
        expect(answer.body.file.contentType).toBe(TEXT);
        expect((await acme.delete(`/v1/public/documents/${answer.body.documentId}`)).status).toBe(200);
      });

      it('names the file after a URL whose escapes do not decode, and says the text is too short (another company, removed after)', async () => {
        served.set('/%E0%A4%A.txt', { type: TEXT, bytes: Buffer.from('Jane Doe\nPython developer with SQL') });
        const answer = await other.post('/v1/public/documents/upload-from-url', {
          url: `${filesUrl}/%E0%A4%A.txt`,
          documentName: 'short',
          documentDate: '01-2024',
        });
        expect(answer.status).toBe(201);
        expect(answer.body.file.name).toBe('%E0%A4%A.txt');
        const [done] = (await other.waitForDocuments([answer.body.documentId])).values();
        expect(done).toMatchObject({
          status: 'invalid',
          message: 'The file holds too little text for a CV: 29 letters, at least 50 are needed',
        });
        expect((await other.delete(`/v1/public/documents/${answer.body.documentId}`)).status).toBe(200);
      });
    });

    describe('searches', () => {
      const groupId = randomUUID();
      const searchIds: Record<string, string> = {};

      it('accepts all four types into one group with the creation body of the contract', async () => {
        const query = haveEval
          ? 'accountant, general ledger, account reconciliation, accounts payable'
          : 'accountant, general ledger, reconciliations';
        for (const type of SEARCH_TYPES) {
          const started = Date.now();
          const answer = await acme.post(`/v1/public/searches/${type}`, { query, top_k: 30, rerank_top_n: 10, searchGroupId: groupId });
          expect(Date.now() - started).toBeLessThan(10_000); // accepted, not run: far below a search's time on a loaded machine
          expect(answer.status).toBe(202);
          expect(answer.body).toEqual({
            searchId: expect.stringMatching(UUID),
            searchGroupId: groupId,
            status: 'processing',
            searchType: type,
            query,
            estimatedTime: expect.any(String),
            statusUrl: `/v1/public/searches/${answer.body.searchId}`,
            resultsUrl: `/v1/public/searches/${answer.body.searchId}/results`,
          });
          searchIds[type] = answer.body.searchId;
        }
      });

      it('completes each with the status fields of the contract', async () => {
        for (const type of SEARCH_TYPES) {
          const status = await acme.waitForSearch(searchIds[type]);
          expect(status).toEqual({
            searchId: searchIds[type],
            searchGroupId: groupId,
            status: 'completed',
            query: expect.any(String),
            searchType: type,
            createdAt: expect.stringMatching(ISO_MS),
            resultsCount: expect.any(Number),
            processingTimeMs: expect.any(Number),
            completedAt: expect.stringMatching(ISO_MS),
            resultsUrl: `/v1/public/searches/${searchIds[type]}/results`,
          });
          expect(status.resultsCount).toBeGreaterThan(0);
        }
      });

      it('returns ranked, explained results from real indexes', async () => {
        for (const type of SEARCH_TYPES) {
          const { status, body } = await acme.get(`/v1/public/searches/${searchIds[type]}/results?include=extractedText&limit=20&offset=0`);
          expect(status).toBe(200);
          expect(body).toMatchObject({ searchId: searchIds[type], searchGroupId: groupId, searchType: type, status: 'completed' });
          // With CV texts a page holds at most 20 results.
          expect(body.results.length).toBe(Math.min(20, body.totalResults));
          expect(body.pagination).toEqual({ limit: 20, offset: 0, total: body.totalResults, hasMore: body.totalResults > 20 });
          expect(body.totalResults).toBeLessThanOrEqual(type === 'dense' || type === 'sparse' ? 30 : 10);
          const all = await acme.get(`/v1/public/searches/${searchIds[type]}/results`);
          expect(all.body.results).toHaveLength(all.body.totalResults);
          expect(all.body.pagination).toEqual({ limit: 100, offset: 0, total: all.body.totalResults, hasMore: false });
          expect(all.body.results[0]).not.toHaveProperty('extractedText');
          expect(body.metadata).toMatchObject({
            processingTimeMs: expect.any(Number),
            createdAt: expect.stringMatching(ISO_MS),
            completedAt: expect.stringMatching(ISO_MS),
            topK: 30,
          });
          expect(body.metadata.rerankTopN).toBe(type === 'dense' || type === 'sparse' ? null : 10);
          if (type === 'hybrid') expect(body.metadata.reranker).toEqual({ provider: 'local', degraded: false });
          if (type === 'builtin-rerank') expect(body.metadata.reranker).toEqual({ provider: 'builtin', degraded: false });
          const ranks = body.results.map((r: { rank: number }) => r.rank);
          expect(ranks).toEqual(ranks.map((_: number, i: number) => i + 1));
          const scores = body.results.map((r: { score: number }) => r.score);
          expect([...scores].sort((a, b) => b - a)).toEqual(scores);
          const first = body.results[0];
          const { summary, contact, profile, ...rest } = first;
          expect(rest).toEqual({
            rank: 1,
            documentId: expect.stringMatching(UUID),
            documentName: expect.any(String),
            documentDate: expect.stringMatching(/^\d\d-\d{4}$/),
            score: expect.any(Number),
            scores: expect.any(Object),
            highlights: expect.any(Array),
            matchedTerms: expect.any(Array),
            // How each matched term was found in the CV, where any was.
            ...(rest.matchedAs ? { matchedAs: expect.any(Array) } : {}),
            extractedText: expect.any(String),
          });
          for (const match of (rest.matchedAs ?? []) as { term: string; as: string; text: string }[]) {
            expect(rest.matchedTerms).toContain(match.term);
            expect(['exact', 'inflection', 'synonym']).toContain(match.as);
          }
          // What the CV says, or null: the livecareer PDFs are anonymised, so no contact there.
          if (summary !== null) expect(typeof summary).toBe('string');
          if (contact !== null)
            expect(Object.keys(contact).sort()).toEqual(['email', 'firstName', 'lastName', 'linkedin', 'location', 'phone']);
          if (profile !== null) {
            expect(Object.keys(profile).sort()).toEqual([
              'degree',
              'domain',
              'experienceYears',
              'hasManagement',
              'industries',
              'languages',
              'location',
              'recentExpertise',
              'seniorityLevel',
              'skills',
              'specialization',
              'technicalStack',
            ]);
          }
          const written = body.results.find((r: { extractedText: string }) =>
            r.extractedText.startsWith('Senior Accountant\nSummary\nCPA'),
          );
          if (written) {
            expect(written.summary).toBe(
              'CPA with eight years in month-end close, general ledger reconciliations, accounts payable and accounts receivable. QuickBooks and SAP.',
            );
            expect(written.profile).toMatchObject({
              domain: 'Accounting and finance',
              specialization: 'Senior Accountant',
              seniorityLevel: 'senior',
              experienceYears: 8,
            });
            expect(written.profile.technicalStack).toEqual(expect.arrayContaining(['QuickBooks', 'SAP', 'General Ledger']));
          }
          expect(first.score).toBeGreaterThan(0);
          expect(first.score).toBeLessThanOrEqual(1);
          const expectedStages = {
            dense: ['dense'],
            sparse: ['sparse'],
            'builtin-rerank': ['dense', 'rerank'],
            hybrid: ['fused', 'rerank'],
          }[type];
          for (const stage of expectedStages) expect(first.scores).toHaveProperty(stage);
          expect(new Set(body.results.map((r: { documentId: string }) => r.documentId)).size).toBe(body.results.length);
          const category = categoryOf.get(first.documentId);
          expect(['ACCOUNTANT', 'TEXT-accountant', 'GENERATED-accountant']).toContain(category);
          if (type !== 'dense') expect(first.matchedTerms).toContain('accountant');
          const highlight = first.highlights[0];
          expect(first.extractedText.slice(highlight.start, highlight.end)).toBe(highlight.text);
        }
      });

      it('shows the group while it runs and compares its searches when done', async () => {
        const group = await acme.get(`/v1/public/searches/groups/${groupId}`);
        expect(group.status).toBe(200);
        expect(group.body).toMatchObject({
          searchGroupId: groupId,
          groupStatus: 'completed',
          totalSearches: 4,
          createdAt: expect.stringMatching(ISO_MS),
        });
        expect(group.body.searches.map((s: { searchType: string }) => s.searchType)).toEqual([...SEARCH_TYPES]);
        const results = await acme.get(`/v1/public/searches/groups/${groupId}/results`);
        expect(results.status).toBe(200);
        expect(results.body.searches).toHaveLength(4);
        for (const s of results.body.searches) expect(s.results.length).toBe(s.resultsCount);
        const { comparison } = results.body;
        expect(comparison.pairs).toHaveLength(6);
        for (const pair of comparison.pairs) {
          expect(pair.jaccard).toBeGreaterThanOrEqual(0);
          expect(pair.jaccard).toBeLessThanOrEqual(1);
        }
        expect(comparison.foundByAll.length).toBeGreaterThan(0);
        const doc = comparison.documents[0];
        expect(Object.keys(doc.ranks).sort()).toEqual(Object.values(searchIds).sort());
      });

      it('answers 202 for group results while a member still runs, then 200 with its results', async () => {
        const slowGroup = randomUUID();
        const path = `/v1/public/searches/groups/${slowGroup}/results`;
        // In cluster mode the dense service is frozen, so the search cannot end before the read. In
        // standalone mode nothing can hold it: the first read may come after its end, and is then
        // held to the ended group's answer below.
        const held = service instanceof ClusterServices ? service : null;
        held?.signal('dense', 'SIGSTOP');
        let created: Answer | undefined;
        let running: Answer | undefined;
        try {
          created = await acme.post('/v1/public/searches/dense', { query: 'chef', searchGroupId: slowGroup });
          running = await acme.get(path);
        } finally {
          held?.signal('dense', 'SIGCONT');
        }
        expect(created.status).toBe(202);
        const searchId: string = created.body.searchId;
        if (held || running.status !== 200) {
          expect(running.status).toBe(202);
          expect(running.body).toMatchObject({ searchGroupId: slowGroup, groupStatus: 'processing', searches: [{ searchId }] });
        } else {
          expect(running.body).toMatchObject({
            searchGroupId: slowGroup,
            groupStatus: 'completed',
            searches: [{ searchId, status: 'completed' }],
          });
        }
        const ended = await acme.request('GET', `/v1/public/searches/groups/${slowGroup}`, { headers: { prefer: 'wait=20' } });
        expect(ended.body.groupStatus).toBe('completed');
        const done = await acme.get(path);
        expect(done.status).toBe(200);
        expect(done.body).toMatchObject({
          searchGroupId: slowGroup,
          groupStatus: 'completed',
          searches: [{ searchId, status: 'completed' }],
        });
        expect(done.body.searches[0].results.length).toBe(done.body.searches[0].resultsCount);
      });

      it('lists groups newest first, filtered by status', async () => {
        const list = await acme.get('/v1/public/searches/groups?limit=100');
        expect(list.status).toBe(200);
        const mine = list.body.data.find((g: { searchGroupId: string }) => g.searchGroupId === groupId);
        expect(mine).toEqual({
          searchGroupId: groupId,
          query: expect.any(String),
          groupStatus: 'completed',
          totalSearches: 4,
          searchTypes: [...SEARCH_TYPES],
          createdAt: expect.stringMatching(ISO_MS),
          groupUrl: `/v1/public/searches/groups/${groupId}`,
        });
        const failed = await acme.get('/v1/public/searches/groups?status=failed');
        expect(failed.body.data.map((g: { searchGroupId: string }) => g.searchGroupId)).not.toContain(groupId);
      });

      it('assigns a new group when none is given, and ranges rerank_top_n even where it is ignored', async () => {
        const answer = await acme.post('/v1/public/searches/sparse', { query: 'QuickBooks', rerank_top_n: 5 });
        expect(answer.status).toBe(202);
        expect(answer.body.searchGroupId).toMatch(UUID);
        expect((await acme.post('/v1/public/searches/dense', { query: 'x', rerank_top_n: 0 })).status).toBe(400);
      });

      it.each([
        ['an empty query', { query: '' }, 'query must be a string of 1 to 500 characters'],
        ['a 501-character query', { query: 'a'.repeat(501) }, 'query must be a string of 1 to 500 characters'],
        ['top_k 101', { query: 'java', top_k: 101 }, 'top_k must be an integer between 1 and 100'],
        ['top_k as a string', { query: 'java', top_k: 'ten' }, 'top_k must be an integer between 1 and 100'],
        ['a searchGroupId that is no UUID', { query: 'java', searchGroupId: 'abc' }, 'searchGroupId must be a UUID'],
        ['an unknown field', { query: 'java', topk: 10 }, 'unknown field "topk"'],
        ['an array body', [], 'request body must be a JSON object, not an array'],
        ['a query holding NUL, which the database cannot store', { query: 'java\u0000' }, 'query must not contain NUL characters'],
      ])('refuses %s with 400 naming the problem', async (_, body, message) => {
        const answer = await acme.post('/v1/public/searches/hybrid', body);
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ error: 'invalid_request', message });
      });

      it('refuses a malformed keyword query for sparse and hybrid with 400 naming the character, and takes it for dense', async () => {
        for (const type of ['sparse', 'hybrid']) {
          const answer = await acme.post(`/v1/public/searches/${type}`, { query: '+(java OR kotlin' });
          expect(answer.status).toBe(400);
          expect(answer.body).toEqual({
            error: 'invalid_request',
            message: "query at character 2: this '(' is never closed: expected ')'",
          });
        }
        expect((await acme.post('/v1/public/searches/dense', { query: '+(java OR kotlin' })).status).toBe(202);
        expect((await acme.post('/v1/public/searches/sparse', { query: '+(java OR kotlin) -php' })).status).toBe(202);
      });

      it('refuses malformed JSON, other content types and huge bodies without a 500', async () => {
        const malformed = await acme.request('POST', '/v1/public/searches/dense', {
          body: '{"query":',
          headers: { 'content-type': 'application/json' },
        });
        expect(malformed.status).toBe(400);
        expect(malformed.body).toEqual({ error: 'invalid_request', message: 'the request body is not valid JSON' });
        const text = await acme.request('POST', '/v1/public/searches/dense', {
          body: 'query=java',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(text.status).toBe(415);
        const huge = await acme.request('POST', '/v1/public/searches/dense', {
          body: JSON.stringify({ query: 'x'.repeat(200_000) }),
          headers: { 'content-type': 'application/json' },
        });
        expect(huge.status).toBe(413);
        expect(huge.body.error).toBe('payload_too_large');
      });

      it('answers 400 for ids that are not UUIDs and 404 for unknown ones', async () => {
        expect((await acme.get('/v1/public/searches/not-a-uuid')).body).toEqual({
          error: 'invalid_request',
          message: 'searchId must be a UUID',
        });
        expect((await acme.get(`/v1/public/searches/${randomUUID()}`)).status).toBe(404);
        expect((await acme.get(`/v1/public/searches/${randomUUID()}/results`)).status).toBe(404);
        expect((await acme.get(`/v1/public/searches/groups/${randomUUID()}`)).status).toBe(404);
        expect((await acme.get(`/v1/public/documents/${randomUUID()}`)).status).toBe(404);
        expect((await acme.get('/v1/public/no-such-route')).body.error).toBe('not_found');
      });

      it('fails a sparse query made only of stop words, not retryable, and answers 409 for its results', async () => {
        const answer = await acme.post('/v1/public/searches/sparse', { query: 'the, and, of' });
        const status = await acme.waitForSearch(answer.body.searchId);
        expect(status).toMatchObject({ status: 'failed', errorRetryable: false, error: expect.stringContaining('no searchable keywords') });
        const results = await acme.get(`/v1/public/searches/${answer.body.searchId}/results`);
        expect(results.status).toBe(409);
        expect(results.body).toMatchObject({ error: 'conflict', status: 'failed', errorRetryable: false });
      });

      it('fails a query that gives no leg anything to search with, and runs hybrid on the leg that has something', async () => {
        const outcome = async (type: string, query: string) =>
          acme.waitForSearch((await acme.post(`/v1/public/searches/${type}`, { query })).body.searchId);
        for (const type of ['dense', 'builtin-rerank']) {
          expect(await outcome(type, 'xqzzvk 😀')).toMatchObject({
            status: 'failed',
            errorRetryable: false,
            error: expect.stringContaining('no word the language model knows'),
          });
        }
        expect(await outcome('hybrid', '!!! 😀')).toMatchObject({
          status: 'failed',
          errorRetryable: false,
          error: expect.stringContaining('no searchable keywords and no word'),
        });
        // A keyword no model word resembles: the sparse leg runs alone and finds nothing.
        expect(await outcome('hybrid', 'xqzzvk')).toMatchObject({ status: 'completed', resultsCount: 0 });
      });

      it('fails, not retryable, for a company with no searchable CV', async () => {
        const answer = await other.post('/v1/public/searches/dense', { query: 'accountant' });
        expect(answer.status).toBe(202);
        expect(await other.waitForSearch(answer.body.searchId)).toMatchObject({
          status: 'failed',
          errorRetryable: false,
          error: expect.stringContaining('no searchable documents'),
        });
      });

      it('keeps every id of one company invisible to another (404)', async () => {
        const docId = [...categoryOf.keys()][0];
        for (const path of [
          `/v1/public/searches/${searchIds.dense}`,
          `/v1/public/searches/${searchIds.dense}/results`,
          `/v1/public/searches/groups/${groupId}`,
          `/v1/public/searches/groups/${groupId}/results`,
          `/v1/public/documents/${docId}`,
        ]) {
          const answer = await other.get(path);
          expect({ path, status: answer.status, error: answer.body.error }).toEqual({ path, status: 404, error: 'not_found' });
        }
        expect((await other.delete(`/v1/public/documents/${docId}`)).status).toBe(404);
        const joined = await other.post('/v1/public/searches/sparse', { query: 'chef', searchGroupId: groupId });
        expect(joined.status).toBe(202);
        expect((await acme.get(`/v1/public/searches/groups/${groupId}`)).body.totalSearches).toBe(4);
        expect((await other.get('/v1/public/documents')).body.pagination.total).toBe(0);
      });
    });

    describe('query words the word vectors lack', () => {
      it("are read from the company's CVs that hold them, and find CVs that describe the same work in other words", async () => {
        const company = new ApiClient(service.baseUrl, createCompany('platform').apiKey);
        const cvs = {
          holder:
            'Platform Engineer\nRuns Kubernetes clusters for containers: cloud infrastructure, automated deployments, monitoring and on-call.',
          alike:
            'Cloud Engineer\nBuilt container platforms on cloud infrastructure, with automated deployments, monitoring and on-call rotas.',
          other:
            'Pastry Chef\nBaked bread, cakes and desserts for a busy restaurant kitchen, planned seasonal menus and trained the cooks.',
        };
        const ids: Record<string, string> = {};
        for (const [name, text] of Object.entries(cvs))
          ids[name] = (await company.upload(Buffer.from(text), TEXT, { documentName: name, documentDate: '01-2024' })).body.documentId;
        await company.waitForDocuments(Object.values(ids));
        const search = await company.post('/v1/public/searches/dense', { query: 'Kubernetes' });
        expect(await company.waitForSearch(search.body.searchId)).toMatchObject({ status: 'completed' });
        const { body } = await company.get(`/v1/public/searches/${search.body.searchId}/results`);
        expect(body.metadata.inducedWords).toEqual([{ word: 'kubernetes', cvs: 1 }]);
        expect(body.metadata.denseModel).toEqual({ id: expect.stringMatching(/^builtin:glove-sif-100d-v\d+$/), dimensions: 100 });
        expect(body.results.map((r: { documentId: string }) => r.documentId)).toEqual([ids.holder, ids.alike, ids.other]);
      });
    });

    describe("a CV's file", () => {
      it('serves the file as uploaded, typed and never sniffed, revalidated by its content hash, to its company only', async () => {
        const { bytes } = await fixtureCvFile(FIXTURE_CVS[0].text, 'pdf', 11);
        const uploaded = await acme.upload(bytes, 'application/pdf', {
          documentName: 'File served',
          documentDate: '03-2024',
          fileName: 'Zoë cv.pdf',
        });
        const id = uploaded.body.documentId as string;
        const url = `${service.baseUrl}/v1/public/documents/${id}/file`;
        const served = await fetch(url, { headers: { 'x-api-key': acme.apiKey! } });
        expect(served.status).toBe(200);
        expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
        expect(served.headers.get('content-type')).toBe('application/pdf');
        expect(served.headers.get('content-disposition')).toBe(`inline; filename="Zo_ cv.pdf"; filename*=UTF-8''Zo%C3%AB%20cv.pdf`);
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
        expect(served.headers.get('content-security-policy')).toContain('sandbox');
        const etag = served.headers.get('etag')!;
        expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
        const again = await fetch(url, { headers: { 'x-api-key': acme.apiKey!, 'if-none-match': etag } });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe('');
        expect((await other.get(`/v1/public/documents/${id}/file`)).status).toBe(404);
        expect((await acme.delete(`/v1/public/documents/${id}`)).status).toBe(200);
        expect((await acme.get(`/v1/public/documents/${id}/file`)).status).toBe(404);
      });
    });

    describe('deleting a CV', () => {
      it('removes record, file and index entries before answering; later searches never return it', async () => {
        const query = { query: 'chef, restaurant kitchen, menu planning' };
        const before = await acme.post('/v1/public/searches/sparse', query);
        await acme.waitForSearch(before.body.searchId);
        const found = (await acme.get(`/v1/public/searches/${before.body.searchId}/results`)).body.results;
        const victim = found[0].documentId as string;
        const deleted = await acme.delete(`/v1/public/documents/${victim}`);
        expect(deleted.status).toBe(200);
        expect(deleted.body).toEqual({
          message: expect.any(String),
          documentId: victim,
          documentName: expect.any(String),
          deleted: { database: true, storage: true, searchIndex: { denseVectors: expect.any(Number), sparseVectors: 1 } },
        });
        expect(deleted.body.deleted.searchIndex.denseVectors).toBeGreaterThan(1);
        expect((await acme.get(`/v1/public/documents/${victim}`)).status).toBe(404);
        expect((await acme.delete(`/v1/public/documents/${victim}`)).status).toBe(404);
        for (const type of SEARCH_TYPES) {
          const after = await acme.post(`/v1/public/searches/${type}`, query);
          await acme.waitForSearch(after.body.searchId);
          const ids = (await acme.get(`/v1/public/searches/${after.body.searchId}/results`)).body.results.map(
            (r: { documentId: string }) => r.documentId,
          );
          expect(ids).not.toContain(victim);
        }
        const old = (await acme.get(`/v1/public/searches/${before.body.searchId}/results?include=extractedText`)).body.results[0];
        expect(old).toMatchObject({
          documentId: victim,
          documentDeleted: true,
          documentName: null,
          matchedTerms: [],
          extractedText: null,
          highlights: [],
        });
      });
    });

    describe('the OpenAPI document', () => {
      it('is served as JSON and as Swagger UI', async () => {
        const doc = await admin.get('/openapi.json');
        expect(doc.status).toBe(200);
        expect(Object.keys(doc.body.paths)).toEqual(
          expect.arrayContaining([
            '/v1/public/searches/hybrid',
            '/v1/public/documents/upload-direct',
            '/v1/public/searches/groups/{searchGroupId}/results',
          ]),
        );
        const ui = await fetch(`${service.baseUrl}/docs`);
        expect(ui.status).toBe(200);
        expect(await ui.text()).toContain('swagger');
      });
    });
  });
