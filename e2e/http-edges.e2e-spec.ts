import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ApiClient, documentProblems, toHeaders } from './support/api-client';
import { TEXT, TEXT_CVS, createCompany } from './support/fixtures';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(120_000);

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  bytes: Buffer;
}

/**
 * One request over a fresh connection, with headers as given (a declared length need not be
 * sent: `send` bytes of the body at most), resolving as soon as the answer has arrived, which is
 * held to the OpenAPI document like ApiClient's answers.
 */
async function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  send?: Buffer,
): Promise<RawAnswer> {
  const answer = await rawUnchecked(port, method, path, headers, send);
  const problems = await documentProblems(
    `http://127.0.0.1:${port}`,
    method,
    path,
    answer.status,
    toHeaders(answer.headers),
    parseBody(answer),
  );
  if (problems.length) throw new Error(`the answer does not match the OpenAPI document:\n${problems.join('\n')}`);
  return answer;
}

function parseBody(answer: RawAnswer): unknown {
  const text = answer.headers['content-encoding'] === 'gzip' ? gunzipSync(answer.bytes).toString() : answer.body;
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

function rawUnchecked(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  send?: Buffer,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString(), bytes });
        req.destroy();
      });
    });
    req.on('error', reject);
    if (send) req.write(send);
    // A declared body never sent in full: the answer must come without it.
    if (!headers['content-length'] || (send && send.length >= Number(headers['content-length']))) req.end();
  });
}

