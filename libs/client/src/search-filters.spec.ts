import { CandidateSearch } from './client';
import { searchFilters } from './search-filters';
import { fakeFetch, type Route } from './testing/fake-fetch';
import type { SearchFilters } from './types';

const SID = '5b0f0000-0000-4000-8000-000000000001';
const GID = '9c1e0000-0000-4000-8000-000000000002';
const DOC_A = '6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11';
const DOC_B = '7a2d3d7f-1e2c-4d68-8b9f-3a2f8d2c9b22';

/** What goes over the wire: JSON drops undefined members, which toStrictEqual would otherwise see. */
const wire = (filters: SearchFilters) => JSON.parse(JSON.stringify(filters)) as unknown;

describe('searchFilters()', () => {
  it('builds every kind of condition into the body the API documents', () => {
    const filters = searchFilters()
      .allSkills('java', 'k8s')
      .anySkill('aws', 'gcp')
      .noSkill('php')
      .minYears(5)
      .maxYears(15)
      .seniority('senior', 'lead')
      .domain('Software engineering')
      .near('Austin, TX', 50)
      .minDegree('bachelor')
      .allLanguages('spanish')
      .documentDate({ from: '01-2024', to: '12-2026' })
      .onlyDocuments([DOC_A])
      .excludeDocuments([DOC_B])
      .build();
    expect(wire(filters)).toStrictEqual({
      skills: { all: ['java', 'k8s'], any: ['aws', 'gcp'], none: ['php'] },
      experienceYears: { gte: 5, lte: 15 },
      seniority: ['senior', 'lead'],
      domain: ['Software engineering'],
      location: { near: 'Austin, TX', radiusKm: 50 },
      degree: { gte: 'bachelor' },
      languages: { all: ['spanish'] },
      documentDate: { gte: '01-2024', lte: '12-2026' },
      documentIds: [DOC_A],
      excludeDocumentIds: [DOC_B],
    });
  });

  it('is empty until a method is called', () => {
    expect(wire(searchFilters().build())).toStrictEqual({});
  });

  it('adds to a list on every call, and a call without names adds nothing (no empty list)', () => {
    const filters = searchFilters()
      .allSkills('java')
      .allSkills('k8s', 'aws')
      .allSkills()
      .anySkill()
      .noSkill()
      .seniority()
      .domain()
      .anyLanguage('french')
      .anyLanguage('german')
      .allLanguages()
      .excludeDocuments([DOC_A])
      .excludeDocuments([DOC_B])
      .build();
    expect(wire(filters)).toStrictEqual({
      skills: { all: ['java', 'k8s', 'aws'] },
      languages: { any: ['french', 'german'] },
      excludeDocumentIds: [DOC_A, DOC_B],
    });
  });

  it('sets each end of a range on its own, and a later call of the same end replaces it', () => {
    expect(wire(searchFilters().maxYears(10).build())).toStrictEqual({ experienceYears: { lte: 10 } });
    expect(wire(searchFilters().minYears(3).minYears(4).maxDegree('master').build())).toStrictEqual({
      experienceYears: { gte: 4 },
      degree: { lte: 'master' },
    });
    expect(wire(searchFilters().documentDate({ from: '03-2024' }).build())).toStrictEqual({ documentDate: { gte: '03-2024' } });
    expect(wire(searchFilters().documentDate({ from: '03-2024' }).documentDate({ to: '05-2025' }).build())).toStrictEqual({
      documentDate: { lte: '05-2025' },
    });
  });

  it('keeps one place condition, the last one given: near (50 km unless told) or locatedIn', () => {
    expect(wire(searchFilters().near('Berlin, Germany').build())).toStrictEqual({ location: { near: 'Berlin, Germany', radiusKm: 50 } });
    expect(
      wire(searchFilters().near('Berlin, Germany', 20).locatedIn({ country: 'United States', region: 'Texas' }).build()),
    ).toStrictEqual({
      location: { country: 'United States', region: 'Texas' },
    });
    expect(wire(searchFilters().locatedIn({ city: 'Austin' }).near('Austin, TX', 25).build())).toStrictEqual({
      location: { near: 'Austin, TX', radiusKm: 25 },
    });
  });

  it('sends an empty onlyDocuments list as given: a search kept to no document, not to every one', () => {
    expect(wire(searchFilters().onlyDocuments([]).build())).toStrictEqual({ documentIds: [] });
  });

  it('leaves the builder it extends as it was, so a base can be shared', () => {
    const base = searchFilters().allSkills('java').minYears(5);
    const senior = base.seniority('senior').allSkills('k8s');
    const junior = base.seniority('junior').maxYears(2);
    expect(wire(base.build())).toStrictEqual({ skills: { all: ['java'] }, experienceYears: { gte: 5 } });
    expect(wire(senior.build())).toStrictEqual({ skills: { all: ['java', 'k8s'] }, experienceYears: { gte: 5 }, seniority: ['senior'] });
    expect(wire(junior.build())).toStrictEqual({ skills: { all: ['java'] }, experienceYears: { gte: 5, lte: 2 }, seniority: ['junior'] });
  });

  it('returns a new object from build(), so changing it changes neither the builder nor a later build', () => {
    const builder = searchFilters().allSkills('java');
    const first = builder.build();
    first.skills?.all?.push('php');
    expect(wire(builder.build())).toStrictEqual({ skills: { all: ['java'] } });
  });

  it('starts from filters it is given (a search’s echoed filters) without changing them', () => {
    const echoed: SearchFilters = { skills: { all: ['java'] }, seniority: ['lead'] };
    const more = searchFilters(echoed).allSkills('k8s').seniority('senior').build();
    expect(wire(more)).toStrictEqual({ skills: { all: ['java', 'k8s'] }, seniority: ['lead', 'senior'] });
    expect(echoed).toStrictEqual({ skills: { all: ['java'] }, seniority: ['lead'] });
  });

  it('refuses a number JSON cannot carry (it would be sent as null)', () => {
    expect(() => searchFilters().minYears(Number.NaN)).toThrow(new TypeError('minYears must be a finite number, not NaN'));
    expect(() => searchFilters().maxYears(Infinity)).toThrow(/maxYears must be a finite number/);
    expect(() => searchFilters().near('Austin, TX', Number('fifty'))).toThrow(/radiusKm must be a finite number/);
  });
});

