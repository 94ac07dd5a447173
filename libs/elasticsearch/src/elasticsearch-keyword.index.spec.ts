import { DOMAIN_NAMES } from '@cs/cv-understanding';
import { CONDITION_CASES, CONDITION_CVS, FILTER_CASES, FILTER_CVS, FILTER_EDGE_CASES, PHRASE_HOLDERS } from '@cs/ports/testing';
import {
  FACET_FIELDS,
  NO_ATTRIBUTES,
  TOP_SKILLS,
  countFacets,
  countRequirements,
  passesFilter,
  skillKey,
  type FacetField,
  type SearchAttributes,
  type SearchFilter,
} from '@cs/search-filters';
import { SKILLS, SKILL_SYNONYMS, parseKeywordQuery, parseQuery } from '@cs/text-analysis';
import { Country, State } from 'country-state-city';
import {
  ElasticsearchKeywordIndex,
  FACET_TERMS_SIZES,
  INDEX_SETTINGS,
  type ElasticsearchApi,
  type TermVectorsDoc,
} from './elasticsearch-keyword.index';
import { elasticsearchAggregations, mergePartialUpdate, passesElasticsearchFilter } from './testing/filter-interpreter';

function recordingApi(hits: Record<string, unknown>[] = [], termVectors: TermVectorsDoc[] = []) {
  const calls: [string, Record<string, unknown>][] = [];
  const api: ElasticsearchApi = {
    indices: {
      exists: async () => false,
      create: async (p) => void calls.push(['create', p]),
      putMapping: async (p) => void calls.push(['putMapping', p]),
    },
    index: async (p) => void calls.push(['index', p]),
    update: async (p) => void calls.push(['update', p]),
    delete: async (p) => void calls.push(['delete', p]),
    search: async (p) => (calls.push(['search', p]), { hits: { max_score: 4, hits } }),
    count: async (p) => (calls.push(['count', p]), { count: 1 }),
    mtermvectors: async (p) => (calls.push(['mtermvectors', p]), { docs: termVectors }),
  };
  return { api, calls };
}

