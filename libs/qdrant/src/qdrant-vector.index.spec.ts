import { describeVectorIndexContract, FILTER_CASES, FILTER_CVS, FILTER_EDGE_CASES } from '@cs/ports/testing';
import { passesFilter, type SearchAttributes, type SearchFilter } from '@cs/search-filters';
import { QdrantVectorIndex, pointId, type QdrantApi, type QdrantFilter } from './qdrant-vector.index';
import { memoryQdrant, passesQdrantFilter } from './testing/memory-qdrant';

/** Records every request and answers like an empty Qdrant would. */
function recordingApi(): { api: QdrantApi; calls: [string, string, Record<string, unknown>][] } {
  const calls: [string, string, Record<string, unknown>][] = [];
  const record =
    (method: string) =>
    async (name: string, body: Record<string, unknown> = {}) => {
      calls.push([method, name, body]);
      if (method === 'search')
        return [
          { score: 0.9, payload: { document_id: 'doc-1' } },
          { score: 0.5, payload: { document_id: 'doc-2' } },
        ];
      if (method === 'retrieve') return [{ payload: { document_id: 'doc-1' }, vector: [0.6, 0.8] }];
      return method === 'count'
        ? { count: 2 }
        : method === 'searchPointGroups'
          ? { groups: [{ id: 'doc-1', hits: [{ score: 0.9, payload: { chunk_index: 3 } }] }] }
          : {};
    };
  const api = {
    collectionExists: async () => ({ exists: false }),
    createCollection: record('createCollection'),
    getCollection: async () => ({ payload_schema: {} }),
    createPayloadIndex: record('createPayloadIndex'),
    upsert: record('upsert'),
    setPayload: record('setPayload'),
    delete: record('delete'),
    count: record('count'),
    search: record('search'),
    searchPointGroups: record('searchPointGroups'),
    retrieve: record('retrieve'),
  } as unknown as QdrantApi;
  return { api, calls };
}

const companyFilter = (companyId: string) =>
  expect.objectContaining({ must: expect.arrayContaining([{ key: 'company_id', match: { value: companyId } }]) });

