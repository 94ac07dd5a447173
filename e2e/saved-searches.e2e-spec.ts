import { eventually } from '@cs/test-services';
import { ApiClient } from './support/api-client';
import { TEXT, TEXT_CVS, adminApi, createCompany } from './support/fixtures';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(300_000);

const SOME_ID = '6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11';

describe('saved searches', () => {
  let service: StandaloneService;
  let client: ApiClient;
  let other: ApiClient;

  beforeAll(async () => {
    // Run again soon after CVs are read, so that the tests wait fractions of a second.
    service = await StandaloneService.start({ SAVED_SEARCHES_POLL_MS: '100' });
    client = new ApiClient(service.baseUrl, (await createCompany(service, 'saved', 100_000)).apiKey);
    other = new ApiClient(service.baseUrl, (await createCompany(service, 'saved elsewhere', 100_000)).apiKey);
  });
  afterAll(() => service?.destroy());

  const save = async (body: Record<string, unknown>) => {
    const created = await client.post('/v1/public/saved-searches', body);
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.savedSearchUrl);
    return created.body.savedSearchId as string;
  };
  const upload = async (api: ApiClient, name: string, text: string) => {
    const id = (await api.upload(Buffer.from(text), TEXT, { documentName: name, documentDate: '03-2025' })).body.documentId as string;
    await api.waitForDocuments([id]);
    return id;
  };
  const newMatches = async (id: string, query = '') => (await client.get(`/v1/public/saved-searches/${id}/new${query}`)).body;

  it('lists the CVs read after it was saved that enter its first page, and only those', async () => {
    const before = await upload(client, 'accountant before', `${TEXT_CVS.accountant}\nKept before the search was saved.`);
    const id = await save({ name: 'Ledger people', searchType: 'sparse', query: 'accountant "general ledger"', top_k: 5 });
    expect((await client.get(`/v1/public/saved-searches/${id}`)).body).toMatchObject({
      name: 'Ledger people',
      searchType: 'sparse',
      query: 'accountant "general ledger"',
      filters: null,
      top_k: 5,
      newMatchesCount: 0,
      lastNewMatchAt: null,
      newUrl: `/v1/public/saved-searches/${id}/new`,
    });

    const accountant = await upload(client, 'accountant', TEXT_CVS.accountant);
    const chef = await upload(client, 'chef', TEXT_CVS.chef);
    await upload(other, 'their accountant', `${TEXT_CVS.accountant}\nAnother company's.`);
    const found = await eventually(
      async () => {
        const body = await newMatches(id);
        expect(body.data).toHaveLength(1);
        return body;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(found.data[0]).toMatchObject({
      documentId: accountant,
      documentName: 'accountant',
      rank: expect.any(Number),
      documentUrl: `/v1/public/documents/${accountant}`,
    });
    // The accountant saved before is ranked in the first page too, but it is not new.
    expect(found.data.map((m: { documentId: string }) => m.documentId)).not.toContain(before);
    expect(found.data.map((m: { documentId: string }) => m.documentId)).not.toContain(chef);
    // `since` is the newest finding seen: passed back, it lists nothing again.
    const foundAt = found.data[0].foundAt as string;
    expect(new Date(foundAt).getTime()).toBeGreaterThanOrEqual(new Date(found.data[0].arrivedAt as string).getTime());
    expect((await newMatches(id, `?since=${encodeURIComponent(foundAt)}`)).data).toEqual([]);
    const justBefore = new Date(new Date(foundAt).getTime() - 1).toISOString();
    expect((await newMatches(id, `?since=${encodeURIComponent(justBefore)}`)).pagination.total).toBe(1);
    expect((await client.get(`/v1/public/saved-searches/${id}`)).body).toMatchObject({ newMatchesCount: 1, lastNewMatchAt: foundAt });

    // A CV deleted leaves the list.
    await client.delete(`/v1/public/documents/${accountant}`);
    expect((await newMatches(id)).data).toEqual([]);
  });

  it('applies its filters as a search does, and spends no search quota when it runs again', async () => {
    const limited = await createCompany(service, 'one search a minute', 1_000);
    await adminApi(service, 'PUT', `/companies/${limited.companyId}/limits/search`, { limit: 1 });
    const api = new ApiClient(service.baseUrl, limited.apiKey);
    const created = await api.post('/v1/public/saved-searches', {
      name: 'Developers with Kubernetes',
      searchType: 'hybrid',
      query: 'backend developer',
      filters: { skills: { all: ['Kubernetes'] } },
    });
    expect(created.status).toBe(201);
    const id = created.body.savedSearchId as string;
    const developer = await upload(api, 'developer', TEXT_CVS.developer);
    await upload(api, 'teacher', TEXT_CVS.teacher);
    await upload(api, 'chef', TEXT_CVS.chef);
    const found = await eventually(
      async () => {
        const body = (await api.get(`/v1/public/saved-searches/${id}/new`)).body;
        expect(body.data.length).toBeGreaterThan(0);
        return body;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    expect(found.data.map((m: { documentId: string }) => m.documentId)).toEqual([developer]);
    // Its runs took none of the one search a minute.
    expect((await api.post('/v1/public/searches/dense', { query: 'developer' })).status).toBe(202);
    expect((await api.post('/v1/public/searches/dense', { query: 'developer' })).status).toBe(429);
  });

  it('keeps saved searches to their company, with unique names, newest first', async () => {
    const first = await save({ name: 'Chefs', searchType: 'dense', query: 'executive chef' });
    const second = await save({ name: 'Teachers', searchType: 'builtin-rerank', query: 'middle school teacher' });
    expect(await client.post('/v1/public/saved-searches', { name: ' Chefs ', searchType: 'dense', query: 'chef' })).toMatchObject({
      status: 409,
      body: { error: 'conflict', message: expect.stringContaining('"Chefs" already exists') },
    });
    const page = await client.get('/v1/public/saved-searches?limit=1');
    expect(page.body).toMatchObject({ data: [{ savedSearchId: second }], pagination: { limit: 1, hasMore: true } });

    for (const [method, path] of [
      ['GET', `/v1/public/saved-searches/${first}`],
      ['GET', `/v1/public/saved-searches/${first}/new`],
      ['DELETE', `/v1/public/saved-searches/${first}`],
    ] as const)
      expect((await other.request(method, path)).status).toBe(404);
    expect((await other.get('/v1/public/saved-searches')).body.pagination.total).toBe(0);

    expect((await client.delete(`/v1/public/saved-searches/${first}`)).status).toBe(204);
    expect((await client.get(`/v1/public/saved-searches/${first}`)).status).toBe(404);
    expect((await client.delete(`/v1/public/saved-searches/${first}`)).status).toBe(404);
  });

  it('refuses what a search would refuse, and a company past its number of saved searches', async () => {
    const refusals: [Record<string, unknown>, string][] = [
      [{ name: 'x', searchType: 'similar', query: 'chef' }, 'searchType must be one of dense, sparse, hybrid, builtin-rerank'],
      [{ name: 'x', searchType: 'sparse', query: 'chef OR' }, 'query at character 6'],
      [{ name: 'x', searchType: 'dense', query: ' ' }, 'query must not be blank'],
      [{ name: 'x', searchType: 'dense', query: 'a'.repeat(501) }, 'query must be a string of 1 to 500 characters'],
      [{ name: 'x', searchType: 'dense', query: 'chef', top_k: 101 }, 'top_k must be an integer between 1 and 100'],
      [{ name: 'x', searchType: 'dense', query: 'chef', filters: { domain: ['Astrology'] } }, 'filters.domain'],
      [{ name: '', searchType: 'dense', query: 'chef' }, 'name must be a string of 1 to 200 characters'],
      [{ name: 'x', searchType: 'dense', query: 'chef', extra: 1 }, 'extra'],
    ];
    for (const [body, message] of refusals)
      expect(await client.post('/v1/public/saved-searches', body)).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', message: expect.stringContaining(message) },
      });
    expect((await client.get(`/v1/public/saved-searches/${SOME_ID}/new?since=monday`)).body.message).toContain('since must be');
    expect((await client.get('/v1/public/saved-searches/not-an-id')).status).toBe(400);

    const crowded = new ApiClient(service.baseUrl, (await createCompany(service, 'crowded', 100_000)).apiKey);
    for (let i = 0; i < 100; i++)
      expect((await crowded.post('/v1/public/saved-searches', { name: `s${i}`, searchType: 'dense', query: 'chef' })).status).toBe(201);
    expect(await crowded.post('/v1/public/saved-searches', { name: 's100', searchType: 'dense', query: 'chef' })).toMatchObject({
      status: 409,
      body: { message: expect.stringContaining('100 saved searches') },
    });
  });
});