describe('ElasticsearchKeywordIndex requests', () => {
  it('creates the index with BM25 k1 1.5, b 0.75, a word-pair field and a headline field', async () => {
    const { api, calls } = recordingApi();
    await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    expect(calls[0]).toEqual(['create', { index: 'cs-cvs', ...INDEX_SETTINGS }]);
    expect(INDEX_SETTINGS.settings.index.similarity.default).toEqual({ type: 'BM25', k1: 1.5, b: 0.75 });
  });

  it('filters every search and count on the company and names each query part', async () => {
    const { api, calls } = recordingApi([
      { _id: 'acme:d1', _score: 2, _source: { document_id: 'd1' }, matched_queries: ['part-0', 'pairs-0'] },
    ]);
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    const hits = await index.search('acme', parseQuery('"general ledger", QuickBooks'), 7);
    expect(hits).toEqual([{ documentId: 'd1', score: 2, maxScore: 4, matchedTerms: ['general ledger'] }]);
    await index.count('acme');
    // The first pass reads at least the 15 CVs that feedback learns from.
    const search = calls[0][1] as { size: number; query: { bool: { filter: unknown[]; should: unknown[] } } };
    expect(search.size).toBe(15);
    expect(search.query.bool.filter).toEqual([{ term: { company_id: 'acme' } }]);
    expect(search.query.bool.should).toEqual([
      { match: { text: { query: 'general ledger', operator: 'and', _name: 'part-0' } } },
      { match: { 'text.pairs': { query: 'general ledger', _name: 'pairs-0' } } },
      { match: { text: { query: 'QuickBooks', _name: 'part-1' } } },
      { match: { headline: { query: 'general ledger' } } },
      { match: { headline: { query: 'QuickBooks' } } },
    ]);
    expect(calls.at(-1)).toEqual(['count', { index: 'cs-cvs', query: { term: { company_id: 'acme' } } }]);
  });

  it('searches again with the words of the best CVs (RM3), still requiring a query part', async () => {
    const termVectors: TermVectorsDoc[] = [
      {
        _id: 'acme:d1',
        term_vectors: {
          text: {
            field_statistics: { doc_count: 100 },
            terms: {
              general: { term_freq: 1, doc_freq: 40 },
              ledger: { term_freq: 2, doc_freq: 10 },
              reconcil: { term_freq: 4, doc_freq: 5 },
              manag: { term_freq: 1, doc_freq: 100 },
            },
          },
        },
      },
    ];
    const { api, calls } = recordingApi(
      [{ _id: 'acme:d1', _score: 3, _source: { document_id: 'd1' }, matched_queries: ['part-0'] }],
      termVectors,
    );
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    await index.search('acme', parseQuery('general ledger'), 5);
    expect(calls.map(([name]) => name)).toEqual(['search', 'mtermvectors', 'search']);
    expect(calls[1][1]).toMatchObject({ index: 'cs-cvs', ids: ['acme:d1'], fields: ['text'], term_statistics: true });
    const second = calls[2][1] as {
      size: number;
      query: {
        bool: {
          filter: unknown[];
          must: { bool: { should: unknown[]; boost: number } }[];
          should: { term: { text: { value: string; boost: number } } }[];
        };
      };
    };
    expect(second.size).toBe(5);
    expect(second.query.bool.filter).toEqual([{ term: { company_id: 'acme' } }]);
    // The query's own clauses must match, with RM3's share for the query spread over its 2 words.
    expect(second.query.bool.must[0].bool.should).toEqual((calls[0][1] as { query: { bool: { should: unknown[] } } }).query.bool.should);
    expect(second.query.bool.must[0].bool.boost).toBeCloseTo(0.3);
    // The rare, repeated word leads the feedback; a word in every CV brings next to nothing.
    const feedback = second.query.bool.should.map((c) => c.term.text);
    expect(feedback.map((f) => f.value)).toEqual(['reconcil', 'ledger', 'general', 'manag']);
    expect(feedback[3].boost).toBeLessThan(feedback[0].boost / 100);
    expect(feedback.reduce((sum, f) => sum + f.boost, 0)).toBeCloseTo(0.4);
  });

  it('skips feedback when the first pass finds nothing', async () => {
    const { api, calls } = recordingApi([]);
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    expect(await index.search('acme', parseQuery('cobol'), 5)).toEqual([]);
    expect(calls.map(([name]) => name)).toEqual(['search']);
  });

  it('keys documents by company and document, and says 0 for a delete of nothing', async () => {
    const { api, calls } = recordingApi();
    api.delete = async () => {
      throw Object.assign(new Error('not found'), { meta: { statusCode: 404 } });
    };
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    await index.upsert('acme', 'd1', 'text');
    expect(calls.at(-1)).toEqual([
      'index',
      {
        index: 'cs-cvs',
        id: 'acme:d1',
        document: { company_id: 'acme', document_id: 'd1', text: 'text', headline: 'text' },
        refresh: 'wait_for',
      },
    ]);
    expect(await index.delete('acme', 'd9')).toBe(0);
  });
});

describe('ElasticsearchKeywordIndex distinctive terms', () => {
  it('reads them from the CV’s term vectors with the index’s document frequencies', async () => {
    const terms = {
      kubernet: { term_freq: 2, doc_freq: 3 },
      engin: { term_freq: 1, doc_freq: 40 },
      ivan: { term_freq: 1, doc_freq: 1 },
      '2019': { term_freq: 2, doc_freq: 9 },
    };
    const { api, calls } = recordingApi([], [{ _id: 'acme:d1', term_vectors: { text: { field_statistics: { doc_count: 50 }, terms } } }]);
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    expect(await index.distinctiveTerms('acme', 'd1', 25)).toEqual(['kubernet', 'engin']);
    expect(calls.at(-1)).toEqual(['mtermvectors', expect.objectContaining({ index: 'cs-cvs', ids: ['acme:d1'], term_statistics: true })]);
  });

  it('reads none for a CV the index lacks', async () => {
    const { api } = recordingApi([], [{ _id: 'acme:d9' }]);
    expect(await (await ElasticsearchKeywordIndex.open(api, 'cs-cvs')).distinctiveTerms('acme', 'd9', 25)).toEqual([]);
  });
});

