import * as path from 'node:path';
import { AppendLog } from '@cs/append-log';
import type { ChunkVector, VectorHit, VectorIndex } from '@cs/ports';
import { topK } from '@cs/ranking';
import { Index as HnswIndex, MetricKind, ScalarKind } from 'usearch';

type LogRecord =
  | { op: 'put'; c: string; d: string; chunks: number[]; v: string }
  | { op: 'del'; c: string; d: string };

/** Below this many documents an exact scan is as fast as the graph and never misses. */
export const DEFAULT_ANN_THRESHOLD = 5_000;

/** HNSW graph settings (usearch): recall against exact search is printed by `npm run bench`. */
export const HNSW = { connectivity: 16, expansionAdd: 128, expansionSearch: 256 } as const;

interface StoredDocument {
  key: bigint;
  /** The whole-document vector that ranks the document. */
  vector: Float32Array;
  /** Passage vectors, for naming the passage closest to a query. */
  chunkIndexes: number[];
  chunks: Float32Array;
}

const dotAt = (a: Float32Array, b: Float32Array, offset: number, dims: number) => {
  let s = 0;
  for (let d = 0; d < dims; d++) s += a[d] * b[offset + d];
  return s;
};

/**
 * One company's documents. Documents rank by their whole-document vector: exactly while the
 * company is small, through an HNSW graph (usearch) once it passes `annThreshold`.
 */
class CompanyVectors {
  readonly documents = new Map<string, StoredDocument>();
  private readonly byKey = new Map<bigint, string>();
  private nextKey = 1n;
  private graph: HnswIndex | null = null;

  constructor(
    private readonly dims: number,
    private readonly annThreshold: number,
  ) {}

  put(documentId: string, vectors: ChunkVector[]): void {
    this.remove(documentId);
    const whole = vectors.find((v) => v.chunkIndex === -1)?.vector;
    if (!whole) return; // nothing ranks a document without its whole-document vector
    const passages = vectors.filter((v) => v.chunkIndex >= 0);
    const chunks = new Float32Array(passages.length * this.dims);
    passages.forEach((p, i) => chunks.set(p.vector, i * this.dims));
    const doc: StoredDocument = { key: this.nextKey++, vector: Float32Array.from(whole), chunkIndexes: passages.map((p) => p.chunkIndex), chunks };
    this.documents.set(documentId, doc);
    this.byKey.set(doc.key, documentId);
    if (this.graph) this.graph.add(doc.key, doc.vector);
    else if (this.documents.size > this.annThreshold) this.buildGraph();
  }

  remove(documentId: string): number {
    const doc = this.documents.get(documentId);
    if (!doc) return 0;
    this.documents.delete(documentId);
    this.byKey.delete(doc.key);
    this.graph?.remove(doc.key);
    return 1 + doc.chunkIndexes.length;
  }

  private buildGraph(): void {
    this.graph = new HnswIndex({
      dimensions: this.dims,
      metric: MetricKind.Cos,
      quantization: ScalarKind.F32,
      multi: false,
      connectivity: HNSW.connectivity,
      expansion_add: HNSW.expansionAdd,
      expansion_search: HNSW.expansionSearch,
    });
    for (const doc of this.documents.values()) this.graph.add(doc.key, doc.vector);
  }

  get approximate(): boolean {
    return this.graph !== null;
  }

  search(query: Float32Array, limit: number, exact = false): VectorHit[] {
    const ranked = this.graph && !exact ? this.searchGraph(query, limit) : this.scan(query, limit);
    return ranked.map(([documentId, score]) => ({ documentId, score, chunkIndex: this.closestChunk(documentId, query) }));
  }

  private searchGraph(query: Float32Array, limit: number): Array<[string, number]> {
    const found = (this.graph as HnswIndex).search(query, Math.min(limit, this.documents.size), 0);
    const ranked: Array<[string, number]> = [];
    found.keys.forEach((key, i) => {
      const documentId = this.byKey.get(key);
      if (documentId !== undefined) ranked.push([documentId, 1 - found.distances[i]]);
    });
    return ranked;
  }

  private scan(query: Float32Array, limit: number): Array<[string, number]> {
    const ids: string[] = [];
    // Shifted by 1 so that every cosine is positive, as topK keeps positive scores only.
    const scores = new Float64Array(this.documents.size);
    for (const [documentId, doc] of this.documents) {
      scores[ids.length] = 1 + dotAt(query, doc.vector, 0, this.dims);
      ids.push(documentId);
    }
    return topK(scores, limit).map(([i, score]) => [ids[i], score - 1]);
  }

