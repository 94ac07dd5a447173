import { HostileHarness } from './support/hostile-harness';
import { mb, readRss } from './support/rss-sampler';

/**
 * Hostile search filters: huge lists, deep nesting, unknown keys, long names, non-numbers and
 * prototype keys are a 400 naming the field, answered in bounded time, without the process's
 * memory growing with them.
 */
jest.setTimeout(300_000);

/** Longest a hostile filter may take to be refused: it is read before any search runs. */
const MAX_MS = 2000;
const MAX_GROWTH = 64 * 1024 * 1024;

/** JSON bodies are limited to 64 KB (a 413 before parsing): the long lists here are kept under it, so the filter's own bounds answer. */
const names = (count: number) => Array.from({ length: count }, (_, i) => String(i % 1000));
/** A search body whose skills nest `depth` objects deep, written as text (too deep for JSON.stringify's recursion). */
const nested = (depth: number) =>
  Buffer.from(`{"query":"engineer","filters":{"skills":${'{"all":['.repeat(depth)}"java"${']}'.repeat(depth)}}}`);

const CASES: { name: string; filters: unknown; field: string }[] = [
  { name: '10,000 skills', filters: { skills: { all: names(10_000) } }, field: 'filters.skills.all' },
  { name: 'an unknown key', filters: { salary: { gte: 100_000 } }, field: 'salary' },
  { name: 'an unknown key inside a known one', filters: { skills: { every: ['java'] } }, field: 'every' },
  { name: 'a 10 KB skill name', filters: { skills: { any: ['java', 'A'.repeat(10 * 1024)] } }, field: 'filters.skills.any' },
  {
    name: 'a skill outside the vocabulary of punctuation and stop words only',
    filters: { skills: { all: ['?!', 'to be or not'] } },
    field: 'filters.skills.all',
  },
  {
    name: '50 skills outside the vocabulary, each to be matched as text',
    filters: { skills: { none: Array.from({ length: 50 }, (_, i) => `zzqx blorp ${i}`) } },
    field: 'filters.skills',
  },
  { name: 'a 10 KB place name', filters: { location: { near: 'A'.repeat(10 * 1024), radiusKm: 10 } }, field: 'filters.location' },
  {
    name: 'a place the gazetteer does not know',
    filters: { location: { near: 'Qwxzville, Nowhere', radiusKm: 10 } },
    field: 'filters.location.near',
  },
  { name: 'a radius of a million km', filters: { location: { near: 'Austin, TX', radiusKm: 1e6 } }, field: 'filters.location' },
  { name: 'years as a string', filters: { experienceYears: { gte: 'NaN' } }, field: 'filters.experienceYears' },
  { name: 'years below zero', filters: { experienceYears: { gte: -1 } }, field: 'filters.experienceYears' },
  { name: 'a range upside down', filters: { experienceYears: { gte: 10, lte: 2 } }, field: 'filters.experienceYears' },
  { name: '__proto__ as a key', filters: JSON.parse('{"__proto__": {"isAdmin": true}}') as unknown, field: '__proto__' },
  { name: 'constructor as a key', filters: { constructor: { prototype: {} } }, field: 'constructor' },
  { name: 'a seniority the profile never reads', filters: { seniority: ['overlord'] }, field: 'filters.seniority' },
  { name: 'a degree the profile never reads', filters: { degree: { gte: 'wizard' } }, field: 'filters.degree' },
  { name: 'a date that is no month', filters: { documentDate: { gte: '13-2024' } }, field: 'filters.documentDate' },
  {
    name: '1,500 document ids',
    filters: { documentIds: Array.from({ length: 1500 }, () => '6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11') },
    field: 'filters.documentIds',
  },
  { name: 'an id that is no UUID', filters: { excludeDocumentIds: ['../../etc/passwd'] }, field: 'filters.excludeDocumentIds' },
  { name: 'filters as an array', filters: [{ skills: { all: ['java'] } }], field: 'filters' },
  { name: 'an empty skills object', filters: { skills: {} }, field: 'filters.skills' },
  { name: 'a NUL in a name', filters: { domain: ['Soft\u0000ware'] }, field: 'filters.domain' },
];