const cv = (id: string) => FILTER_CVS.find((c) => c.id === id)!;
type BoolQuery = { bool: { filter: Record<string, unknown>[]; must_not?: Record<string, unknown>[] } };

describe('ElasticsearchKeywordIndex attributes', () => {
  const filterFields = {
    skills: { type: 'keyword' },
    experience_years: { type: 'float' },
    seniority: { type: 'keyword' },
    domain: { type: 'keyword' },
    degree: { type: 'integer' },
    languages: { type: 'keyword' },
    location: { type: 'geo_point' },
    city: { type: 'keyword' },
    region_code: { type: 'keyword' },
    country_code: { type: 'keyword' },
    document_date: { type: 'integer' },
  };

  it('maps the fields filters read in a new index', () => {
    expect(INDEX_SETTINGS.mappings.properties).toMatchObject(filterFields);
  });

  it('adds them to the mapping of an index created before them', async () => {
    const { api, calls } = recordingApi();
    api.indices.exists = async () => true;
    await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    expect(calls).toEqual([['putMapping', { index: 'cs-cvs', properties: filterFields }]]);
  });

  it('indexes a CV’s attributes as fields of its document, and none for a CV given without', async () => {
    const { api, calls } = recordingApi();
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    await index.upsert('acme', 'd1', 'Engineer', cv('java-senior-austin').attributes);
    expect((calls.at(-1)![1] as { document: unknown }).document).toEqual({
      company_id: 'acme',
      document_id: 'd1',
      text: 'Engineer',
      headline: 'Engineer',
      skills: ['java', 'kubernetes', 'aws'],
      experience_years: 9,
      seniority: 'senior',
      domain: 'software engineering',
      degree: 3,
      languages: ['english', 'spanish'],
      location: { lat: 30.26715, lon: -97.74306 },
      city: 'austin',
      region_code: 'TX',
      country_code: 'US',
      document_date: 2025 * 12 + 2,
    });
    await index.upsert('acme', 'd2', 'Engineer');
    expect(Object.keys((calls.at(-1)![1] as { document: object }).document)).toEqual(['company_id', 'document_id', 'text', 'headline']);
  });

  it('replaces attributes by a partial update of the document, null where the profile says nothing', async () => {
    const { api, calls } = recordingApi();
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    expect(await index.setAttributes('acme', 'd1', cv('junior-no-place').attributes!)).toBe(true);
    expect(calls).toEqual([
      [
        'update',
        {
          index: 'cs-cvs',
          id: 'acme:d1',
          doc: {
            skills: ['java'],
            experience_years: 1,
            seniority: 'junior',
            domain: null,
            degree: 1,
            languages: [],
            location: null,
            city: null,
            region_code: null,
            country_code: null,
            document_date: 2024 * 12 + 8,
          },
          retry_on_conflict: 3,
          refresh: false,
        },
      ],
    ]);
  });

  it('says false for a CV the company lacks (the update answers 404)', async () => {
    const { api } = recordingApi();
    api.update = async () => {
      throw Object.assign(new Error('document_missing_exception'), { meta: { statusCode: 404 } });
    };
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    expect(await index.setAttributes('acme', 'missing', cv('junior-no-place').attributes!)).toBe(false);
  });
});