describe('QdrantVectorIndex requests', () => {
  it('creates a cosine collection with company, document and filter indexes', async () => {
    const { api, calls } = recordingApi();
    await QdrantVectorIndex.open(api, 'cs_chunks', 100);
    const index = (field_name: string, field_schema: string) => [
      'createPayloadIndex',
      'cs_chunks',
      { field_name, field_schema, wait: true },
    ];
    expect(calls).toEqual([
      ['createCollection', 'cs_chunks', { vectors: { size: 100, distance: 'Cosine' } }],
      index('company_id', 'keyword'),
      index('document_id', 'keyword'),
      index('chunk_index', 'integer'),
      index('skills', 'keyword'),
      index('experience_years', 'float'),
      index('seniority', 'keyword'),
      index('domain', 'keyword'),
      index('degree', 'integer'),
      index('languages', 'keyword'),
      index('location', 'geo'),
      index('city', 'keyword'),
      index('region_code', 'keyword'),
      index('country_code', 'keyword'),
      index('document_date', 'integer'),
    ]);
  });

  it('adds to a collection created before filters only the payload indexes it lacks, and nothing once it has them', async () => {
    const { api, calls } = recordingApi();
    const schema: Record<string, unknown> = { company_id: {}, document_id: {}, chunk_index: {}, skills: {} };
    api.collectionExists = async () => ({ exists: true });
    api.getCollection = async () => ({ payload_schema: schema });
    await QdrantVectorIndex.open(api, 'cs_chunks', 100);
    const created = calls.map(([method, , body]) => [method, body.field_name, body.field_schema]);
    expect(created).toEqual([
      ['createPayloadIndex', 'experience_years', 'float'],
      ['createPayloadIndex', 'seniority', 'keyword'],
      ['createPayloadIndex', 'domain', 'keyword'],
      ['createPayloadIndex', 'degree', 'integer'],
      ['createPayloadIndex', 'languages', 'keyword'],
      ['createPayloadIndex', 'location', 'geo'],
      ['createPayloadIndex', 'city', 'keyword'],
      ['createPayloadIndex', 'region_code', 'keyword'],
      ['createPayloadIndex', 'country_code', 'keyword'],
      ['createPayloadIndex', 'document_date', 'integer'],
    ]);
    for (const [, field] of created) schema[field as string] = {};
    calls.length = 0;
    await QdrantVectorIndex.open(api, 'cs_chunks', 100);
    expect(calls).toEqual([]);
  });

  it('scopes every query, delete and count to the company', async () => {
    const { api, calls } = recordingApi();
    const index = await QdrantVectorIndex.open(api, 'c', 2);
    calls.length = 0;
    expect(await index.search('acme', Float32Array.from([1, 0]), 5)).toEqual([
      { documentId: 'doc-1', score: 0.9, chunkIndex: 3 },
      { documentId: 'doc-2', score: 0.5, chunkIndex: -1 },
    ]);
    await index.delete('acme', 'doc-1');
    await index.count('acme');
    for (const [method, , body] of calls) expect({ method, filter: body.filter }).toEqual({ method, filter: companyFilter('acme') });
    expect(calls[0][2]).toMatchObject({
      limit: 5,
      filter: { must: expect.arrayContaining([{ key: 'chunk_index', match: { value: -1 } }]) },
    });
    expect(calls[1][2]).toMatchObject({
      group_by: 'document_id',
      group_size: 1,
      limit: 2,
      filter: {
        must: expect.arrayContaining([
          { key: 'document_id', match: { any: ['doc-1', 'doc-2'] } },
          { key: 'chunk_index', range: { gte: 0 } },
        ]),
      },
    });
  });

  it('reads whole-document vectors by the company’s point ids, which no other company’s match', async () => {
    const { api, calls } = recordingApi();
    const index = await QdrantVectorIndex.open(api, 'c', 2);
    calls.length = 0;
    const vectors = await index.documentVectors('acme', ['doc-1', 'doc-2']);
    expect(calls).toEqual([
      [
        'retrieve',
        'c',
        { ids: [pointId('acme', 'doc-1', -1), pointId('acme', 'doc-2', -1)], with_payload: ['document_id'], with_vector: true },
      ],
    ]);
    expect([...vectors]).toEqual([['doc-1', Float32Array.from([0.6, 0.8])]]);
    calls.length = 0;
    expect((await index.documentVectors('acme', [])).size).toBe(0);
    expect(calls).toEqual([]);
  });

  it('replaces a document’s points, with ids stable per company, document and chunk', async () => {
    const { api, calls } = recordingApi();
    const index = await QdrantVectorIndex.open(api, 'c', 2);
    calls.length = 0;
    await index.upsert('acme', 'doc-1', [{ chunkIndex: -1, vector: Float32Array.from([0.6, 0.8]) }]);
    expect(calls.map((c) => c[0])).toEqual(['delete', 'upsert']);
    const points = (calls[1][2] as { points: { id: string; payload: unknown }[] }).points;
    expect(points[0]).toMatchObject({
      id: pointId('acme', 'doc-1', -1),
      payload: { company_id: 'acme', document_id: 'doc-1', chunk_index: -1 },
    });
    expect(pointId('acme', 'doc-1', -1)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(pointId('other', 'doc-1', -1)).not.toBe(pointId('acme', 'doc-1', -1));
  });
});

const vector = (...values: number[]) => Float32Array.from(values);
const cv = (id: string) => FILTER_CVS.find((c) => c.id === id)!;
const wholeDocument = (companyId: string) => [
  { key: 'company_id', match: { value: companyId } },
  { key: 'chunk_index', match: { value: -1 } },
];

describe('QdrantVectorIndex attributes', () => {
  it('writes a CV’s attributes into its whole-document point, the point that is filtered, and not into its passages', async () => {
    const { api, calls } = recordingApi();
    const index = await QdrantVectorIndex.open(api, 'c', 2);
    calls.length = 0;
    await index.upsert(
      'acme',
      'doc-1',
      [
        { chunkIndex: -1, vector: vector(0.6, 0.8) },
        { chunkIndex: 0, vector: vector(1, 0) },
      ],
      cv('java-senior-austin').attributes,
    );
    const points = (calls[1][2] as { points: { payload: unknown }[] }).points;
    expect(points.map((p) => p.payload)).toEqual([
      {
        company_id: 'acme',
        document_id: 'doc-1',
        chunk_index: -1,
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
      },
      { company_id: 'acme', document_id: 'doc-1', chunk_index: 0 },
    ]);
  });

  it('writes a CV given without attributes as before: no attribute fields at all', async () => {
    const { api, calls } = recordingApi();
    const index = await QdrantVectorIndex.open(api, 'c', 2);
    calls.length = 0;
    await index.upsert('acme', 'doc-1', [{ chunkIndex: -1, vector: vector(0.6, 0.8) }]);
    expect((calls[1][2] as { points: { payload: unknown }[] }).points[0].payload).toEqual({
      company_id: 'acme',
      document_id: 'doc-1',
      chunk_index: -1,
    });
  });

  it('replaces attributes by set-payload on the company’s whole-document point, writing null where the profile says nothing', async () => {
    const { api, calls } = recordingApi();
    const index = await QdrantVectorIndex.open(api, 'c', 2);
    calls.length = 0;
    expect(await index.setAttributes('acme', 'doc-1', cv('junior-no-place').attributes!)).toBe(true);
    const filter = {
      must: [
        { key: 'company_id', match: { value: 'acme' } },
        { key: 'document_id', match: { value: 'doc-1' } },
        { key: 'chunk_index', match: { value: -1 } },
      ],
    };
    expect(calls).toEqual([
      ['count', 'c', { filter, exact: true }],
      [
        'setPayload',
        'c',
        {
          wait: true,
          filter,
          payload: {
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
        },
      ],
    ]);
  });

  it('says false, and sets nothing, for a CV the company lacks', async () => {
    const { api, calls } = recordingApi();
    api.count = async () => ({ count: 0 });
    const index = await QdrantVectorIndex.open(api, 'c', 2);
    calls.length = 0;
    expect(await index.setAttributes('acme', 'missing', cv('junior-no-place').attributes!)).toBe(false);
    expect(calls).toEqual([]);
  });
});

describe('QdrantVectorIndex filters in the search request', () => {
  const sentFilter = async (filter: SearchFilter | null) => {
    const { api, calls } = recordingApi();
    const index = await QdrantVectorIndex.open(api, 'c', 2);
    calls.length = 0;
    await index.search('acme', vector(1, 0), 5, filter);
    return { search: calls.find(([method]) => method === 'search')?.[2], calls };
  };
  const named = (name: string) => FILTER_CASES.find((c) => c.name === name)!.filter;

  it('sends the unfiltered request for no filter or an empty one', async () => {
    for (const filter of [null, {}]) expect((await sentFilter(filter)).search?.filter).toEqual({ must: wholeDocument('acme') });
  });

  it('keeps out listed skills with must_not, which a point without the field passes', async () => {
    expect((await sentFilter(named('skills none excludes, and keeps CVs that name nothing'))).search).toMatchObject({
      limit: 5,
      filter: { must: wholeDocument('acme'), must_not: [{ key: 'skills', match: { any: ['php', 'python'] } }] },
    });
  });

  it('puts every condition in must, a radius in metres', async () => {
    expect((await sentFilter(named('every condition at once'))).search?.filter).toEqual({
      must: [
        ...wholeDocument('acme'),
        { key: 'skills', match: { value: 'java' } },
        { key: 'seniority', match: { any: ['senior', 'lead'] } },
        { key: 'experience_years', range: { gte: 5 } },
        { key: 'location', geo_radius: { center: { lat: 30.26715, lon: -97.74306 }, radius: 50_000 } },
      ],
      must_not: [{ key: 'skills', match: { any: ['php'] } }],
    });
  });

  it('matches a place by its codes and its city', async () => {
    expect((await sentFilter(named('region and city'))).search?.filter).toEqual({
      must: [
        ...wholeDocument('acme'),
        { key: 'country_code', match: { value: 'US' } },
        { key: 'region_code', match: { value: 'TX' } },
        { key: 'city', match: { value: 'round rock' } },
      ],
    });
  });

  it('names the documents allowed and the documents excluded', async () => {
    expect((await sentFilter(named('document ids and exclusions'))).search?.filter).toEqual({
      must: [
        ...wholeDocument('acme'),
        { key: 'document_id', match: { any: ['java-senior-austin', 'no-attributes', 'python-lead-berlin'] } },
      ],
      must_not: [{ key: 'document_id', match: { any: ['python-lead-berlin'] } }],
    });
  });

  it('asks any value of a range open at both ends', async () => {
    expect((await sentFilter({ degree: {} })).search?.filter).toEqual({
      must: [...wholeDocument('acme'), { must_not: [{ is_empty: { key: 'degree' } }] }],
    });
  });

  it('sends nothing when an empty list of allowed values leaves no CV to pass', async () => {
    for (const filter of [{ documentIds: [] }, { seniority: [] }, { domain: [] }]) expect((await sentFilter(filter)).calls).toEqual([]);
  });

  it('matches skills as text by the documents holding them, `any` of them beside `any` of the skills', async () => {
    expect((await sentFilter(named('skills any: a skill of the profile or a phrase of the text'))).search?.filter).toEqual({
      must: [
        ...wholeDocument('acme'),
        {
          should: [
            { key: 'skills', match: { any: ['aws'] } },
            { key: 'document_id', match: { any: ['no-attributes', 'python-lead-berlin'] } },
          ],
        },
      ],
    });
    expect((await sentFilter(named('skills none: a phrase of the text excludes, a skill of the profile too'))).search?.filter).toEqual({
      must: wholeDocument('acme'),
      must_not: [
        { key: 'skills', match: { any: ['python'] } },
        { key: 'document_id', match: { any: ['java-php-roundrock', 'no-attributes'] } },
      ],
    });
  });

  it('sends nothing when no CV holds a phrase `all` or `any` needs, and `any` names no skill', async () => {
    for (const name of ['a phrase no CV holds passes nothing in all', 'a phrase no CV holds passes nothing in any'])
      expect((await sentFilter(FILTER_EDGE_CASES.find((c) => c.name === name)!.filter)).calls).toEqual([]);
  });

  it('looks passages up only for the CVs the filtered search returned', async () => {
    const { calls } = await sentFilter(named('country'));
    expect(calls.map(([method]) => method)).toEqual(['search', 'searchPointGroups']);
    expect(calls[1][2]).toMatchObject({
      filter: { must: expect.arrayContaining([{ key: 'document_id', match: { any: ['doc-1', 'doc-2'] } }]) },
    });
  });
});

describe('the filter sent passes exactly the points of the CVs passesFilter passes', () => {
  // Every CV in two companies, each with a passage: only the searched company's whole-document points may pass.
  async function indexed() {
    const store = memoryQdrant();
    const index = await QdrantVectorIndex.open(store.api, 'c', 3);
    for (const company of ['f1', 'f2'])
      for (const c of FILTER_CVS)
        await index.upsert(
          company,
          c.id,
          [
            { chunkIndex: -1, vector: vector(1, 0.1, 0) },
            { chunkIndex: 0, vector: vector(1, 0, 0.1) },
          ],
          c.attributes,
        );
    store.requests.length = 0;
    return { index, store };
  }
  const passing = (cases: { filter: SearchFilter }[]) =>
    cases.map((c) => ({ ...c, passing: FILTER_CVS.filter((v) => passesFilter(v.id, v.attributes ?? null, c.filter)).map((v) => v.id) }));

  it.each(passing([...FILTER_CASES, ...FILTER_EDGE_CASES]))('$name', async ({ filter, passing: expected }) => {
    const { index, store } = await indexed();
    await index.search('f1', vector(1, 0, 0), 100, filter);
    const sent = store.requests.find(([method]) => method === 'search')?.[1].filter as QdrantFilter | undefined;
    const matched = sent ? [...store.points.values()].filter((p) => passesQdrantFilter(sent, p.payload)).map((p) => p.payload) : [];
    expect(matched.every((p) => p.company_id === 'f1' && p.chunk_index === -1)).toBe(true);
    expect(matched.map((p) => p.document_id).sort()).toEqual([...expected].sort());
  });

  it('passes the replaced attributes after set-payload, the fields the new profile lacks cleared', async () => {
    const { index, store } = await indexed();
    const moved: SearchAttributes = { ...cv('java-senior-austin').attributes!, location: null, seniority: 'intern' };
    expect(await index.setAttributes('f1', 'java-senior-austin', moved)).toBe(true);
    const found = async (filter: SearchFilter) => (await index.search('f1', vector(1, 0, 0), 100, filter)).map((h) => h.documentId).sort();
    expect(await found({ seniority: ['intern'] })).toEqual(['java-senior-austin']);
    expect(await found({ location: { kind: 'place', countryCode: 'US' } })).toEqual(['java-php-roundrock']);
    // The other company's copy keeps what it had.
    expect(store.points.get(pointId('f2', 'java-senior-austin', -1))?.payload.seniority).toBe('senior');
  });
});

let store: ReturnType<typeof memoryQdrant>;
describeVectorIndexContract(
  'Qdrant adapter over an in-memory collection that interprets its filters',
  async () => {
    store = memoryQdrant();
    return QdrantVectorIndex.open(store.api, 'c', 3);
  },
  () => QdrantVectorIndex.open(store.api, 'c', 3),
);