describe('hostile search filters', () => {
  let h: HostileHarness;
  let key = '';
  const figures: Record<string, string> = {};

  beforeAll(async () => {
    h = await HostileHarness.start('filters');
    const company = await h.createCompany('filters');
    await h.raiseLimits(company.companyId);
    key = company.apiKey;
  });

  afterAll(async () => {
    if (h) {
      h.report(figures);
      await h.destroy();
    }
  });

  it.each(CASES)('refuses $name with a 400 naming the field, in bounded time', async ({ filters, field }) => {
    for (const type of ['dense', 'sparse', 'hybrid', 'builtin-rerank', 'similar', 'match']) {
      const started = performance.now();
      // A similar search's document is looked up after its filters are read: none is needed for a 400.
      const subject =
        type === 'similar'
          ? { documentId: '6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11' }
          : type === 'match'
            ? { jobDescription: 'Staff Accountant\n- general ledger' }
            : { query: 'engineer' };
      const answer = await h.call('POST', `/v1/public/searches/${type}`, {
        key,
        json: { ...subject, filters },
        family: 'hostile filter',
        expect: { statuses: [400], why: 'a filter the contract refuses', messageIncludes: field },
      });
      const ms = performance.now() - started;
      expect(answer.status).toBe(400);
      expect(ms).toBeLessThan(MAX_MS);
    }
  });

  it('refuses skills nested 100 and 5,000 deep with a 400, in bounded time', async () => {
    for (const depth of [100, 5000]) {
      const started = performance.now();
      const answer = await h.call('POST', '/v1/public/searches/dense', {
        key,
        body: nested(depth),
        family: 'hostile filter',
        expect: {
          statuses: [400, 413],
          why: 'a filter nested too deep, or a body over the limit',
          messageIncludes: depth === 100 ? 'filters.skills' : undefined,
        },
      });
      expect(answer.status).toBe(400);
      expect(performance.now() - started).toBeLessThan(MAX_MS);
    }
  });

  it('keeps its memory while refusing 200 filters of 10,000 skills each', async () => {
    const before = readRss(h.pid) ?? 0;
    const huge = { query: 'engineer', filters: { skills: { all: names(10_000) } } };
    for (let i = 0; i < 200; i++) {
      const answer = await h.call('POST', '/v1/public/searches/dense', {
        key,
        json: huge,
        family: 'hostile filter',
        expect: { statuses: [400], why: 'too many skills' },
      });
      expect(answer.status).toBe(400);
    }
    const growth = (readRss(h.pid) ?? 0) - before;
    figures['10,000-skill filters'] = `200 refused; RSS grew ${mb(growth)}`;
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it.each([
    { name: 'a field no facet counts', facets: ['salary'] },
    { name: 'a field named twice', facets: ['skills', 'skills'] },
    { name: '5,000 fields', facets: Array.from({ length: 5000 }, () => 'skills') },
    { name: 'a string', facets: 'skills' },
    { name: 'an object', facets: { skills: true } },
    { name: '__proto__', facets: ['__proto__'] },
  ])('refuses facets as $name with a 400 naming facets, in bounded time', async ({ facets }) => {
    for (const [type, subject] of [
      ['hybrid', { query: 'engineer' }],
      ['similar', { documentId: '6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11' }],
      ['match', { jobDescription: 'Staff Accountant\n- general ledger' }],
    ] as const) {
      const started = performance.now();
      const answer = await h.call('POST', `/v1/public/searches/${type}`, {
        key,
        json: { ...subject, facets },
        family: 'hostile facets',
        expect: { statuses: [400], why: 'facets the contract refuses', messageIncludes: 'facets' },
      });
      expect(answer.status).toBe(400);
      expect(performance.now() - started).toBeLessThan(MAX_MS);
    }
  });

  it('kept every answer to the invariants (no 5xx, error bodies, RateLimit-*, the OpenAPI document)', () => {
    expect(h.ledger.groupKeys()).toEqual([]);
    expect(h.alive()).toBe(true);
  });
});
