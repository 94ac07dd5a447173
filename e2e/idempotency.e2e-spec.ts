import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@cs/test-services';
import { ApiClient, documentProblems } from './support/api-client';
import { TEXT, TEXT_CVS, adminCli } from './support/fixtures';
import { MODES, describeMode, type ServiceUnderTest } from './support/service-under-test';

jest.setTimeout(300_000);

/** Short, so that a key can be seen to expire; the replays below come within a second or two of their first answer. */
const TTL_SECONDS = 12;

interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: Record<string, any>;
}

for (const mode of MODES)
  describeMode(mode)(`Idempotency-Key on POSTs (${mode.name} mode)`, () => {
    let service: ServiceUnderTest;
    let acme: ApiClient;
    let other: ApiClient;
    let files: Server;
    let filesUrl = '';
    let fetches = 0;
    /** Answers /slow.txt's requests held so far: the file server holds them until a test calls it. */
    const slowHeld: (() => void)[] = [];

    const createCompany = (name: string) => {
      const { status, stdout, stderr } = adminCli(['companies', 'create', '--name', name], {
        ADMIN_URL: service.baseUrl,
        DATA_DIR: service.dataDir,
      });
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
      return JSON.parse(stdout) as { companyId: string; apiKey: string };
    };
    const adminHeaders = () => ({ authorization: `Bearer ${service.adminToken}` });

    /**
     * A POST whose answer is kept as the bytes that came (to compare replays byte for byte), and
     * held to the OpenAPI document like every other answer.
     */
    async function post(
      client: ApiClient,
      path: string,
      key: string | undefined,
      body: Buffer | string,
      contentType: string,
    ): Promise<RawAnswer> {
      const headers: Record<string, string> = { 'content-type': contentType, ...(client.apiKey ? { 'x-api-key': client.apiKey } : {}) };
      if (key !== undefined) headers['idempotency-key'] = key;
      const response = await fetch(`${service.baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: typeof body === 'string' ? body : new Uint8Array(body),
      });
      const text = await response.text();
      const parsed = text ? (JSON.parse(text) as Record<string, any>) : {};
      expect(await documentProblems(service.baseUrl, 'POST', path, response.status, response.headers, parsed)).toEqual([]);
      return { status: response.status, headers: response.headers, text, body: parsed };
    }
    const postJson = (client: ApiClient, path: string, key: string | undefined, json: unknown) =>
      post(client, path, key, JSON.stringify(json), 'application/json');
    const uploadPath = (name: string) =>
      `/v1/public/documents/upload-direct?${new URLSearchParams({ documentName: name, documentDate: '01-2024' }).toString()}`;

    beforeAll(async () => {
      service = await mode.start({ IDEMPOTENCY_KEY_TTL_SECONDS: String(TTL_SECONDS), UPLOAD_FROM_URL_ALLOW_PRIVATE_NETWORKS: 'true' });
      const a = createCompany('acme');
      acme = new ApiClient(service.baseUrl, a.apiKey);
      const b = createCompany('other');
      other = new ApiClient(service.baseUrl, b.apiKey);
      for (const company of [a, b])
        for (const category of ['read', 'upload-burst', 'upload-sustained', 'search']) {
          const answer = await acme.request('PUT', `/admin/v1/companies/${company.companyId}/limits/${category}`, {
            json: { limit: 100_000 },
            headers: adminHeaders(),
            withoutKey: true,
          });
          expect(answer.status).toBe(200);
        }
      files = createServer((req, res) => {
        fetches++;
        if (req.url === '/cv.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(TEXT_CVS.teacher);
        // Holds an upload from its URL in flight, for the requests that come meanwhile, until released.
        else if (req.url === '/slow.txt')
          slowHeld.push(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(`${TEXT_CVS.developer}\nSlow to fetch.`));
        else res.writeHead(404).end();
      });
      await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
      filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      slowHeld.splice(0).forEach((answer) => answer()); // a failed test's, which close would wait for
      if (files) await new Promise((r) => files.close(r));
      await service?.destroy();
    });

    it('replays a search creation byte for byte, with Idempotent-Replayed, and creates no second search', async () => {
      const key = randomUUID();
      const group = randomUUID();
      const body = { query: 'accountant, general ledger', searchGroupId: group };
      const first = await postJson(acme, '/v1/public/searches/dense', key, body);
      expect(first.status).toBe(202);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const again = await postJson(acme, '/v1/public/searches/dense', key, body);
      expect(again.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(again.headers.get('vary')).toMatch(/\bPrefer\b/);
      // Each answer is its own request's: its own request id, and the replay counted against the limit.
      expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
      expect(Number(again.headers.get('ratelimit-remaining'))).toBeLessThan(Number(first.headers.get('ratelimit-remaining')));
      const groupStatus = await acme.get(`/v1/public/searches/groups/${group}`);
      expect(groupStatus.body.totalSearches).toBe(1);
      expect(groupStatus.body.searches[0].searchId).toBe(first.body.searchId);
    });

    it('replays a direct upload with its documentId and 201, where a second upload without the key is a duplicate', async () => {
      const key = randomUUID();
      const bytes = Buffer.from(`${TEXT_CVS.accountant}\nIdempotent upload ${key}.`);
      const first = await post(acme, uploadPath('idempotent upload'), key, bytes, TEXT);
      expect(first.status).toBe(201);
      const again = await post(acme, uploadPath('idempotent upload'), key, bytes, TEXT);
      expect({ status: again.status, replayed: again.headers.get('idempotent-replayed'), text: again.text }).toEqual({
        status: 201,
        replayed: 'true',
        text: first.text,
      });
      // Other bytes under the key: another request, refused; hashed as they came, like a JSON body.
      const otherBytes = await post(acme, uploadPath('idempotent upload'), key, Buffer.concat([bytes, Buffer.from('!')]), TEXT);
      expect(otherBytes.status).toBe(422);
      expect(otherBytes.body.error).toBe('idempotency_key_reused');
      const fresh = await post(acme, uploadPath('idempotent upload'), randomUUID(), bytes, TEXT);
      expect(fresh.status).toBe(200);
      expect(fresh.body).toMatchObject({ documentId: first.body.documentId, duplicate: true });
      expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    });

    it('replays the presigned upload’s creation and finalization, and an upload from a URL without fetching it again', async () => {
      const bytes = Buffer.from(`${TEXT_CVS.chef}\nPresigned ${randomUUID()}.`);
      const createKey = randomUUID();
      const request = { fileName: 'chef.txt', contentType: TEXT, fileSize: bytes.length };
      const created = await postJson(acme, '/v1/public/documents/upload-presigned', createKey, request);
      expect(created.status).toBe(200);
      const createdAgain = await postJson(acme, '/v1/public/documents/upload-presigned', createKey, request);
      expect({ status: createdAgain.status, text: createdAgain.text, replayed: createdAgain.headers.get('idempotent-replayed') }).toEqual({
        status: 200,
        text: created.text,
        replayed: 'true',
      });
      expect((await acme.putPresigned(created.body.presignedUrl, created.body.headers, bytes)).status).toBe(200);
      const finalizeKey = randomUUID();
      const finalize = { uploadId: created.body.uploadId, documentName: 'chef', documentDate: '02-2024' };
      const finalized = await postJson(acme, '/v1/public/documents/upload-presigned-finalize', finalizeKey, finalize);
      expect(finalized.status).toBe(201);
      const finalizedAgain = await postJson(acme, '/v1/public/documents/upload-presigned-finalize', finalizeKey, finalize);
      // Without the key a second finalization answers 200; with it, the first answer itself.
      expect({ status: finalizedAgain.status, text: finalizedAgain.text }).toEqual({ status: 201, text: finalized.text });

      const urlKey = randomUUID();
      const fromUrl = { url: `${filesUrl}/cv.txt`, documentName: 'teacher', documentDate: '03-2024' };
      const before = fetches;
      const fetched = await postJson(acme, '/v1/public/documents/upload-from-url', urlKey, fromUrl);
      expect(fetched.status).toBe(201);
      const fetchedAgain = await postJson(acme, '/v1/public/documents/upload-from-url', urlKey, fromUrl);
      expect({ status: fetchedAgain.status, text: fetchedAgain.text, replayed: fetchedAgain.headers.get('idempotent-replayed') }).toEqual({
        status: 201,
        text: fetched.text,
        replayed: 'true',
      });
      expect(fetches - before).toBe(1);
    });

    it('answers 422 idempotency_key_reused for the key with another body, query or route, and runs none of them', async () => {
      const key = randomUUID();
      const group = randomUUID();
      expect((await postJson(acme, '/v1/public/searches/dense', key, { query: 'chef', searchGroupId: group })).status).toBe(202);
      for (const [path, body] of [
        ['/v1/public/searches/dense', { query: 'teacher', searchGroupId: group }],
        ['/v1/public/searches/sparse', { query: 'chef', searchGroupId: group }],
      ] as const) {
        const reused = await postJson(acme, path, key, body);
        expect(reused.status).toBe(422);
        expect(reused.body).toEqual({
          error: 'idempotency_key_reused',
          message: expect.stringContaining('POST /v1/public/searches/dense'),
        });
      }
      // upload-direct's fields are in its query: another documentName is another request.
      const uploadKey = randomUUID();
      const bytes = Buffer.from(`${TEXT_CVS.developer}\nQuery ${uploadKey}.`);
      expect((await post(acme, uploadPath('one name'), uploadKey, bytes, TEXT)).status).toBe(201);
      const renamed = await post(acme, uploadPath('another name'), uploadKey, bytes, TEXT);
      expect(renamed.status).toBe(422);
      expect(renamed.body.message).toMatch(/with another body or query string/);
      expect((await acme.get(`/v1/public/searches/groups/${group}`)).body.totalSearches).toBe(1);
    });

    it('runs one of many concurrent requests with one key; the others get 409 with Retry-After: 1, or its answer', async () => {
      const key = randomUUID();
      const group = randomUUID();
      const body = { query: 'software engineer, kubernetes', searchGroupId: group };
      const answers = await Promise.all(Array.from({ length: 8 }, () => postJson(acme, '/v1/public/searches/hybrid', key, body)));
      const created = answers.filter((a) => a.status === 202);
      const busy = answers.filter((a) => a.status === 409);
      expect(created.length + busy.length).toBe(8);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((a) => a.body.searchId)).size).toBe(1);
      expect(created.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
      for (const answer of busy) {
        expect(answer.body).toEqual({ error: 'idempotency_key_in_use', message: expect.any(String) });
        expect(answer.headers.get('retry-after')).toBe('1');
      }
      expect((await acme.get(`/v1/public/searches/groups/${group}`)).body.totalSearches).toBe(1);
      console.log(`idempotency (${mode.name}): 8 concurrent requests with one key: ${created.length} answered 202, ${busy.length} 409`);
    });

    it('answers 409 with Retry-After: 1 while the first request with the key runs, and its answer once it is done', async () => {
      const key = randomUUID();
      const body = { url: `${filesUrl}/slow.txt`, documentName: 'slow', documentDate: '03-2024' };
      const before = fetches;
      const first = postJson(acme, '/v1/public/documents/upload-from-url', key, body);
      // The first holds the key once its fetch is under way: the file server has the request.
      await waitFor(() => slowHeld.length > 0, { what: 'the first request fetching the file' });
      const meanwhile = await Promise.all([1, 2, 3].map(() => postJson(acme, '/v1/public/documents/upload-from-url', key, body)));
      for (const answer of meanwhile) {
        expect(answer.status).toBe(409);
        expect(answer.body).toEqual({ error: 'idempotency_key_in_use', message: expect.stringMatching(/still being processed/) });
        expect(answer.headers.get('retry-after')).toBe('1');
      }
      // Another body under the key is refused at once, even while the first runs.
      expect((await postJson(acme, '/v1/public/documents/upload-from-url', key, { ...body, documentName: 'other' })).status).toBe(422);
      slowHeld.splice(0).forEach((answer) => answer());
      const done = await first;
      expect(done.status).toBe(201);
      const after = await postJson(acme, '/v1/public/documents/upload-from-url', key, body);
      expect({ status: after.status, text: after.text, replayed: after.headers.get('idempotent-replayed') }).toEqual({
        status: 201,
        text: done.text,
        replayed: 'true',
      });
      expect(fetches - before).toBe(1);
    });

    it("keeps companies' keys apart: the same key and body in another company runs there", async () => {
      const key = randomUUID();
      const body = { query: 'teacher, curriculum' };
      const mine = await postJson(acme, '/v1/public/searches/sparse', key, body);
      const theirs = await postJson(other, '/v1/public/searches/sparse', key, body);
      expect([mine.status, theirs.status]).toEqual([202, 202]);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
      expect(theirs.body.searchId).not.toBe(mine.body.searchId);
      expect((await other.get(`/v1/public/searches/${mine.body.searchId}`)).status).toBe(404);
    });

    it('replays a 4xx that a retry would get again, and refuses a malformed key with a 400 naming the header', async () => {
      const key = randomUUID();
      const invalid = await postJson(acme, '/v1/public/searches/dense', key, { query: '' });
      expect(invalid.status).toBe(400);
      const again = await postJson(acme, '/v1/public/searches/dense', key, { query: '' });
      expect({ status: again.status, text: again.text, replayed: again.headers.get('idempotent-replayed') }).toEqual({
        status: 400,
        text: invalid.text,
        replayed: 'true',
      });
      for (const bad of ['k'.repeat(256), 'two words', 'caf\u00e9']) {
        const refused = await postJson(acme, '/v1/public/searches/dense', bad, { query: 'chef' });
        expect(refused.status).toBe(400);
        expect(refused.body.message).toMatch(/Idempotency-Key/);
      }
    });

    it('runs a request anew once its key expired', async () => {
      const key = randomUUID();
      const body = { query: 'nurse, intensive care' };
      const first = await postJson(acme, '/v1/public/searches/builtin-rerank', key, body);
      expect(first.status).toBe(202);
      expect((await postJson(acme, '/v1/public/searches/builtin-rerank', key, body)).body.searchId).toBe(first.body.searchId);
      await new Promise((r) => setTimeout(r, (TTL_SECONDS + 1) * 1000));
      const later = await postJson(acme, '/v1/public/searches/builtin-rerank', key, body);
      expect(later.status).toBe(202);
      expect(later.headers.get('idempotent-replayed')).toBeNull();
      expect(later.body.searchId).not.toBe(first.body.searchId);
      // And that new answer is what the key replays now.
      expect((await postJson(acme, '/v1/public/searches/builtin-rerank', key, body)).body.searchId).toBe(later.body.searchId);
    });

    it('takes keys on the admin API apart from companies’, and refuses them where the answer holds an API key', async () => {
      const key = randomUUID();
      const company = createCompany('admin-idempotency');
      const issued = await acme.request('POST', `/admin/v1/companies/${company.companyId}/keys`, {
        headers: { ...adminHeaders(), 'idempotency-key': key },
        withoutKey: true,
      });
      expect(issued.status).toBe(400);
      expect(issued.body.message).toMatch(/Idempotency-Key header is not taken here: the answer holds a new API key/);
      const revoke = () =>
        acme.request('POST', `/admin/v1/companies/${company.companyId}/keys/revoke`, {
          json: { keyPrefix: company.apiKey.slice(0, 8) },
          headers: { ...adminHeaders(), 'idempotency-key': key },
          withoutKey: true,
        });
      const revoked = await revoke();
      expect(revoked.status).toBe(201);
      expect(revoked.body.revoked).toBe(1);
      // Without the key a second revocation is a 404 (no live key left); with it, the first answer.
      const again = await revoke();
      expect({ status: again.status, body: again.body, replayed: again.headers.get('idempotent-replayed') }).toEqual({
        status: 201,
        body: revoked.body,
        replayed: 'true',
      });
      // The same key in a company's scope is another key.
      expect((await postJson(acme, '/v1/public/searches/dense', key, { query: 'chef' })).status).toBe(202);
    });
  });
