import { parse } from 'csv-parse/sync';
import JSZip from 'jszip';
import { ApiClient } from './support/api-client';
import { TEXT, TEXT_CVS, createCompany } from './support/fixtures';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(300_000);

/** A well-formed id: the body's other fields are checked before any CV is looked up. */
const SOME_ID = '6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11';

describe('shortlists', () => {
  let service: StandaloneService;
  let client: ApiClient;
  let other: ApiClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    service = await StandaloneService.start();
    client = new ApiClient(service.baseUrl, (await createCompany(service, 'lists', 100_000)).apiKey);
    other = new ApiClient(service.baseUrl, (await createCompany(service, 'lists elsewhere', 100_000)).apiKey);
    for (const name of ['accountant', 'developer', 'chef'])
      ids[name] = (
        await client.upload(Buffer.from(TEXT_CVS[name]), TEXT, { documentName: `${name} CV`, documentDate: '03-2025' })
      ).body.documentId;
    ids.posting = (
      await client.upload(Buffer.from('Staff Accountant\n\nRequirements\n- general ledger\n- reconciliations'), TEXT, {
        documentName: 'posting',
        documentDate: '03-2025',
        kind: 'job',
      })
    ).body.documentId;
    ids.foreign = (
      await other.upload(Buffer.from(TEXT_CVS.teacher), TEXT, { documentName: 'their CV', documentDate: '03-2025' })
    ).body.documentId;
    await client.waitForDocuments([ids.accountant, ids.developer, ids.chef, ids.posting]);
  });
  afterAll(() => service?.destroy());

  const create = async (name: string) => {
    const created = await client.post('/v1/public/shortlists', { name });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(created.body.shortlistUrl);
    return created.body.shortlistId as string;
  };

  it('keeps named lists of CVs with notes, in the order added, and lists them newest first', async () => {
    const id = await create('Finance, senior');
    const list = `/v1/public/shortlists/${id}`;
    expect((await client.post(`${list}/items`, { documentId: ids.accountant, note: 'Call Monday' })).status).toBe(201);
    expect((await client.post(`${list}/items`, { documentId: ids.chef })).status).toBe(201);
    const again = await client.post(`${list}/items`, { documentId: ids.accountant, note: 'Interview Thursday' });
    expect(again).toMatchObject({
      status: 200,
      body: { documentId: ids.accountant, documentName: 'accountant CV', note: 'Interview Thursday' },
    });

    const read = await client.get(list);
    expect(read.body).toMatchObject({ name: 'Finance, senior', itemsCount: 2 });
    expect(read.body.items.map((i: { documentId: string }) => i.documentId)).toEqual([ids.accountant, ids.chef]);
    expect(read.body.items[1]).toMatchObject({ note: null, documentUrl: `/v1/public/documents/${ids.chef}` });

    const newer = await create('Kitchen');
    const page = await client.get('/v1/public/shortlists?limit=1');
    expect(page.body).toMatchObject({ data: [{ shortlistId: newer, itemsCount: 0 }], pagination: { total: 2, hasMore: true } });

    expect((await client.delete(`${list}/items/${ids.chef}`)).status).toBe(204);
    expect((await client.delete(`${list}/items/${ids.chef}`)).status).toBe(404);
    expect((await client.get(list)).body.itemsCount).toBe(1);
    expect((await client.delete(`/v1/public/shortlists/${newer}`)).status).toBe(204);
    expect((await client.get(`/v1/public/shortlists/${newer}`)).status).toBe(404);
    // The CVs stay when a list goes.
    expect((await client.get(`/v1/public/documents/${ids.chef}`)).status).toBe(200);
  });

  it("refuses a name in use, another company's CV, a job posting, and a list that is not there", async () => {
    const id = await create('Refusals');
    const list = `/v1/public/shortlists/${id}`;
    expect(await client.post('/v1/public/shortlists', { name: '  Refusals ' })).toMatchObject({
      status: 409,
      body: { error: 'conflict', message: expect.stringContaining('"Refusals" already exists') },
    });
    expect((await client.post(`${list}/items`, { documentId: ids.foreign })).status).toBe(404);
    expect(await client.post(`${list}/items`, { documentId: ids.posting })).toMatchObject({
      status: 400,
      body: { message: 'documentId names a job posting: a shortlist holds CVs' },
    });
    expect((await other.get(list)).status).toBe(404);
    expect((await other.post(`${list}/items`, { documentId: ids.foreign })).status).toBe(404);
    expect((await client.get(list)).body.itemsCount).toBe(0);
  });

  it('exports a list as CSV with each CV’s contact, profile and note, formulas defused', async () => {
    const id = await create('Zürich = finalists');
    const list = `/v1/public/shortlists/${id}`;
    await client.post(`${list}/items`, { documentId: ids.accountant, note: '=HYPERLINK("http://evil.example","click")' });
    await client.post(`${list}/items`, { documentId: ids.developer, note: 'two\nlines, "quoted"' });
    const response = await fetch(`${service.baseUrl}${list}/export?format=csv`, { headers: { 'x-api-key': client.apiKey! } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Z_rich = finalists.csv"; filename*=UTF-8''Z%C3%BCrich%20%3D%20finalists.csv`,
    );
    const rows = parse<Record<string, string>>(await response.text(), { columns: true });
    expect(rows.map((r) => r.documentId)).toEqual([ids.accountant, ids.developer]);
    expect(rows[0]).toMatchObject({ documentName: 'accountant CV', note: `'=HYPERLINK("http://evil.example","click")` });
    expect(rows[0].skills).toMatch(/QuickBooks/i);
    expect(rows[1].note).toBe('two\nlines, "quoted"');
    expect((await client.get(`${list}/export?format=xlsx`)).body).toMatchObject({
      error: 'invalid_request',
      message: 'format must be one of csv, zip',
    });
    expect((await other.get(`${list}/export`)).status).toBe(404);
  });

  it('exports a list as a ZIP of its CVs’ files as uploaded, with its CSV first', async () => {
    const id = await create('Files');
    const list = `/v1/public/shortlists/${id}`;
    await client.post(`${list}/items`, { documentId: ids.chef });
    await client.post(`${list}/items`, { documentId: ids.accountant });
    const response = await fetch(`${service.baseUrl}${list}/export?format=zip`, { headers: { 'x-api-key': client.apiKey! } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toContain('filename="Files.zip"');
    const zip = await JSZip.loadAsync(Buffer.from(await response.arrayBuffer()));
    expect(Object.keys(zip.files)).toEqual(['shortlist.csv', '0001 chef CV', '0002 accountant CV']);
    expect(await zip.file('0001 chef CV')!.async('string')).toBe(TEXT_CVS.chef);
    expect(await zip.file('shortlist.csv')!.async('string')).toContain(ids.accountant);
    expect((await other.get(`${list}/export?format=zip`)).status).toBe(404);
  });

  it('stops a ZIP export whose client goes away, and goes on serving', async () => {
    const id = await create('Abandoned');
    for (const name of ['accountant', 'chef']) await client.post(`/v1/public/shortlists/${id}/items`, { documentId: ids[name] });
    const aborted = new AbortController();
    const response = await fetch(`${service.baseUrl}/v1/public/shortlists/${id}/export?format=zip`, {
      headers: { 'x-api-key': client.apiKey! },
      signal: aborted.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    aborted.abort();
    await reader.read().catch(() => undefined);
    const again = await fetch(`${service.baseUrl}/v1/public/shortlists/${id}/export?format=zip`, {
      headers: { 'x-api-key': client.apiKey! },
    });
    const zip = await JSZip.loadAsync(Buffer.from(await again.arrayBuffer()));
    expect(Object.keys(zip.files)).toHaveLength(3);
  });

  it('reads a documentId in any case as the same CV', async () => {
    const id = await create('Upper case');
    const added = await client.post(`/v1/public/shortlists/${id}/items`, { documentId: ids.chef.toUpperCase() });
    expect(added).toMatchObject({ status: 201, body: { documentId: ids.chef, documentUrl: `/v1/public/documents/${ids.chef}` } });
    expect((await client.post(`/v1/public/shortlists/${id}/items`, { documentId: ids.chef })).status).toBe(200);
  });

  it('drops a deleted CV from every list', async () => {
    const id = await create('Deleted');
    await client.post(`/v1/public/shortlists/${id}/items`, { documentId: ids.developer });
    expect((await client.delete(`/v1/public/documents/${ids.developer}`)).status).toBe(200);
    expect((await client.get(`/v1/public/shortlists/${id}`)).body).toMatchObject({ itemsCount: 0, items: [] });
  });

  it.each([
    ['an empty name', { name: '' }, 'name must be a string of 1 to 200 characters'],
    ['a name of 201 characters', { name: 'x'.repeat(201) }, 'name must be a string of 1 to 200 characters'],
    ['a NUL in the name', { name: 'a\u0000b' }, 'name must not contain NUL characters'],
    ['an unknown field', { name: 'ok', extra: 1 }, 'extra'],
    ['a name that is a list', { name: ['list'] }, 'name must be a string of 1 to 200 characters'],
  ])('refuses a list with %s, naming what is wrong', async (_, body, message) => {
    const answer = await client.post('/v1/public/shortlists', body);
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_request', message: expect.stringContaining(message) } });
  });

  it.each([
    ['a documentId that is no UUID', { documentId: 'not-a-uuid' }, 'documentId must be a UUID'],
    ['no documentId', {}, 'documentId is required'],
    ['a note of 2001 characters', { documentId: SOME_ID, note: 'n'.repeat(2001) }, 'note must be a string of at most 2000 characters'],
    ['a note that is a number', { documentId: SOME_ID, note: 7 }, 'note must be a string of at most 2000 characters'],
  ])('refuses an item with %s, naming what is wrong', async (label, body, message) => {
    const id = await create(`Items: ${label}`);
    const answer = await client.post(`/v1/public/shortlists/${id}/items`, body);
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_request', message: expect.stringContaining(message) } });
  });
});
