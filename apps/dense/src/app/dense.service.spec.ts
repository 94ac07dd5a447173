import type { SentenceEmbedder } from '@cs/embeddings';
import type { VectorHit, VectorIndex } from '@cs/ports';
import { DenseService } from './dense.service';

const unit = (...values: number[]) => Float32Array.from(values, (x) => x / Math.hypot(...values));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

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

function service(index: RecordingIndex, query: Float32Array): DenseService {
  const embedder = { readQuery: () => ({ vector: query, unknownWords: [] }) } as unknown as SentenceEmbedder;
  return new DenseService(embedder, index as unknown as VectorIndex);
}

describe('DenseService.search', () => {
  // The query leans to x; the CVs nearest it lean to y as well, so the best few pull it that way.
  const query = unit(1, 0.3, 0);
  const cvs = (n: number) =>
    new Map(Array.from({ length: n }, (_, i) => [`cv-${i}`, i % 2 === 0 ? unit(1, 0.5 + i / n, 0) : unit(0.2, 0, 1 + i / n)]));

  it('searches again with the query moved towards its best few CVs', async () => {
    const index = new RecordingIndex(cvs(40));
    const result = await service(index, query).search('c', 'q', 5);
    expect(index.queries).toHaveLength(2);
    expect(index.queries[1][1]).toBeGreaterThan(query[1]);
    expect(result.hits).toHaveLength(5);
    expect(result.hits.every((h) => Number(h.documentId.slice('cv-'.length)) % 2 === 0)).toBe(true);
  });

  it('searches once in a company too small for feedback', async () => {
    const index = new RecordingIndex(cvs(12));
    const result = await service(index, query).search('c', 'q', 5);
    expect(index.queries).toHaveLength(1);
    expect(result.hits).toHaveLength(5);
  });
});