describe('ElasticsearchKeywordIndex filters in the search request', () => {
  const firstPass = async (filter: SearchFilter | null) => {
    const { api, calls } = recordingApi();
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    await index.search('acme', parseQuery('engineer'), 5, filter);
    return { query: (calls.find(([name]) => name === 'search')?.[1] as { query: BoolQuery } | undefined)?.query.bool, calls };
  };
  const named = (name: string) => FILTER_CASES.find((c) => c.name === name)!.filter;
  const company = { term: { company_id: 'acme' } };

  it('adds nothing for no filter or an empty one', async () => {
    for (const filter of [null, {}]) {
      const { query } = await firstPass(filter);
      expect(query?.filter).toEqual([company]);
      expect(query?.must_not).toBeUndefined();
    }
  });

  it('keeps out listed skills with must_not, which a document without the field passes', async () => {
    const { query } = await firstPass(named('skills none excludes, and keeps CVs that name nothing'));
    expect(query).toMatchObject({ filter: [company], must_not: [{ terms: { skills: ['php', 'python'] } }] });
  });

  it('puts every condition in the filter context, the radius in kilometres', async () => {
    const { query } = await firstPass(named('every condition at once'));
    expect(query?.filter).toEqual([
      company,
      { term: { skills: 'java' } },
      { terms: { seniority: ['senior', 'lead'] } },
      { range: { experience_years: { gte: 5 } } },
      { geo_distance: { distance: '50km', location: { lat: 30.26715, lon: -97.74306 } } },
    ]);
    expect(query?.must_not).toEqual([{ terms: { skills: ['php'] } }]);
  });

  it('matches a place by its codes and its city, and documents by id', async () => {
    expect((await firstPass(named('region and city'))).query?.filter).toEqual([
      company,
      { term: { country_code: 'US' } },
      { term: { region_code: 'TX' } },
      { term: { city: 'round rock' } },
    ]);
    expect((await firstPass(named('document ids and exclusions'))).query).toMatchObject({
      filter: [company, { terms: { document_id: ['java-senior-austin', 'no-attributes', 'python-lead-berlin'] } }],
      must_not: [{ terms: { document_id: ['python-lead-berlin'] } }],
    });
  });

  it('asks a value of a range open at both ends', async () => {
    expect((await firstPass({ degree: {} })).query?.filter).toEqual([company, { exists: { field: 'degree' } }]);
  });

  it('sends nothing when an empty list of allowed values leaves no CV to pass', async () => {
    for (const filter of [{ documentIds: [] }, { seniority: [] }, { domain: [] }]) expect((await firstPass(filter)).calls).toEqual([]);
  });

  it('matches skills as text by the ids of the CVs holding them, `any` of them beside `any` of the skills', async () => {
    expect((await firstPass(named('skills any: a skill of the profile or a phrase of the text'))).query?.filter).toEqual([
      company,
      {
        bool: {
          should: [{ terms: { skills: ['aws'] } }, { terms: { document_id: ['no-attributes', 'python-lead-berlin'] } }],
          minimum_should_match: 1,
        },
      },
    ]);
    expect((await firstPass(named('skills none: a phrase of the text excludes, a skill of the profile too'))).query?.must_not).toEqual([
      { terms: { skills: ['python'] } },
      { terms: { document_id: ['java-php-roundrock', 'no-attributes'] } },
    ]);
    expect((await firstPass(named('a skill matched as text'))).query?.filter).toEqual([
      company,
      { terms: { document_id: ['java-php-roundrock'] } },
    ]);
  });

  it('sends nothing when no CV holds a phrase `all` or `any` needs, and `any` names no skill', async () => {
    for (const name of ['a phrase no CV holds passes nothing in all', 'a phrase no CV holds passes nothing in any'])
      expect((await firstPass(FILTER_EDGE_CASES.find((c) => c.name === name)!.filter)).calls).toEqual([]);
  });

  it('filters both passes alike, so feedback learns only from CVs that pass', async () => {
    const termVectors: TermVectorsDoc[] = [
      {
        _id: 'acme:d1',
        term_vectors: {
          text: {
            field_statistics: { doc_count: 10 },
            terms: { engin: { term_freq: 1, doc_freq: 5 }, java: { term_freq: 2, doc_freq: 2 } },
          },
        },
      },
    ];
    const { api, calls } = recordingApi(
      [{ _id: 'acme:d1', _score: 3, _source: { document_id: 'd1' }, matched_queries: ['part-0'] }],
      termVectors,
    );
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    await index.search('acme', parseQuery('engineer'), 5, named('every condition at once'));
    expect(calls.map(([name]) => name)).toEqual(['search', 'mtermvectors', 'search']);
    const [first, second] = [calls[0][1], calls[2][1]].map((p) => (p as { query: BoolQuery }).query.bool);
    expect(second.filter).toEqual(first.filter);
    expect(second.must_not).toEqual(first.must_not);
    expect(first.filter).toHaveLength(5);
  });
});

