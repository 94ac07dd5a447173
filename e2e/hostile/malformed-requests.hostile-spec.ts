import fc from 'fast-check';
import { TEXT_CVS } from '../support/fixtures';
import { HostileHarness } from './support/hostile-harness';
import { DOCUMENT_INVARIANT, pool } from './support/invariants';
import { malformedRequest, type FuzzContext, type Generated } from './support/malformed-requests';
import { EXTRA_ROUTES, routeLabel, routesFromOpenApi, type Route } from './support/routes';

/**
 * Seeded property-based malformed requests over every route of the served
 * OpenAPI document, the presigned PUT target, the admin API, health and unknown paths, sent 8 at
 * once. Every answer is held to the invariants of checkAnswer, and those whose outcome the
 * contract fixes (a 405, a 415, a 400 naming the parameter, ...) to that outcome too.
 *
 * The requests are drawn with fc.sample rather than run inside fc.assert: fc.assert stops at the
 * first failure and runs one request at a time, while this suite wants every distinct failure of
 * one run, at bounded concurrency. The seed makes a run repeatable:
 *   HOSTILE_RUNS=10000 HOSTILE_SEED=20 npm run test:hostile -- e2e/hostile/malformed-requests.hostile-spec.ts
 */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 10_000);
const SEED = Number(process.env.HOSTILE_SEED ?? 20);
const CONCURRENCY = Number(process.env.HOSTILE_CONCURRENCY ?? 8);
/** The suite stops sending after this long and says how many it sent. */
const BUDGET_MS = Number(process.env.HOSTILE_BUDGET_MS ?? 240_000);

jest.setTimeout(BUDGET_MS + 240_000);

