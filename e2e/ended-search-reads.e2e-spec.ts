import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { ApiClient } from './support/api-client';
import { TEXT, TEXT_CVS, adminApi, adminCli, createCompany } from './support/fixtures';
import { freePort } from './support/local-ports';
import { MODES, describeMode, type ServiceUnderTest } from './support/service-under-test';

jest.setTimeout(300_000);

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Decoded per Content-Encoding. */
  body: string;
}

/** One request as sent, its answer as received: no client decompression or schema check between. */
function raw(baseUrl: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const decoded =
          coding === 'gzip'
            ? gunzipSync(bytes)
            : coding === 'br'
              ? brotliDecompressSync(bytes)
              : coding === 'deflate'
                ? inflateSync(bytes)
                : bytes;
        resolve({ status: res.statusCode!, headers: res.headers, body: decoded.toString() });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** What differs between any two answers (the date, the id, the count, how the body is framed), left out. */
function comparable(answer: RawAnswer): object {
  expect(answer.headers['x-request-id']).toBeTruthy();
  expect(answer.headers['ratelimit-remaining']).toMatch(/^\d+$/);
  expect(answer.headers['ratelimit-reset']).toMatch(/^\d+$/);
  const volatile = new Set([
    'date',
    'x-request-id',
    'ratelimit-remaining',
    'ratelimit-reset',
    'connection',
    'keep-alive',
    'content-length',
    'transfer-encoding',
  ]);
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !volatile.has(name)));
  return { status: answer.status, headers, body: answer.body };
}

