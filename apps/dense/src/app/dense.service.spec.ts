import { QUERY_FEEDBACK } from '@cs/embeddings';
import type { DenseEncoder, DenseModel, VectorHit, VectorIndex, VectorSpaces } from '@cs/ports';
import { DenseService } from './dense.service';

const unit = (...values: number[]) => Float32Array.from(values, (x) => x / Math.hypot(...values));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const MODEL: DenseModel = { id: 'builtin:glove-sif-3d-v2', dimensions: 3 };

/** Exact search over whole-document vectors, recording the queries it is asked. */
class RecordingIndex implements Pick<VectorIndex, 'search' | 'documentVectors'> {
  readonly queries: Float32Array[] = [];
  constructor(readonly vectors: Map<string, Float32Array>) {}
  search(_companyId: string, query: Float32Array, topK: number): Promise<VectorHit[]> {
    this.queries.push(query);
    const hits = [...this.vectors].map(([documentId, v]) => ({ documentId, score: dot(query, v), chunkIndex: -1 }));
    return Promise.resolve(hits.sort((a, b) => b.score - a.score).slice(0, topK));
  }
  documentVectors(_companyId: string, ids: readonly string[]): Promise<Map<string, Float32Array>> {
    return Promise.resolve(new Map(ids.map((id) => [id, this.vectors.get(id)!])));
  }
}

async function service(index: RecordingIndex, query: Float32Array, feedback: boolean): Promise<DenseService> {
  const encoder = {
    model: MODEL,
    ...(feedback ? { queryFeedback: QUERY_FEEDBACK } : {}),
    embedQuery: () => Promise.resolve({ vector: query, unknownWords: [] }),
  } as unknown as DenseEncoder;
  const spaces = {
    active: () => Promise.resolve(MODEL),
    open: () => Promise.resolve(index),
    removeAllBut: () => Promise.resolve(),
  } as unknown as VectorSpaces;
  const dense = new DenseService(encoder, null, spaces, { kind: 'builtin', spec: 'builtin' }, undefined);
  await dense.onModuleInit();
  started.push(dense);
  return dense;
}

// Each started service schedules the removal of old sets; stopping it cancels that.
const started: DenseService[] = [];
afterEach(() => started.splice(0).forEach((dense) => dense.onApplicationShutdown()));

describe('DenseService.search', () => {
  // The query leans to x; the CVs nearest it lean to y as well, so the best few pull it that way.
  const query = unit(1, 0.3, 0);
  const cvs = (n: number) =>
    new Map(Array.from({ length: n }, (_, i) => [`cv-${i}`, i % 2 === 0 ? unit(1, 0.5 + i / n, 0) : unit(0.2, 0, 1 + i / n)]));

  it('searches again with the query moved towards its best few CVs, for a model that asks for feedback', async () => {
    const index = new RecordingIndex(cvs(40));
    const result = await (await service(index, query, true)).search('c', 'q', 5);
    expect(index.queries).toHaveLength(2);
    expect(index.queries[1][1]).toBeGreaterThan(query[1]);
    expect(result.hits).toHaveLength(5);
    expect(result.hits.every((h) => Number(h.documentId.slice('cv-'.length)) % 2 === 0)).toBe(true);
    expect(result.model).toEqual(MODEL);
  });

  it('searches once in a company too small for feedback', async () => {
    const index = new RecordingIndex(cvs(12));
    const result = await (await service(index, query, true)).search('c', 'q', 5);
    expect(index.queries).toHaveLength(1);
    expect(result.hits).toHaveLength(5);
  });

  it('searches once for a model that asks for no feedback', async () => {
    const index = new RecordingIndex(cvs(40));
    await (await service(index, query, false)).search('c', 'q', 5);
    expect(index.queries).toHaveLength(1);
  });
});

describe('DenseService.similar', () => {
  const cvs = new Map([
    ['seed', unit(1, 0.2, 0)],
    ['near', unit(1, 0.3, 0)],
    ['far', unit(0, 0, 1)],
  ]);

  it('searches once with the CV’s own vector, whatever feedback the model asks for', async () => {
    const index = new RecordingIndex(cvs);
    const result = await (await service(index, unit(0, 1, 0), true)).similar('c', 'seed', 3);
    expect(index.queries).toEqual([cvs.get('seed')]);
    expect(result.hits.map((h) => h.documentId)).toEqual(['seed', 'near', 'far']);
    expect(result).toMatchObject({ noKnownWords: false, unknownWords: [], model: MODEL });
  });

  it('has nothing to search with for a CV without a vector', async () => {
    const index = new RecordingIndex(cvs);
    const result = await (await service(index, unit(0, 1, 0), false)).similar('c', 'missing', 3);
    expect(result).toEqual({ hits: [], noKnownWords: true, unknownWords: [], model: MODEL });
    expect(index.queries).toEqual([]);
  });
});