describe('the filter sent passes exactly the documents of the CVs passesFilter passes', () => {
  // Every CV in two companies: only the searched company's documents may pass.
  async function indexed() {
    const { api, calls } = recordingApi();
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    for (const company of ['f1', 'f2']) for (const c of FILTER_CVS) await index.upsert(company, c.id, c.text, c.attributes);
    const sources = new Map(
      calls.flatMap(([name, p]) => (name === 'index' ? [[p.id as string, p.document as Record<string, unknown>]] : [])),
    );
    calls.length = 0;
    return { index, calls, sources };
  }
  /** The first pass's filter context (its scoring clauses select nothing: every CV holds "engineer"). */
  const filterOf = (calls: [string, Record<string, unknown>][]) => {
    const bool = (calls.find(([name]) => name === 'search')?.[1] as { query: BoolQuery } | undefined)?.query.bool;
    return bool && { bool: { filter: bool.filter, ...(bool.must_not ? { must_not: bool.must_not } : {}) } };
  };
  const passing = (cases: { filter: SearchFilter }[]) =>
    cases.map((c) => ({ ...c, passing: FILTER_CVS.filter((v) => passesFilter(v.id, v.attributes ?? null, c.filter)).map((v) => v.id) }));

  it.each(passing([...FILTER_CASES, ...FILTER_EDGE_CASES]))('$name', async ({ filter, passing: expected }) => {
    const { index, calls, sources } = await indexed();
    await index.search('f1', parseQuery('engineer'), 100, filter);
    const sent = filterOf(calls);
    const matched = sent ? [...sources.values()].filter((source) => passesElasticsearchFilter(sent, source)) : [];
    expect(matched.every((source) => source.company_id === 'f1')).toBe(true);
    expect(matched.map((source) => source.document_id).sort()).toEqual([...expected].sort());
  });

  it.each(Object.entries(PHRASE_HOLDERS))('finds the CVs whose text holds "%s" as the shared cases give them', async (phrase, holders) => {
    const { index, calls, sources } = await indexed();
    await index.documentsWithPhrase('f1', phrase, 100);
    const sent = calls.find(([name]) => name === 'search')![1];
    expect(sent).toMatchObject({ size: 100, _source: ['document_id'] });
    const matched = [...sources.values()].filter((source) => passesElasticsearchFilter(sent.query as Record<string, unknown>, source));
    expect(matched.map((source) => source.document_id).sort()).toEqual([...holders].sort());
  });

  it('passes the replaced attributes after the partial update, the fields the new profile lacks cleared', async () => {
    const { index, calls, sources } = await indexed();
    const moved: SearchAttributes = { ...cv('java-senior-austin').attributes!, location: null, seniority: 'intern' };
    expect(await index.setAttributes('f1', 'java-senior-austin', moved)).toBe(true);
    const update = calls.find(([name]) => name === 'update')![1] as { id: string; doc: Record<string, unknown> };
    sources.set(update.id, mergePartialUpdate(sources.get(update.id)!, update.doc));
    const found = async (filter: SearchFilter) => {
      calls.length = 0;
      await index.search('f1', parseQuery('engineer'), 100, filter);
      const sent = filterOf(calls)!;
      return [...sources.values()].filter((source) => passesElasticsearchFilter(sent, source)).map((source) => source.document_id);
    };
    expect(await found({ seniority: ['intern'] })).toEqual(['java-senior-austin']);
    expect(await found({ location: { kind: 'place', countryCode: 'US' } })).toEqual(['java-php-roundrock']);
    expect(sources.get('f2:java-senior-austin')?.seniority).toBe('senior');
  });
});