async function keptAnswersCount(metricsUrl: string | undefined): Promise<number> {
  if (!metricsUrl) return NaN;
  const text = await (await fetch(metricsUrl)).text();
  return [...text.matchAll(/^cs_http_kept_answers_total\{[^}]*\} (\d+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

for (const mode of MODES)
  describeMode(mode)(`an ended search's status and result pages, answered from what is kept (${mode.name} mode)`, () => {
    let service: ServiceUnderTest;
    let client: ApiClient;
    let searchId: string;
    let metricsUrl: string | undefined;

    beforeAll(async () => {
      // The metrics port is one process's: the standalone's (the cluster's services would all take it).
      const metricsPort = mode.name === 'standalone' ? await freePort() : undefined;
      metricsUrl = metricsPort ? `http://127.0.0.1:${metricsPort}/metrics` : undefined;
      service = await mode.start(metricsPort ? { METRICS_PORT: String(metricsPort) } : {});
      const created = await createCompany(service, 'kept', 100_000);
      client = new ApiClient(service.baseUrl, created.apiKey);
      const ids: string[] = [];
      for (const [i, text] of Object.values(TEXT_CVS).entries())
        ids.push((await client.upload(Buffer.from(text), TEXT, { documentName: `cv${i}`, documentDate: '01-2024' })).body.documentId);
      await client.waitForDocuments(ids);
      const search = await client.request('POST', '/v1/public/searches/hybrid', {
        json: { query: 'accountant' },
        headers: { prefer: 'wait=20' },
      });
      expect(search.body.status).toBe('completed');
      searchId = search.body.searchId as string;
    });
    afterAll(() => service?.destroy());

    const key = () => ({ 'x-api-key': client.apiKey! });

    it('gives the answer the framework gives, for every coding, HEAD and a matching If-None-Match', async () => {
      const status = `/v1/public/searches/${searchId}`;
      const etag = (await raw(service.baseUrl, status, key())).headers.etag!;
      const pageEtag = (await raw(service.baseUrl, `${status}/results?limit=3`, key())).headers.etag!;
      const variants: [string, Record<string, string>, string?][] = [
        ['', {}],
        ['', { 'accept-encoding': 'gzip, deflate, br' }],
        ['', { 'if-none-match': etag }],
        ['', {}, 'HEAD'],
        ['/results?limit=3', {}],
        ['/results?limit=3', { 'accept-encoding': 'gzip' }],
        ['/results?limit=3', { 'accept-encoding': 'br;q=1, gzip;q=0.5' }],
        ['/results?limit=3', { 'accept-encoding': 'deflate' }],
        ['/results?limit=3', { 'accept-encoding': 'gzip;q=0, identity' }],
        // Malformed ones, read as the compression middleware's own negotiator reads them.
        ['/results?limit=3', { 'accept-encoding': 'gzip;Q=0' }],
        ['/results?limit=3', { 'accept-encoding': 'gzip;q' }],
        ['/results?limit=3', { 'accept-encoding': 'gzip;q =0, br;q=0.1' }],
        ['/results?limit=3', { 'if-none-match': `W/"other", ${pageEtag}` }],
        ['/results?limit=3', { 'accept-encoding': 'gzip' }, 'HEAD'],
        ['/results?include=extractedText&limit=2', { 'accept-encoding': 'gzip' }],
        ['/results?offset=1&limit=2', {}],
      ];
      const keptBefore = await keptAnswersCount(metricsUrl);
      for (const [suffix, headers, method] of variants) {
        // The framework answers an id spelt in capitals (its pipe lowercases it); what is kept is read by the lower-case id only.
        const framework = await raw(
          service.baseUrl,
          `/v1/public/searches/${searchId.toUpperCase()}${suffix}`,
          { ...key(), ...headers },
          method,
        );
        await raw(service.baseUrl, `${status}${suffix}`, { ...key(), ...headers }, method); // kept, if it was not
        const kept = await raw(service.baseUrl, `${status}${suffix}`, { ...key(), ...headers }, method);
        const label = `${method ?? 'GET'} ${suffix || '(status)'} ${JSON.stringify(headers)}`;
        expect({ label, ...comparable(kept) }).toEqual({ label, ...comparable(framework) });
      }
      if (metricsUrl) expect((await keptAnswersCount(metricsUrl)) - keptBefore).toBeGreaterThanOrEqual(variants.length);
      // Compressed once and sent whole, where the compression middleware streams it.
      const gzip = await raw(service.baseUrl, `${status}/results?limit=3`, { ...key(), 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-length']).toMatch(/^\d+$/);
    });

    it('leaves to the framework what it answers otherwise: a wait, a bad query, a bad key, another company, a spent limit', async () => {
      const status = `/v1/public/searches/${searchId}`;
      await raw(service.baseUrl, status, key());
      await raw(service.baseUrl, `${status}/results`, key());
      const waited = await raw(service.baseUrl, status, { ...key(), prefer: 'wait=5' });
      expect(waited.status).toBe(200);
      expect(waited.headers['preference-applied']).toBe('wait=5');
      expect((await raw(service.baseUrl, `${status}?limit=3`, key())).status).toBe(400);
      const repeated = await raw(service.baseUrl, `${status}/results?limit=3&limit=4`, key());
      expect(repeated.status).toBe(400);
      expect(JSON.parse(repeated.body)).toMatchObject({ error: 'invalid_request' });
      expect((await raw(service.baseUrl, `${status}/results?limit=500`, key())).status).toBe(400);
      expect((await raw(service.baseUrl, status, { 'x-api-key': 'cs_wrong' })).status).toBe(401);

      const other = await createCompany(service, 'other');
      const notTheirs = await raw(service.baseUrl, `${status}/results`, { 'x-api-key': other.apiKey });
      expect(notTheirs.status).toBe(404);
      expect(JSON.parse(notTheirs.body)).toMatchObject({ error: 'not_found' });

      // Each kept read counts once against the limit (per key: a fresh one), the one past it gets the contract's 429.
      const theirs = new ApiClient(service.baseUrl, other.apiKey);
      const cv = await theirs.upload(Buffer.from(Object.values(TEXT_CVS)[0]), TEXT, { documentName: 'cv', documentDate: '01-2024' });
      await theirs.waitForDocuments([cv.body.documentId]);
      const search = await theirs.request('POST', '/v1/public/searches/sparse', {
        json: { query: 'accountant' },
        headers: { prefer: 'wait=20' },
      });
      const path = `/v1/public/searches/${search.body.searchId}`;
      expect((await raw(service.baseUrl, path, { 'x-api-key': other.apiKey })).status).toBe(200); // now kept
      await adminApi(service, 'PUT', `/companies/${other.companyId}/limits/read`, { limit: 3 });
      // Through the admin CLI: its `keys create` is run nowhere else.
      const keys = adminCli(['keys', 'create', '--company', other.companyId], { ADMIN_URL: service.baseUrl, DATA_DIR: service.dataDir });
      expect({ status: keys.status, stderr: keys.stderr }).toEqual({ status: 0, stderr: '' });
      const fresh = (JSON.parse(keys.stdout) as { apiKey: string }).apiKey;
      const answers: RawAnswer[] = [];
      for (let i = 0; i < 4; i++) answers.push(await raw(service.baseUrl, path, { 'x-api-key': fresh }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers.slice(0, 3).map((a) => a.headers['ratelimit-remaining'])).toEqual(['2', '1', '0']);
      expect(answers[3].headers['retry-after']).toMatch(/^\d+$/);
      expect(JSON.parse(answers[3].body)).toMatchObject({ error: 'rate_limit_exceeded', limit: 3 });
    });

    it('shows a CV deleted since a page was kept as deleted, at once', async () => {
      const page = `/v1/public/searches/${searchId}/results?limit=100`;
      const before = JSON.parse((await raw(service.baseUrl, page, key())).body) as {
        results: { documentId: string; documentDeleted?: boolean }[];
      };
      await raw(service.baseUrl, page, key()); // kept now
      const shown = before.results[0].documentId;
      expect((await client.request('DELETE', `/v1/public/documents/${shown}`)).status).toBe(200);
      const after = JSON.parse((await raw(service.baseUrl, page, key())).body) as typeof before;
      expect(after.results.find((r) => r.documentId === shown)).toMatchObject({ documentDeleted: true, documentName: null });
    });
  });
