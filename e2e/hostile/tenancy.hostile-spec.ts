import { randomUUID } from 'node:crypto';
import { TEXT_CVS } from '../support/fixtures';
import { HostileHarness, type Company } from './support/hostile-harness';
import type { HostileAnswer } from './support/raw-http';

/**
 * Company A makes one id of every kind; company B's key on every endpoint that
 * takes one gets the 404 a nonexistent id of that kind gets, body for body (no existence oracle),
 * changes nothing of A's, and A still sees all of its own.
 */
jest.setTimeout(300_000);

/** A's CVs on A's shortlist: `id` stays on it, `other` is taken off by A's own request. */
const SHORTLISTED = { id: '', other: '' };

interface IdCase {
  kind: 'document' | 'search' | 'search group' | 'upload' | 'shortlist' | 'saved search';
  name: string;
  method: string;
  path: (id: string) => string;
  json?: (id: string) => unknown;
  /** What A's own request answers. */
  own: number[];
}

const CASES: IdCase[] = [
  { kind: 'document', name: 'GET a document', method: 'GET', path: (id) => `/v1/public/documents/${id}`, own: [200] },
  { kind: 'document', name: "GET a document's file", method: 'GET', path: (id) => `/v1/public/documents/${id}/file`, own: [200] },
  { kind: 'search', name: 'GET a search', method: 'GET', path: (id) => `/v1/public/searches/${id}`, own: [200] },
  { kind: 'search', name: 'GET its results', method: 'GET', path: (id) => `/v1/public/searches/${id}/results`, own: [200] },
  {
    kind: 'search',
    name: 'GET its results with their text',
    method: 'GET',
    path: (id) => `/v1/public/searches/${id}/results?include=extractedText`,
    own: [200],
  },
  {
    kind: 'search',
    name: 'GET a page of its results',
    method: 'GET',
    path: (id) => `/v1/public/searches/${id}/results?limit=1&offset=0`,
    own: [200],
  },
  { kind: 'search group', name: 'GET a group', method: 'GET', path: (id) => `/v1/public/searches/groups/${id}`, own: [200] },
  {
    kind: 'search group',
    name: "GET a group's results",
    method: 'GET',
    path: (id) => `/v1/public/searches/groups/${id}/results`,
    own: [200],
  },
  {
    kind: 'search group',
    name: "GET a page of a group's results",
    method: 'GET',
    path: (id) => `/v1/public/searches/groups/${id}/results?limit=1`,
    own: [200],
  },
  { kind: 'upload', name: 'verify an upload', method: 'GET', path: (id) => `/v1/public/documents/upload-presigned/${id}`, own: [200] },
  {
    kind: 'upload',
    name: 'finalize an upload',
    method: 'POST',
    path: () => '/v1/public/documents/upload-presigned-finalize',
    json: (id) => ({ uploadId: id, documentName: 'Taken over', documentDate: '02-2024' }),
    own: [201, 200],
  },
  { kind: 'shortlist', name: 'GET a shortlist', method: 'GET', path: (id) => `/v1/public/shortlists/${id}`, own: [200] },
  {
    kind: 'shortlist',
    name: 'export a shortlist',
    method: 'GET',
    path: (id) => `/v1/public/shortlists/${id}/export?format=csv`,
    own: [200],
  },
  {
    kind: 'shortlist',
    name: 'put a CV on a shortlist',
    method: 'POST',
    path: (id) => `/v1/public/shortlists/${id}/items`,
    json: () => ({ documentId: SHORTLISTED.id, note: 'Taken over' }),
    own: [200],
  },
  {
    kind: 'shortlist',
    name: 'take a CV off a shortlist',
    method: 'DELETE',
    path: (id) => `/v1/public/shortlists/${id}/items/${SHORTLISTED.other}`,
    own: [204],
  },
  { kind: 'shortlist', name: 'DELETE a shortlist', method: 'DELETE', path: (id) => `/v1/public/shortlists/${id}`, own: [204] },
  { kind: 'saved search', name: 'GET a saved search', method: 'GET', path: (id) => `/v1/public/saved-searches/${id}`, own: [200] },
  {
    kind: 'saved search',
    name: "GET a saved search's new matches",
    method: 'GET',
    path: (id) => `/v1/public/saved-searches/${id}/new?since=2020-01-01T00:00:00Z`,
    own: [200],
  },
  {
    kind: 'saved search',
    name: 'DELETE a saved search',
    method: 'DELETE',
    path: (id) => `/v1/public/saved-searches/${id}`,
    own: [204],
  },
  // Last, so that every read above still finds the document.
  { kind: 'document', name: 'DELETE a document', method: 'DELETE', path: (id) => `/v1/public/documents/${id}`, own: [200] },
];