describe('ElasticsearchKeywordIndex facets', () => {
  const named = (name: string) => FILTER_CASES.find((c) => c.name === name)!.filter;
  const company = { term: { company_id: 'acme' } };
  const facetRequest = async (filter: SearchFilter | null, fields: readonly FacetField[]) => {
    const { api, calls } = recordingApi();
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    await index.facets('acme', filter, fields);
    return calls;
  };

  it('asks one search of no hits, the total counted exactly, an aggregation per field', async () => {
    expect(await facetRequest(null, FACET_FIELDS)).toEqual([
      [
        'search',
        {
          index: 'cs-cvs',
          size: 0,
          track_total_hits: true,
          query: { bool: { filter: [company] } },
          aggs: {
            seniority: { terms: { field: 'seniority', size: 8 } },
            domain: { terms: { field: 'domain', size: 50 } },
            skills: { terms: { field: 'skills', size: 20, shard_size: 500 } },
            experienceYears: {
              range: {
                field: 'experience_years',
                ranges: [
                  { key: '0-2', to: 3 },
                  { key: '3-5', from: 3, to: 6 },
                  { key: '6-10', from: 6, to: 11 },
                  { key: '11-20', from: 11, to: 21 },
                  { key: '20+', from: 21 },
                ],
              },
            },
            location: {
              terms: { field: 'country_code', size: 300 },
              aggs: {
                regions: { terms: { field: 'region_code', size: 300 } },
                no_region: { missing: { field: 'region_code' } },
              },
            },
            degree: { terms: { field: 'degree', size: 6 } },
          },
        },
      ],
    ]);
  });

  it('aggregates only the fields asked, over the query search filters with', async () => {
    const filter = named('every condition at once');
    const [[name, request]] = await facetRequest(filter, ['degree']);
    expect(name).toBe('search');
    expect(Object.keys(request.aggs as object)).toEqual(['degree']);
    const { api, calls } = recordingApi();
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    await index.search('acme', parseQuery('engineer'), 5, filter);
    const { filter: searchFilter, must_not: mustNot } = (calls[0][1] as { query: BoolQuery }).query.bool;
    expect(request.query).toEqual({ bool: { filter: searchFilter, must_not: mustNot } });
  });

  it('answers zero counts without a request when no CV can pass', async () => {
    const { api, calls } = recordingApi();
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    expect(await index.facets('acme', { seniority: [] }, ['seniority', 'location'])).toEqual({
      cvs: 0,
      fields: { seniority: [], location: [] },
    });
    expect(calls).toEqual([]);
  });

  it('sizes each terms aggregation to hold every value its field can take, so that counts are exact', () => {
    const skillKeys = new Set([...SKILLS, ...Object.keys(SKILL_SYNONYMS)].map(skillKey));
    expect(skillKeys.size).toBeLessThanOrEqual(FACET_TERMS_SIZES.skillsPerShard);
    expect(DOMAIN_NAMES.length).toBeLessThanOrEqual(FACET_TERMS_SIZES.domain);
    const regionsPerCountry = new Map<string, number>();
    for (const state of State.getAllStates()) regionsPerCountry.set(state.countryCode, (regionsPerCountry.get(state.countryCode) ?? 0) + 1);
    expect(Country.getAllCountries().length).toBeLessThanOrEqual(FACET_TERMS_SIZES.countries);
    expect(Math.max(...regionsPerCountry.values())).toBeLessThanOrEqual(FACET_TERMS_SIZES.regionsPerCountry);
  });
});