describe('the client sends filters in the search body', () => {
  const created = { searchId: SID, searchGroupId: GID, status: 'processing', searchType: 'dense', query: 'q', estimatedTime: 'x' };
  const completed = { searchId: SID, searchGroupId: GID, status: 'completed', searchType: 'hybrid', query: 'q', resultsCount: 0 };
  const filters = searchFilters().allSkills('java', 'k8s').noSkill('php').minYears(5).near('Austin, TX').build();
  const sent = {
    skills: { all: ['java', 'k8s'], none: ['php'] },
    experienceYears: { gte: 5 },
    location: { near: 'Austin, TX', radiusKm: 50 },
  };
  const client = (route: Route) => {
    const fetch = fakeFetch(route);
    return { fetch, cs: new CandidateSearch({ baseUrl: 'https://api.test', apiKey: 'csk_test', fetch }) };
  };

  it('createSearch(): the query and the filters, nothing else', async () => {
    const { cs, fetch } = client(() => ({ status: 202, body: created }));
    await cs.createSearch('dense', 'java developer', { filters });
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls[0].url.pathname).toBe('/v1/public/searches/dense');
    expect(fetch.calls[0].body).toStrictEqual({ query: 'java developer', filters: sent });
  });

  it('search(): the filters beside top_k and rerank_top_n', async () => {
    const { cs, fetch } = client((req) =>
      req.method === 'POST'
        ? { status: 200, body: completed, headers: { 'preference-applied': 'wait=30' } }
        : { status: 200, body: { searchId: SID, results: [], pagination: { limit: 100, offset: 0, total: 0, hasMore: false } } },
    );
    await cs.search('hybrid', 'java developer', { topK: 40, rerankTopN: 10, filters });
    expect(fetch.calls[0].body).toStrictEqual({ query: 'java developer', top_k: 40, rerank_top_n: 10, filters: sent });
  });

  it('group(): the same filters in every search of the group', async () => {
    const { cs, fetch } = client((req) => {
      if (req.method === 'POST')
        return { status: 202, body: { ...created, searchGroupId: (req.body as { searchGroupId: string }).searchGroupId } };
      if (req.url.pathname.endsWith('/results'))
        return { status: 200, body: { searchGroupId: GID, groupStatus: 'completed', searches: [] } };
      return { status: 200, body: { searchGroupId: GID, groupStatus: 'completed', searches: [] } };
    });
    await cs.group('java developer', { types: ['dense', 'sparse'], filters });
    const posts = fetch.calls.filter((c) => c.method === 'POST');
    expect(posts.map((p) => p.url.pathname)).toEqual(['/v1/public/searches/dense', '/v1/public/searches/sparse']);
    const searchGroupId = (posts[0].body as { searchGroupId: string }).searchGroupId;
    for (const post of posts) expect(post.body).toStrictEqual({ query: 'java developer', searchGroupId, filters: sent });
  });

  it('sends no filters member when none are given', async () => {
    const { cs, fetch } = client(() => ({ status: 202, body: created }));
    await cs.createSearch('sparse', 'java developer', { topK: 5 });
    expect(fetch.calls[0].body).toStrictEqual({ query: 'java developer', top_k: 5 });
  });
});