/** The parts of an answer that must not tell one company's id from a nonexistent one. */
function shape(answer: HostileAnswer, id: string): { status: number; body: unknown; contentType: string | undefined } {
  const text = answer.text.split(id).join('<id>');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: answer.status, body, contentType: answer.headers['content-type'] };
}

describe('tenancy: no id of one company reaches another', () => {
  let h: HostileHarness;
  let a: Company;
  let b: Company;
  const ids: Record<IdCase['kind'], string> = {
    document: '',
    search: '',
    'search group': '',
    upload: '',
    shortlist: '',
    'saved search': '',
  };
  const leaks: string[] = [];

  beforeAll(async () => {
    h = await HostileHarness.start('tenancy');
    a = await h.createCompany('a');
    b = await h.createCompany('b');
    await h.raiseLimits(a.companyId);
    await h.raiseLimits(b.companyId);

    ids.document = await h.uploadText(a.apiKey, TEXT_CVS.accountant, 'A accountant');
    await h.uploadText(b.apiKey, TEXT_CVS.developer, 'B developer'); // B has documents of its own to search
    SHORTLISTED.other = await h.uploadText(a.apiKey, TEXT_CVS.chef, 'A chef');
    await h.waitForDocuments(a.apiKey, [ids.document, SHORTLISTED.other]);
    SHORTLISTED.id = ids.document;
    const shortlist = await h.call('POST', '/v1/public/shortlists', { key: a.apiKey, json: { name: 'A finalists' } });
    ids.shortlist = (shortlist.json as { shortlistId: string }).shortlistId;
    for (const documentId of [SHORTLISTED.id, SHORTLISTED.other])
      expect((await h.call('POST', `/v1/public/shortlists/${ids.shortlist}/items`, { key: a.apiKey, json: { documentId } })).status).toBe(
        201,
      );
    const saved = await h.call('POST', '/v1/public/saved-searches', {
      key: a.apiKey,
      json: { name: 'A accountants', searchType: 'sparse', query: 'accountant' },
    });
    ids['saved search'] = (saved.json as { savedSearchId: string }).savedSearchId;
    const search = await h.call('POST', '/v1/public/searches/sparse', { key: a.apiKey, json: { query: 'accountant, general ledger' } });
    ids.search = (search.json as { searchId: string }).searchId;
    ids['search group'] = (search.json as { searchGroupId: string }).searchGroupId;
    expect((await h.waitForSearch(a.apiKey, ids.search)).status).toBe('completed');
    // An upload whose bytes have arrived: finalizing it with B's key would make B a document of A's file.
    const cv = Buffer.from(TEXT_CVS.teacher);
    const upload = await h.call('POST', '/v1/public/documents/upload-presigned', {
      key: a.apiKey,
      json: { fileName: 'teacher.txt', contentType: 'text/plain', fileSize: cv.length },
    });
    const { uploadId, presignedUrl } = upload.json as { uploadId: string; presignedUrl: string };
    ids.upload = uploadId;
    const url = new URL(presignedUrl);
    const put = await h.request({
      method: 'PUT',
      path: `${url.pathname}${url.search}`,
      headers: [['Content-Type', 'text/plain']],
      body: cv,
      family: 'setup',
    });
    expect(put.status).toBe(200);
  });

  afterAll(async () => {
    if (h) {
      h.report({ 'tenancy leaks': leaks.length });
      if (leaks.length) process.stdout.write(`\ntenancy leaks:\n${leaks.map((l) => `  ${l}`).join('\n')}\n`);
      await h.destroy();
    }
  });

  it.each(CASES)("answers B's key on $name of A ($kind) exactly as for a nonexistent one", async (c) => {
    const id = ids[c.kind];
    const fresh = randomUUID();
    const send = (key: string, target: string) =>
      h.call(c.method, c.path(target), { key, json: c.json?.(target), family: `tenancy:${c.kind}` });
    const theirs = await send(b.apiKey, id);
    const none = await send(b.apiKey, fresh);
    if (theirs.status !== 404) leaks.push(`${c.method} ${c.path('<A id>')} with B's key: ${theirs.status} ${theirs.text.slice(0, 200)}`);
    expect(theirs.status).toBe(404);
    expect(shape(theirs, id)).toEqual(shape(none, fresh));
    // The answer does not echo anything of A's.
    expect(theirs.text).not.toContain('A accountant');
    expect(theirs.text).not.toContain(a.companyId);
  });

  it('leaves all of A intact: A still sees its document, search, group and upload', async () => {
    const wrong: string[] = [];
    for (const c of CASES) {
      const id = ids[c.kind];
      const answer = await h.call(c.method, c.path(id), { key: a.apiKey, json: c.json?.(id), family: `tenancy:own ${c.kind}` });
      if (!c.own.includes(answer.status)) wrong.push(`${c.method} ${c.path('<id>')}: ${answer.status} ${answer.text.slice(0, 160)}`);
      // B's finalize attempt above must not have finalized A's upload.
      if (c.name === 'verify an upload' && (answer.json as { status?: string } | undefined)?.status !== 'uploaded')
        wrong.push(`the upload is ${answer.text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it("keeps groups per company: B joining A's group id makes a group of B's own", async () => {
    const groupId = ids['search group'];
    const joined = await h.call('POST', '/v1/public/searches/dense', {
      key: b.apiKey,
      json: { query: 'software engineer', searchGroupId: groupId },
      family: 'tenancy:group join',
    });
    expect(joined.status).toBe(202);
    const bSearch = (joined.json as { searchId: string }).searchId;
    await h.waitForSearch(b.apiKey, bSearch);
    const bGroup = (await h.call('GET', `/v1/public/searches/groups/${groupId}`, { key: b.apiKey })).json as {
      totalSearches: number;
      searches: { searchId: string }[];
    };
    const aGroup = (await h.call('GET', `/v1/public/searches/groups/${groupId}`, { key: a.apiKey })).json as {
      totalSearches: number;
      searches: { searchId: string }[];
    };
    expect(bGroup.searches.map((s) => s.searchId)).toEqual([bSearch]);
    expect(aGroup.searches.map((s) => s.searchId)).toEqual([ids.search]);
    const aResults = await h.call('GET', `/v1/public/searches/groups/${groupId}/results`, { key: a.apiKey });
    expect(aResults.text).not.toContain(bSearch);
    expect(aResults.text).not.toContain('B developer');
  });

  it("lists none of A's ids to B", async () => {
    const documents = await h.call('GET', '/v1/public/documents?limit=100', { key: b.apiKey });
    expect(documents.status).toBe(200);
    expect(documents.text).not.toContain(ids.document);
    const groups = await h.call('GET', '/v1/public/searches/groups?limit=100', { key: b.apiKey });
    expect(groups.status).toBe(200);
    expect(groups.text).not.toContain(ids.search);
    const shortlists = await h.call('GET', '/v1/public/shortlists?limit=100', { key: b.apiKey });
    expect(shortlists.status).toBe(200);
    expect(shortlists.text).not.toContain(ids.shortlist);
    const savedSearches = await h.call('GET', '/v1/public/saved-searches?limit=100', { key: b.apiKey });
    expect(savedSearches.status).toBe(200);
    expect(savedSearches.text).not.toContain(ids['saved search']);
  });

  it('keeps the invariants on every answer of this suite', () => {
    expect(h.alive()).toBe(true);
    expect(h.ledger.groupKeys()).toEqual([]);
  });
});