  private closestChunk(documentId: string, query: Float32Array): number {
    const doc = this.documents.get(documentId) as StoredDocument;
    let best = -1;
    let bestScore = -Infinity;
    doc.chunkIndexes.forEach((chunkIndex, i) => {
      const score = dotAt(query, doc.chunks, i * this.dims, this.dims);
      if (score > bestScore) [best, bestScore] = [chunkIndex, score];
    });
    return best;
  }

  *records(companyId: string): Generator<LogRecord> {
    for (const [documentId, doc] of this.documents) {
      const packed = new Float32Array(this.dims * (1 + doc.chunkIndexes.length));
      packed.set(doc.vector, 0);
      packed.set(doc.chunks, this.dims);
      yield { op: 'put', c: companyId, d: documentId, chunks: [-1, ...doc.chunkIndexes], v: encode(packed) };
    }
  }
}

const encode = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
const decode = (s: string) => {
  const bytes = Buffer.from(s, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};

/**
 * The standalone vector index: each company's documents in memory (exact search while small,
 * HNSW beyond), made durable by an append-only log in the data folder.
 */
export class EmbeddedVectorIndex implements VectorIndex {
  private readonly companies = new Map<string, CompanyVectors>();

  private constructor(
    private readonly dims: number,
    private readonly annThreshold: number,
    private log: AppendLog<LogRecord> | null = null,
  ) {}

  static async open(dataDir: string, dims: number, annThreshold = DEFAULT_ANN_THRESHOLD): Promise<EmbeddedVectorIndex> {
    const index = new EmbeddedVectorIndex(dims, annThreshold);
    const log = await AppendLog.open<LogRecord>(path.join(dataDir, 'vectors', 'vectors.jsonl'), (r) => index.apply(r));
    index.log = log;
    const live = [...index.companies.values()].reduce((n, c) => n + c.documents.size, 0);
    if (log.size > 2 * live + 1000) await log.rewrite(index.allRecords());
    return index;
  }

  private company(companyId: string): CompanyVectors {
    let c = this.companies.get(companyId);
    if (!c) {
      c = new CompanyVectors(this.dims, this.annThreshold);
      this.companies.set(companyId, c);
    }
    return c;
  }

  private apply(record: LogRecord): number {
    if (record.op === 'del') return this.companies.get(record.c)?.remove(record.d) ?? 0;
    const flat = decode(record.v);
    const vectors = record.chunks.map((chunkIndex, i) => ({
      chunkIndex,
      vector: flat.subarray(i * this.dims, (i + 1) * this.dims),
    }));
    this.company(record.c).put(record.d, vectors);
    return vectors.length;
  }

  private *allRecords(): Generator<LogRecord> {
    for (const [companyId, c] of this.companies) yield* c.records(companyId);
  }

  async upsert(companyId: string, documentId: string, vectors: ChunkVector[]): Promise<void> {
    for (const { vector } of vectors) {
      if (vector.length !== this.dims) throw new Error(`vector has ${vector.length} dimensions, index has ${this.dims}`);
    }
    const packed = new Float32Array(vectors.length * this.dims);
    vectors.forEach((v, i) => packed.set(v.vector, i * this.dims));
    const record: LogRecord = { op: 'put', c: companyId, d: documentId, chunks: vectors.map((v) => v.chunkIndex), v: encode(packed) };
    await this.requireLog().append(record);
    this.apply(record);
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    if (!this.companies.get(companyId)?.documents.has(documentId)) return 0;
    const record: LogRecord = { op: 'del', c: companyId, d: documentId };
    await this.requireLog().append(record);
    return this.apply(record);
  }

  async search(companyId: string, query: Float32Array, topK: number): Promise<VectorHit[]> {
    return this.companies.get(companyId)?.search(query, topK) ?? [];
  }

  /** Exact search whatever the company's size: the reference the bench measures HNSW recall against. */
  searchExact(companyId: string, query: Float32Array, topK: number): VectorHit[] {
    return this.companies.get(companyId)?.search(query, topK, true) ?? [];
  }

  /** Whether the company's searches go through the HNSW graph. */
  isApproximate(companyId: string): boolean {
    return this.companies.get(companyId)?.approximate ?? false;
  }

  async count(companyId: string): Promise<number> {
    return this.companies.get(companyId)?.documents.size ?? 0;
  }

  async close(): Promise<void> {
    await this.log?.close();
  }

  private requireLog(): AppendLog<LogRecord> {
    if (!this.log) throw new Error('vector index is closed');
    return this.log;
  }
}