/** The CVs indexed in two companies, and ES's answer to a search computed over the documents it would match. */
async function simulatedIndex(cvs: readonly { id: string; text: string; attributes?: SearchAttributes }[]) {
  const { api, calls } = recordingApi();
  const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
  for (const company of ['f1', 'f2']) for (const c of cvs) await index.upsert(company, c.id, c.text, c.attributes);
  const sources = calls.flatMap(([name, p]) => (name === 'index' ? [p.document as Record<string, unknown>] : []));
  api.search = async (p) => {
    const matching = sources.filter((source) => passesElasticsearchFilter(p.query as Record<string, unknown>, source));
    return {
      hits: { total: { value: matching.length, relation: 'eq' }, max_score: null, hits: [] },
      aggregations: elasticsearchAggregations(p.aggs as Record<string, Record<string, unknown>>, matching),
    };
  };
  return index;
}

describe('facets from the aggregations ES computes count what countFacets counts over the same CVs', () => {
  /**
   * Beside FILTER_CVS: more skills than the 20 listed (ties among them), years on each band's
   * bounds, a country without a region, an empty region code, every degree.
   */
  const MORE_CVS = [0, 2.5, 3, 5.99, 6, 10.5, 11, 20.5, 21, 40, 7, 7].map((years, i) => ({
    id: `more-${i}`,
    text: 'Engineer.',
    attributes: {
      ...NO_ATTRIBUTES,
      skills: [`skill-${String(i).padStart(2, '0')}`, `shared-${i % 3}`, ...(i % 2 ? ['java', `odd-${i}`] : [])],
      experienceYears: years,
      seniority: i % 4 ? 'mid' : null,
      domain: i % 5 ? 'healthcare' : 'software engineering',
      degree: i % 6,
      location:
        i % 3 === 0
          ? { cityPoint: false, lat: 48.85, lon: 2.35, city: null, regionCode: null, countryCode: 'FR' }
          : { cityPoint: true, lat: 45.5, lon: -73.57, city: 'montreal', regionCode: i % 3 === 1 ? 'QC' : '', countryCode: 'CA' },
    } satisfies SearchAttributes,
  }));
  const CVS = [...FILTER_CVS, ...MORE_CVS];

  const indexed = () => simulatedIndex(CVS);

  const cases = [{ name: 'no filter', filter: null }, ...FILTER_CASES, ...FILTER_EDGE_CASES];
  it.each(cases)('$name', async ({ filter }) => {
    const index = await indexed();
    const passing = CVS.filter((c) => !filter || passesFilter(c.id, c.attributes ?? null, filter)).map((c) => c.attributes ?? null);
    expect(await index.facets('f1', filter, FACET_FIELDS)).toEqual(countFacets(passing, FACET_FIELDS));
  });

  it('lists the 20 most frequent skills, ties by name, from more than 20', async () => {
    const skills = (await (await indexed()).facets('f1', null, ['skills'])).fields.skills!;
    expect(skills).toHaveLength(TOP_SKILLS);
    expect(new Set(CVS.flatMap((c) => c.attributes?.skills ?? [])).size).toBeGreaterThan(TOP_SKILLS);
  });
});

describe('requirement counts from the filters aggregation ES computes count what countRequirements counts over the same CVs', () => {
  const named = (name: string) => [...FILTER_CASES, ...FILTER_EDGE_CASES].find((c) => c.name === name)!.filter;
  const requirements = [
    'years range',
    'degree at least master',
    'seniority',
    'a skill matched as text',
    'a filter no CV passes',
    'an empty list of seniorities passes nothing',
  ].map(named);

  it.each([{ name: 'no filter', filter: null }, ...FILTER_CASES])('over the CVs passing: $name', async ({ filter }) => {
    const index = await simulatedIndex(FILTER_CVS);
    const cvs = FILTER_CVS.map((c) => ({ id: c.id, attributes: c.attributes ?? null }));
    expect(await index.requirementCounts('f1', filter, requirements)).toEqual(countRequirements(cvs, filter, requirements));
  });
});