describe('malformed requests (property-based)', () => {
  let h: HostileHarness;
  let sent = 0;
  let sendMs = 0;
  const byFamily = new Map<string, number>();

  beforeAll(async () => {
    h = await HostileHarness.start('malformed requests');
    const acme = await h.createCompany('acme');
    await h.raiseLimits(acme.companyId);
    const key = acme.apiKey;

    const docs = [await h.uploadText(key, TEXT_CVS.accountant, 'Accountant'), await h.uploadText(key, TEXT_CVS.developer, 'Developer')];
    const deletable = await h.uploadText(key, TEXT_CVS.chef, 'Chef');
    await h.waitForDocuments(key, [...docs, deletable]);
    const search = await h.call('POST', '/v1/public/searches/dense', { key, json: { query: 'accountant general ledger' } });
    const { searchId, searchGroupId } = search.json as { searchId: string; searchGroupId: string };
    await h.waitForSearch(key, searchId);
    const finalizeTarget = await h.call('POST', '/v1/public/documents/upload-presigned', {
      key,
      json: { fileName: 'a.txt', contentType: 'text/plain', fileSize: 120 },
    });
    const putTarget = await h.call('POST', '/v1/public/documents/upload-presigned', {
      key,
      json: { fileName: 'b.txt', contentType: 'text/plain', fileSize: 120 },
    });
    const presignedUrl = new URL((putTarget.json as { presignedUrl: string }).presignedUrl);
    const shortlist = await h.call('POST', '/v1/public/shortlists', { key, json: { name: 'Shortlist under fuzzing' } });
    const deletableShortlist = await h.call('POST', '/v1/public/shortlists', { key, json: { name: 'Shortlist to delete' } });
    await h.call('POST', `/v1/public/shortlists/${(shortlist.json as { shortlistId: string }).shortlistId}/items`, {
      key,
      json: { documentId: docs[1] },
    });
    const savedSearch = await h.call('POST', '/v1/public/saved-searches', {
      key,
      json: { name: 'Saved search under fuzzing', searchType: 'sparse', query: 'accountant' },
    });
    const deletableSavedSearch = await h.call('POST', '/v1/public/saved-searches', {
      key,
      json: { name: 'Saved search to delete', searchType: 'dense', query: 'chef' },
    });

    const openapi = await h.call('GET', '/openapi.json', {});
    expect(openapi.status).toBe(200);
    const routes: Route[] = routesFromOpenApi(openapi.json as Parameters<typeof routesFromOpenApi>[0]);
    for (const extra of EXTRA_ROUTES)
      if (!routes.some((r) => r.method === extra.method && r.template === extra.template)) routes.push(extra);
    h.ledger.options.routeOf = (method, path) => routeLabel(routes, method, path);

    const ctx: FuzzContext = {
      routes,
      key,
      adminToken: h.service.adminToken,
      ids: {
        documentId: docs[0],
        deletableDocumentId: deletable,
        searchId,
        searchGroupId,
        uploadId: (finalizeTarget.json as { uploadId: string }).uploadId,
        shortlistId: (shortlist.json as { shortlistId: string }).shortlistId,
        deletableShortlistId: (deletableShortlist.json as { shortlistId: string }).shortlistId,
        savedSearchId: (savedSearch.json as { savedSearchId: string }).savedSearchId,
        deletableSavedSearchId: (deletableSavedSearch.json as { savedSearchId: string }).savedSearchId,
      },
      presigned: {
        uploadId: presignedUrl.pathname.split('/').pop()!,
        expires: presignedUrl.searchParams.get('expires')!,
        signature: presignedUrl.searchParams.get('signature')!,
        contentType: 'text/plain',
      },
    };
    const samples: Generated[] = fc.sample(malformedRequest(ctx), { numRuns: RUNS, seed: SEED });
    process.stdout.write(
      `\nmalformed requests: ${routes.length} routes (${routes.map((r) => `${r.method} ${r.template}`).join(', ')}); ${samples.length} requests drawn, seed ${SEED}\n`,
    );

    const started = Date.now();
    sent = await pool(
      samples,
      CONCURRENCY,
      async ({ request, expect: expectation }) => {
        byFamily.set(request.family.split(':')[0], (byFamily.get(request.family.split(':')[0]) ?? 0) + 1);
        await h.request(request, expectation);
      },
      started + BUDGET_MS,
    );
    sendMs = Date.now() - started;
    // The service is still there and still answers.
    await h.call('GET', '/healthz', { expect: { statuses: [200], why: '/healthz answers 200 after the run' } });
  });

  afterAll(async () => {
    if (h) {
      h.report({
        'requests drawn': RUNS,
        'requests sent in the property run': `${sent} in ${(sendMs / 1000).toFixed(1)} s, ${CONCURRENCY} at once, seed ${SEED}`,
        'by family': [...byFamily.entries()].map(([f, n]) => `${f}:${n}`).join(' '),
      });
      await h.destroy();
    }
  });

  const keys = (which: (invariant: string) => boolean) => h.ledger.groupKeys(which);

  it('sends every drawn request within the time budget', () => {
    expect(sent).toBe(RUNS);
  });

  it('keeps the service alive', () => {
    expect(h.alive()).toBe(true);
  });

  it('answers every request, and never with a 5xx', () => {
    expect(keys((i) => i === 'never a 5xx' || i === 'an answer to every request')).toEqual([]);
  });

  it('answers every 4xx with {error, message}, the code matching the status', () => {
    expect(keys((i) => /^(a 4xx|error code)/.test(i))).toEqual([]);
  });

  it('puts RateLimit-* on every /v1/public answer and Allow on every 405', () => {
    expect(keys((i) => i.startsWith('/v1/public answers') || i === 'a 405 carries Allow')).toEqual([]);
  });

  it('gives the status the contract fixes for each kind of malformed request', () => {
    expect(keys((i) => i.startsWith('expected:'))).toEqual([]);
  });

  it('answers as the served OpenAPI document describes (status, headers and body)', () => {
    expect(keys((i) => i === DOCUMENT_INVARIANT)).toEqual([]);
  });
});
