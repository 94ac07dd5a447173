// `npm run openapi:examples`: walks the API tour against a fresh standalone service and writes
// its real answers (ids and timestamps as they came) to apps/gateway/src/app/openapi/captured-examples.json,
// by operationId and status, which the OpenAPI document shows as its examples. Every answer goes
// through ApiClient, so each is checked against the served document as it is captured.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { ApiClient, type Answer } from '../e2e/support/api-client';
import { TEXT_CVS } from '../e2e/support/fixtures';
import { StandaloneService } from '../e2e/support/standalone-service';

const ROOT = path.resolve(__dirname, '..');
const TARGET = path.join(ROOT, 'apps/gateway/src/app/openapi/captured-examples.json');
/** What presigned URLs name: the capture's own port would mean nothing to a reader. */
const PUBLIC_BASE_URL = 'https://cv-search.example.com';
const TEXT = 'text/plain';

type Examples = Record<string, Record<string, Record<string, { summary: string; value: unknown }>>>;
const examples: Examples = {};

/** Keeps an answer as an example of its operation and status; its status must be the one expected. */
function keep<T extends Answer>(operationId: string, name: string, summary: string, answer: T, status: number): T {
  if (answer.status !== status)
    throw new Error(`${operationId} (${name}) answered ${answer.status}, not ${status}: ${JSON.stringify(answer.body)}`);
  ((examples[operationId] ??= {})[String(status)] ??= {})[name] = { summary, value: answer.body };
  return answer;
}