describe('the keyword query language in the search request', () => {
  const keywordQuery = (query: string) => parseKeywordQuery(query, { skillKey });
  type Bool = { bool: { filter: unknown[]; must_not?: unknown[]; should?: unknown[]; must?: { bool: { should: unknown[] } }[] } };

  it('puts required clauses in the filter context and excluded ones in must_not, and scores neither apart from its words', async () => {
    const { api, calls } = recordingApi([]);
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    await index.search('acme', keywordQuery('+(java OR "spring boot") -php title:lead +skill:k8s'), 5, { seniority: ['senior'] });
    const { bool } = (calls[0][1] as { query: Bool }).query;
    expect(bool.filter).toEqual([
      { term: { company_id: 'acme' } },
      { terms: { seniority: ['senior'] } },
      {
        bool: {
          should: [{ match_phrase: { text: { query: 'java' } } }, { match_phrase: { text: { query: 'spring boot' } } }],
          minimum_should_match: 1,
        },
      },
      { match_phrase: { headline: { query: 'lead' } } },
      { term: { skills: 'kubernetes' } },
    ]);
    expect(bool.must_not).toEqual([{ match_phrase: { text: { query: 'php' } } }]);
    const scored = JSON.stringify(bool.should);
    expect(scored).toContain('spring boot');
    expect(scored).toContain('k8s');
    expect(scored).not.toContain('php');
  });

  it('keeps the conditions in the feedback pass', async () => {
    const termVectors: TermVectorsDoc[] = [
      { _id: 'acme:d1', term_vectors: { text: { field_statistics: { doc_count: 10 }, terms: { java: { term_freq: 2, doc_freq: 2 } } } } },
    ];
    const { api, calls } = recordingApi(
      [{ _id: 'acme:d1', _score: 3, _source: { document_id: 'd1' }, matched_queries: ['part-0'] }],
      termVectors,
    );
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    await index.search('acme', keywordQuery('java -php +(senior OR lead)'), 5);
    expect(calls.map(([name]) => name)).toEqual(['search', 'mtermvectors', 'search']);
    const [first, second] = [calls[0][1], calls[2][1]].map((p) => (p as { query: Bool }).query.bool);
    expect(second.filter).toEqual(first.filter);
    expect(second.must_not).toEqual(first.must_not);
    expect(first.filter).toHaveLength(2);
    expect(second.must?.[0].bool.should).toEqual(first.should);
  });

  it('sends a query without operators exactly as its plain keywords', async () => {
    const sent = async (parsed: ReturnType<typeof parseQuery>) => {
      const { api, calls } = recordingApi([]);
      const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
      calls.length = 0;
      await index.search('acme', parsed, 5);
      return calls;
    };
    const query = '"general ledger", QuickBooks, month-end close';
    expect(await sent(keywordQuery(query))).toEqual(await sent(parseQuery(query)));
  });

  describe('selects exactly the CVs the shared cases expect', () => {
    it.each(CONDITION_CASES)('$name', async ({ companyId, query, expected }) => {
      const { api, calls } = recordingApi();
      const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
      for (const cv of CONDITION_CVS) await index.upsert(cv.companyId, cv.id, cv.text, cv.attributes);
      const sources = calls.flatMap(([name, p]) => (name === 'index' ? [p.document as Record<string, unknown>] : []));
      calls.length = 0;
      await index.search(companyId, keywordQuery(query), 100);
      const { bool } = (calls[0][1] as { query: Bool }).query;
      const sent = {
        bool: {
          filter: bool.filter as Record<string, unknown>[],
          ...(bool.must_not ? { must_not: bool.must_not as Record<string, unknown>[] } : {}),
        },
      };
      const selected = sources.filter((source) => passesElasticsearchFilter(sent, source)).map((source) => source.document_id);
      expect(selected.sort()).toEqual(expected);
    });
  });
});
