import { QdrantVectorIndex, pointId, type QdrantApi } from './qdrant-vector.index';

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
    createPayloadIndex: record('createPayloadIndex'),
    upsert: record('upsert'),
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
  it('creates a cosine collection with company and document indexes', async () => {
    const { api, calls } = recordingApi();
    await QdrantVectorIndex.open(api, 'cs_chunks', 100);
    expect(calls).toEqual([
      ['createCollection', 'cs_chunks', { vectors: { size: 100, distance: 'Cosine' } }],
      ['createPayloadIndex', 'cs_chunks', { field_name: 'company_id', field_schema: 'keyword', wait: true }],
      ['createPayloadIndex', 'cs_chunks', { field_name: 'document_id', field_schema: 'keyword', wait: true }],
      ['createPayloadIndex', 'cs_chunks', { field_name: 'chunk_index', field_schema: 'integer', wait: true }],
    ]);
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