describe('the HTTP edges of the public API (standalone)', () => {
  let service: StandaloneService;
  let client: ApiClient;
  let searchId = '';

  beforeAll(async () => {
    service = await StandaloneService.start();
    const created = await createCompany(service, 'edges');
    client = new ApiClient(service.baseUrl, created.apiKey);
    const ids: string[] = [];
    for (const [name, text] of Object.entries(TEXT_CVS))
      ids.push((await client.upload(Buffer.from(text), TEXT, { documentName: name, documentDate: '01-2024' })).body.documentId);
    await client.waitForDocuments(ids);
    searchId = (await client.post('/v1/public/searches/dense', { query: 'accountant ledger reconciliations' })).body.searchId;
    await client.waitForSearch(searchId);
  });
  afterAll(() => service?.destroy());

  const port = () => service.port;
  const key = () => client.apiKey!;

  it('answers a wrong method with 405, Allow and RateLimit-*', async () => {
    const put = await client.request('PUT', '/v1/public/searches/dense', { json: { query: 'x' } });
    expect(put.status).toBe(405);
    expect(put.body).toEqual({ error: 'method_not_allowed', message: expect.stringContaining('POST') });
    // GET /searches/:searchId takes the path too (and answers 400: not a UUID).
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(put.headers.get('ratelimit-limit')).toBe('100');
    const get = await client.get('/v1/public/documents/upload-direct');
    // GET /documents/:documentId takes the path too, so GET is served there (a 400 naming the id).
    expect(get.status).toBe(400);
    const admin = await client.request('DELETE', '/admin/v1/companies');
    expect(admin.status).toBe(405);
    expect(admin.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('answers a POST to a search type that does not exist 404 naming the types; a search id keeps its GET and 405', async () => {
    const semantic = await client.post('/v1/public/searches/semantic', { query: 'accountant' });
    expect(semantic.status).toBe(404);
    expect(semantic.body).toEqual({
      error: 'not_found',
      message: 'no search type "semantic"; the search types are dense, sparse, hybrid, builtin-rerank, similar, match',
    });
    expect(semantic.headers.get('allow')).toBeNull();
    expect(semantic.headers.get('ratelimit-limit')).toBe('100');
    const status = await client.get(`/v1/public/searches/${searchId}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ searchId, searchType: 'dense' });
    const remove = await client.request('DELETE', `/v1/public/searches/${searchId}`);
    expect(remove.status).toBe(405);
    expect(remove.body).toEqual({ error: 'method_not_allowed', message: expect.stringContaining('it takes GET, HEAD') });
    expect(remove.headers.get('allow')).toBe('GET, HEAD');
  });

  it('puts RateLimit-* on unknown /v1/public routes and answers them 404', async () => {
    const unknown = await client.get('/v1/public/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'not_found', message: 'no route GET /v1/public/nothing-here' });
    expect(unknown.headers.get('ratelimit-remaining')).not.toBeNull();
    const unauthenticated = await new ApiClient(service.baseUrl, undefined).get('/v1/public/nothing-here');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('ratelimit-limit')).toBe('30');
  });

  it('refuses unknown and repeated query parameters everywhere, naming them', async () => {
    for (const path of [
      `/v1/public/searches/${searchId}?verbose=1`,
      `/v1/public/searches/${searchId}/results?lmit=5`,
      '/v1/public/documents?order=name',
    ]) {
      const answer = await client.get(path);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/^unknown query parameter "(verbose|lmit|order)"/);
    }
    const post = await client.post('/v1/public/searches/dense?debug=true', { query: 'x' });
    expect(post.status).toBe(400);
    expect(post.body.message).toBe('unknown query parameter "debug": it takes none');
    const twice = await client.get('/v1/public/documents?limit=5&limit=6');
    expect(twice.body).toEqual({ error: 'invalid_request', message: 'query parameter limit must be given once' });
  });

  it('pages results and leaves the CV text out unless asked', async () => {
    const page = await client.get(`/v1/public/searches/${searchId}/results?limit=2&offset=1`);
    expect(page.status).toBe(200);
    expect(page.body.results.map((r: { rank: number }) => r.rank)).toEqual([2, 3]);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: page.body.totalResults, hasMore: page.body.totalResults > 3 });
    expect(page.body.results[0]).not.toHaveProperty('extractedText');
    const withText = await client.get(`/v1/public/searches/${searchId}/results?limit=1&include=extractedText`);
    expect(withText.body.results[0].extractedText).toEqual(expect.any(String));
    const tooMany = await client.get(`/v1/public/searches/${searchId}/results?include=extractedText&limit=21`);
    expect(tooMany.body).toEqual({ error: 'invalid_request', message: 'limit must be at most 20 with include=extractedText' });
    expect((await client.get(`/v1/public/searches/${searchId}/results?include=everything`)).body.message).toBe(
      'include must be extractedText',
    );
  });

  it('keeps a finalized presigned upload finalized when a late PUT arrives', async () => {
    const bytes = Buffer.from(`${TEXT_CVS.teacher}\nUploaded through a presigned URL.`);
    const created = await client.post('/v1/public/documents/upload-presigned', {
      fileName: 'late.txt',
      contentType: TEXT,
      fileSize: bytes.length,
    });
    const put = () => client.putPresigned(created.body.presignedUrl as string, { 'content-type': TEXT }, bytes);
    expect((await put()).status).toBe(200);
    const finalize = () =>
      client.post('/v1/public/documents/upload-presigned-finalize', {
        uploadId: created.body.uploadId,
        documentName: 'late',
        documentDate: '01-2024',
      });
    const first = await finalize();
    expect(first.status).toBe(201);
    expect((await put()).status).toBe(409);
    expect((await client.get(`/v1/public/documents/upload-presigned/${created.body.uploadId}`)).body.status).toBe('finalized');
    const again = await finalize();
    expect(again.status).toBe(200);
    expect(again.body.documentId).toBe(first.body.documentId);
  });

  it('compresses large answers for clients that accept gzip', async () => {
    const answer = await raw(port(), 'GET', `/v1/public/searches/${searchId}/results?include=extractedText`, {
      'x-api-key': key(),
      'accept-encoding': 'gzip',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
  });

  it('answers a body that does not decode with its Content-Encoding 400, an unknown encoding 415', async () => {
    const json = { 'x-api-key': key(), 'content-type': 'application/json' };
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const answer = await raw(
        port(),
        'POST',
        '/v1/public/searches/dense',
        { ...json, 'content-encoding': encoding, 'content-length': 9 },
        Buffer.from('not-gzip!'),
      );
      expect({ encoding, status: answer.status, body: JSON.parse(answer.body) }).toEqual({
        encoding,
        status: 400,
        body: { error: 'invalid_request', message: 'the request body could not be decoded with its Content-Encoding' },
      });
    }
    const zipped = gzipSync(JSON.stringify({ query: 'accountant' }));
    expect(
      (
        await raw(
          port(),
          'POST',
          '/v1/public/searches/dense',
          { ...json, 'content-encoding': 'gzip', 'content-length': zipped.length },
          zipped,
        )
      ).status,
    ).toBe(202);
    const unknown = await raw(
      port(),
      'POST',
      '/v1/public/searches/dense',
      { ...json, 'content-encoding': 'zstd-ish', 'content-length': 2 },
      Buffer.from('{}'),
    );
    expect(unknown.status).toBe(415);
    expect(JSON.parse(unknown.body).error).toBe('unsupported_media_type');
  });

  it('answers headers over 16 KB with 431 and the error body', async () => {
    const answer = await raw(port(), 'GET', '/v1/public/documents', { 'x-api-key': key(), 'x-padding': 'a'.repeat(20_000) });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({ error: 'request_header_fields_too_large', message: expect.any(String) });
  });

  it('refuses a bad key and an oversized declared length before reading the body', async () => {
    const upload = '/v1/public/documents/upload-direct?documentName=x&documentDate=01-2024';
    // Ten megabytes sent with a bad key: received, discarded and answered 401.
    const tenMb = Buffer.alloc(10_000_000, 'a');
    const badKey = await raw(
      port(),
      'POST',
      upload,
      { 'x-api-key': 'csk_wrong', 'content-type': 'application/pdf', 'content-length': tenMb.length },
      tenMb,
    );
    expect(badKey.status).toBe(401);
    // Declared but never sent: answered after a short silence, not held open.
    const silent = await raw(
      port(),
      'POST',
      upload,
      { 'x-api-key': 'csk_wrong', 'content-type': 'application/pdf', 'content-length': 10_000_000 },
      Buffer.from('%PDF-1.7'),
    );
    expect(silent.status).toBe(401);
    expect(silent.headers.connection).toBe('close');
    // Twenty megabytes declared: answered at once, and the connection closed rather than drained.
    const tooLarge = await raw(
      port(),
      'POST',
      upload,
      { 'x-api-key': key(), 'content-type': 'application/pdf', 'content-length': 20_000_000 },
      Buffer.from('%PDF-1.7'),
    );
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.connection).toBe('close');
    expect(JSON.parse(tooLarge.body).error).toBe('payload_too_large');
    const put = await raw(
      port(),
      'PUT',
      '/uploads/4a1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00?expires=1&signature=bad',
      { 'content-type': 'application/pdf', 'content-length': tenMb.length },
      tenMb,
    );
    expect(put.status).toBe(401);
  });
});