async function admin(service: StandaloneService, method: string, url: string, json?: unknown): Promise<Record<string, unknown>> {
  const answer = await new ApiClient(service.baseUrl, undefined).request(method, url, {
    json,
    headers: { authorization: `Bearer ${service.adminToken}` },
  });
  if (answer.status >= 300) throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function company(service: StandaloneService, name: string, limits: Record<string, number> = {}): Promise<ApiClient> {
  const created = await admin(service, 'POST', '/admin/v1/companies', { name });
  for (const [category, limit] of Object.entries(limits))
    await admin(service, 'PUT', `/admin/v1/companies/${created.companyId as string}/limits/${category}`, { limit });
  return new ApiClient(service.baseUrl, created.apiKey as string);
}

async function tour(service: StandaloneService, files: string): Promise<void> {
  const acme = await company(service, 'Acme Recruiting', { search: 1000, read: 10000, 'upload-burst': 1000, 'upload-sustained': 1000 });

  // Saved before the CVs arrive, so that they are new to it.
  const saved = keep(
    'createSavedSearch',
    'created',
    'A saved search: run again as CVs are read',
    await acme.post('/v1/public/saved-searches', {
      name: 'Accountants, 5+ years',
      searchType: 'sparse',
      query: 'accountant "general ledger"',
      filters: { experienceYears: { gte: 5 } },
      top_k: 10,
    }),
    201,
  );

  // Documents
  const uploaded: string[] = [];
  for (const [name, text] of Object.entries(TEXT_CVS).slice(0, 3)) {
    const params = { documentName: `${name} CV`, documentDate: '03-2024', fileName: `${name}.txt` };
    const answer = await acme.upload(Buffer.from(text), TEXT, params);
    if (uploaded.length === 0) keep('uploadDocument', 'created', 'A new document, queued', answer, 201);
    uploaded.push(answer.body.documentId as string);
  }
  keep(
    'uploadDocument',
    'duplicate',
    'The same bytes again: the existing document',
    await acme.upload(Buffer.from(TEXT_CVS.accountant), TEXT, { documentName: 'again', documentDate: '03-2024' }),
    200,
  );
  keep(
    'uploadDocument',
    'unsupportedType',
    'A type that is not a CV format',
    await acme.upload(Buffer.from('GIF89a'), 'image/gif', { documentName: 'picture', documentDate: '03-2024' }),
    415,
  );
  keep(
    'uploadDocument',
    'badDate',
    'documentDate not MM-YYYY',
    await acme.upload(Buffer.from(TEXT_CVS.teacher), TEXT, { documentName: 'teacher', documentDate: '2024-03' }),
    400,
  );

  const presignedText = Buffer.from(TEXT_CVS.teacher);
  const presigned = keep(
    'createPresignedUpload',
    'created',
    'Where to PUT the file',
    await acme.post('/v1/public/documents/upload-presigned', {
      fileName: 'teacher.txt',
      contentType: TEXT,
      fileSize: presignedText.length,
    }),
    200,
  );
  const uploadId = presigned.body.uploadId as string;
  keep('getPresignedUpload', 'pending', 'No bytes yet', await acme.get(`/v1/public/documents/upload-presigned/${uploadId}`), 200);
  keep(
    'finalizePresignedUpload',
    'noFileYet',
    'Finalized before the PUT',
    await acme.post('/v1/public/documents/upload-presigned-finalize', { uploadId, documentName: 'teacher CV', documentDate: '03-2024' }),
    409,
  );
  const putUrl = new URL(presigned.body.presignedUrl as string);
  const putHeaders = presigned.body.headers as Record<string, string>;
  const forged = new URL(putUrl);
  forged.searchParams.set('signature', 'f'.repeat(64));
  keep(
    'putPresignedUpload',
    'badSignature',
    'A signature that does not match',
    await acme.putPresigned(forged.href, putHeaders, presignedText),
    401,
  );
  keep('putPresignedUpload', 'stored', 'The bytes arrived', await acme.putPresigned(putUrl.href, putHeaders, presignedText), 200);
  keep('getPresignedUpload', 'uploaded', 'The bytes arrived', await acme.get(`/v1/public/documents/upload-presigned/${uploadId}`), 200);
  const finalized = keep(
    'finalizePresignedUpload',
    'created',
    'A new document from the uploaded file',
    await acme.post('/v1/public/documents/upload-presigned-finalize', { uploadId, documentName: 'teacher CV', documentDate: '03-2024' }),
    201,
  );
  uploaded.push(finalized.body.documentId as string);
  const fromUrl = keep(
    'uploadDocumentFromUrl',
    'created',
    'A CV fetched from a URL',
    await acme.post('/v1/public/documents/upload-from-url', {
      url: `${files}/developer-cv.txt`,
      documentName: 'developer CV',
      documentDate: '03-2024',
    }),
    201,
  );
  uploaded.push(fromUrl.body.documentId as string);
  keep(
    'uploadDocumentFromUrl',
    'htmlPage',
    'A URL that serves a web page',
    await acme.post('/v1/public/documents/upload-from-url', {
      url: `${files}/profile.html`,
      documentName: 'remote CV',
      documentDate: '03-2024',
    }),
    422,
  );

  await acme.waitForDocuments(uploaded);
  keep('listDocuments', 'page', 'The two newest documents', await acme.get('/v1/public/documents?limit=2'), 200);
  keep('listDocuments', 'badLimit', 'A limit out of range', await acme.get('/v1/public/documents?limit=500'), 400);
  keep('getDocument', 'completed', 'A processed CV', await acme.get(`/v1/public/documents/${uploaded[0]}`), 200);
  keep('getDocument', 'notFound', 'No such document (or another company’s)', await acme.get(`/v1/public/documents/${randomUUID()}`), 404);
  keep('getDocument', 'badId', 'An id that is not a UUID', await acme.get('/v1/public/documents/12345'), 400);
  keep(
    'getDocumentFile',
    'notFound',
    'No such document (or another company’s)',
    await acme.get(`/v1/public/documents/${randomUUID()}/file`),
    404,
  );
  keep('listDocuments', 'noKey', 'Without X-API-Key', await acme.request('GET', '/v1/public/documents', { withoutKey: true }), 401);

  // Searches: the four types in one group
  const query = 'accountant with general ledger and month-end close experience';
  const dense = keep(
    'createDenseSearch',
    'started',
    'A dense search',
    await acme.post('/v1/public/searches/dense', { query, top_k: 3 }),
    202,
  );
  const searchGroupId = dense.body.searchGroupId as string;
  const others = {
    createSparseSearch: 'sparse',
    createHybridSearch: 'hybrid',
    createBuiltinRerankSearch: 'builtin-rerank',
  } as const;
  const searchIds = [dense.body.searchId as string];
  for (const [operationId, type] of Object.entries(others)) {
    const answer = await acme.post(`/v1/public/searches/${type}`, { query, top_k: 3, searchGroupId });
    searchIds.push(keep(operationId, 'started', `A ${type} search in the dense search’s group`, answer, 202).body.searchId as string);
  }
  const similar = keep(
    'createSimilarSearch',
    'started',
    'The CVs most like one of yours, in the same group',
    await acme.post('/v1/public/searches/similar', { documentId: uploaded[0], top_k: 3, searchGroupId }),
    202,
  );
  searchIds.push(similar.body.searchId as string);
  keep(
    'createSimilarSearch',
    'notFound',
    'A document that is not one of yours',
    await acme.post('/v1/public/searches/similar', { documentId: randomUUID() }),
    404,
  );
  const posting =
    'Staff Accountant\n\nRequirements\n- 2+ years of general ledger accounting and month-end close\n- Journal entries and account reconciliations\n\nNice to have\n- QuickBooks';
  const match = keep(
    'createMatchSearch',
    'started',
    'A job posting’s text, in the same group: its criteria are read at once, and returned',
    await acme.post('/v1/public/searches/match', { jobDescription: posting, top_k: 3, searchGroupId }),
    202,
  );
  searchIds.push(match.body.searchId as string);
  keep(
    'createMatchSearch',
    'bothSubjects',
    'A posting’s text and criteria together',
    await acme.post('/v1/public/searches/match', { jobDescription: posting, criteria: match.body.criteria as unknown }),
    400,
  );
  keep('createDenseSearch', 'emptyQuery', 'A query that is empty', await acme.post('/v1/public/searches/dense', { query: '' }), 400);
  keep(
    'createHybridSearch',
    'unknownField',
    'A field the API does not take',
    await acme.post('/v1/public/searches/hybrid', { query, topK: 3 }),
    400,
  );
  keep(
    'createDenseSearch',
    'completedWithinWait',
    'Prefer: wait=10, and the search ended within it: its status, in one round trip',
    await acme.request('POST', '/v1/public/searches/dense', { json: { query, top_k: 3 }, headers: { prefer: 'wait=10' } }),
    200,
  );
  const reusedKey = randomUUID();
  await acme.request('POST', '/v1/public/searches/sparse', { json: { query }, headers: { 'idempotency-key': reusedKey } });
  keep(
    'createSparseSearch',
    'idempotencyKeyReused',
    'An Idempotency-Key sent before with another request',
    await acme.request('POST', '/v1/public/searches/sparse', { json: { query: 'chef' }, headers: { 'idempotency-key': reusedKey } }),
    422,
  );
  const filters = { skills: { all: ['k8s'] }, experienceYears: { gte: 3 } };
  const filtered = keep(
    'createDenseSearch',
    'filtered',
    'A dense search kept to CVs that name Kubernetes (k8s) and show 3 years of experience or more',
    await acme.post('/v1/public/searches/dense', { query: 'backend engineer, distributed systems', top_k: 3, filters }),
    202,
  );
  keep(
    'createDenseSearch',
    'unsearchableSkill',
    'A filter naming a skill the vocabulary does not know and of no word to match it by in the text',
    await acme.post('/v1/public/searches/dense', { query, filters: { skills: { all: ['???'] } } }),
    400,
  );
  for (const id of [...searchIds, filtered.body.searchId as string]) await acme.waitForSearch(id);
  keep('getSearch', 'completed', 'A completed search', await acme.get(`/v1/public/searches/${searchIds[2]}`), 200);
  keep('getSearch', 'notFound', 'No such search (or another company’s)', await acme.get(`/v1/public/searches/${randomUUID()}`), 404);
  keep(
    'streamSearchEvents',
    'notAcceptable',
    'An Accept that excludes text/event-stream',
    await acme.request('GET', `/v1/public/searches/${searchIds[0]}/events`, { headers: { accept: 'application/json' } }),
    406,
  );
  keep(
    'getSearchResults',
    'hybrid',
    'The best two of a hybrid search',
    await acme.get(`/v1/public/searches/${searchIds[2]}/results?limit=2`),
    200,
  );
  keep(
    'getSearchResults',
    'withText',
    'The best of a dense search, with its CV’s text',
    await acme.get(`/v1/public/searches/${searchIds[0]}/results?limit=1&include=extractedText`),
    200,
  );
  keep(
    'getSearchResults',
    'filtered',
    'A filtered search’s results: only the CVs that pass, its filters echoed',
    await acme.get(`/v1/public/searches/${filtered.body.searchId as string}/results`),
    200,
  );
  keep(
    'getSearchResults',
    'similar',
    'A similar search’s best: the words of its CV that it searched by are in metadata.distinctiveTerms',
    await acme.get(`/v1/public/searches/${similar.body.searchId as string}/results?limit=1`),
    200,
  );
  keep(
    'getSearchResults',
    'match',
    'A match search’s best: each criterion met, partly met, missing or unknown, with the passages of the CV that show it',
    await acme.get(`/v1/public/searches/${match.body.searchId as string}/results?limit=1`),
    200,
  );
  keep(
    'getSearchResults',
    'tooManyWithText',
    'A limit over 20 with include=extractedText',
    await acme.get(`/v1/public/searches/${searchIds[0]}/results?limit=50&include=extractedText`),
    400,
  );

  // Groups
  keep('listSearchGroups', 'page', 'The newest groups', await acme.get('/v1/public/searches/groups?limit=5'), 200);
  keep(
    'getSearchGroup',
    'completed',
    'The searches of one group, one of each type',
    await acme.get(`/v1/public/searches/groups/${searchGroupId}`),
    200,
  );
  keep(
    'getSearchGroupResults',
    'completed',
    'Two of the group’s searches with their results, compared',
    await acme.get(`/v1/public/searches/groups/${searchGroupId}/results?limit=2`),
    200,
  );
  keep('getSearchGroup', 'notFound', 'No such group', await acme.get(`/v1/public/searches/groups/${randomUUID()}`), 404);

  // Shortlists
  const created = await acme.post('/v1/public/shortlists', { name: 'Finance, senior' });
  keep('createShortlist', 'created', 'A new empty shortlist', created, 201);
  keep(
    'createShortlist',
    'nameTaken',
    'A name the company already uses',
    await acme.post('/v1/public/shortlists', { name: 'Finance, senior' }),
    409,
  );
  const shortlist = `/v1/public/shortlists/${created.body.shortlistId}`;
  keep(
    'addShortlistItem',
    'added',
    'A CV put on the list with a note',
    await acme.post(`${shortlist}/items`, { documentId: uploaded[0], note: 'Strong on month-end close; call on Monday' }),
    201,
  );
  keep(
    'addShortlistItem',
    'noteReplaced',
    'The same CV again: its note replaced',
    await acme.post(`${shortlist}/items`, { documentId: uploaded[0], note: 'Called: interview on Thursday' }),
    200,
  );
  keep(
    'addShortlistItem',
    'noSuchCv',
    'A document the company does not have',
    await acme.post(`${shortlist}/items`, { documentId: randomUUID() }),
    404,
  );
  await acme.post(`${shortlist}/items`, { documentId: uploaded[1] });
  keep('getShortlist', 'withCvs', 'A shortlist with its CVs and notes', await acme.get(shortlist), 200);
  keep('listShortlists', 'page', 'The newest shortlists', await acme.get('/v1/public/shortlists?limit=5'), 200);
  keep('removeShortlistItem', 'notOnList', 'A CV that is not on the list', await acme.delete(`${shortlist}/items/${uploaded[2]}`), 404);
  keep('deleteShortlist', 'notFound', 'No such shortlist', await acme.delete(`/v1/public/shortlists/${randomUUID()}`), 404);

  // Saved searches
  const savedSearch = `/v1/public/saved-searches/${saved.body.savedSearchId as string}`;
  let found = await acme.get(`${savedSearch}/new`);
  for (let waited = 0; (found.body.data as unknown[]).length === 0 && waited < 60_000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    found = await acme.get(`${savedSearch}/new`);
  }
  keep('listSavedSearchNewMatches', 'found', 'The CVs read since it was saved that entered its first page', found, 200);
  keep('listSavedSearchNewMatches', 'badSince', 'since not a date and time', await acme.get(`${savedSearch}/new?since=monday`), 400);
  keep('getSavedSearch', 'withMatches', 'A saved search with new matches', await acme.get(savedSearch), 200);
  keep('listSavedSearches', 'page', 'The newest saved searches', await acme.get('/v1/public/saved-searches?limit=5'), 200);
  keep(
    'createSavedSearch',
    'nameTaken',
    'A name the company already gave a saved search',
    await acme.post('/v1/public/saved-searches', { name: 'Accountants, 5+ years', searchType: 'dense', query: 'accountant' }),
    409,
  );
  keep(
    'createSavedSearch',
    'badQuery',
    'A keyword query that does not parse',
    await acme.post('/v1/public/saved-searches', { name: 'Broken', searchType: 'sparse', query: 'accountant OR' }),
    400,
  );
  keep('deleteSavedSearch', 'notFound', 'No such saved search', await acme.delete(`/v1/public/saved-searches/${randomUUID()}`), 404);

  keep('deleteDocument', 'deleted', 'A CV and its index entries deleted', await acme.delete(`/v1/public/documents/${uploaded[2]}`), 200);

  // A company with no CVs and one search a minute: its search fails, its results are a 409, a second search a 429.
  const empty = await company(service, 'Empty Co', { search: 1 });
  const failed = await empty.post('/v1/public/searches/sparse', { query: 'chef' });
  const failedStatus = await empty.waitForSearch(failed.body.searchId as string);
  keep('getSearch', 'failed', 'A search that failed: no CVs to search', { ...failed, status: 200, body: failedStatus }, 200);
  keep(
    'getSearchResults',
    'failed',
    'The results of a failed search',
    await empty.get(`/v1/public/searches/${failed.body.searchId}/results`),
    409,
  );
  keep(
    'createDenseSearch',
    'rateLimited',
    'The search limit is spent',
    await empty.post('/v1/public/searches/dense', { query: 'chef' }),
    429,
  );
}

/** Serves the files upload-from-url fetches; on loopback, which the service is told to allow. */
async function fileServer(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/developer-cv.txt') res.writeHead(200, { 'content-type': TEXT }).end(`${TEXT_CVS.developer}\nFetched from a URL.`);
    else if (req.url === '/profile.html')
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html><body>profile</body></html>');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function main(): Promise<void> {
  const files = await fileServer();
  const service = await StandaloneService.start({
    PUBLIC_BASE_URL,
    UPLOAD_FROM_URL_ALLOW_PRIVATE_NETWORKS: 'true',
    // Saved searches run again soon after the tour's CVs are read.
    SAVED_SEARCHES_POLL_MS: '200',
  });
  try {
    await tour(service, files.url);
  } finally {
    await service.destroy();
    files.server.close();
  }
  const sorted = Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(TARGET, `${JSON.stringify(sorted, null, 2)}\n`);
  spawnSync(path.join(ROOT, 'node_modules/.bin/prettier'), ['--write', TARGET], { stdio: 'inherit' });
  const count = Object.values(examples).reduce(
    (n, byStatus) => n + Object.values(byStatus).reduce((m, named) => m + Object.keys(named).length, 0),
    0,
  );
  process.stdout.write(`wrote ${count} examples of ${Object.keys(examples).length} operations to ${path.relative(ROOT, TARGET)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
