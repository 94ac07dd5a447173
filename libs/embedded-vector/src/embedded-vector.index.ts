import * as path from 'node:path';
import { AppendLog } from '@cs/append-log';
import type { ChunkVector, VectorHit, VectorIndex } from '@cs/ports';

type LogRecord =
  | { op: 'put'; c: string; d: string; chunks: number[]; v: string }
  | { op: 'del'; c: string; d: string };

/** One company's vectors: rows of a growable matrix, freed rows reused. */
class CompanyVectors {
  matrix: Float32Array;
  rowDoc: string[] = [];
  rowChunk: number[] = [];
  readonly rowsOf = new Map<string, number[]>();
  private readonly free: number[] = [];

  constructor(private readonly dims: number) {
    this.matrix = new Float32Array(dims * 256);
  }

  put(documentId: string, vectors: ChunkVector[]): void {
    this.remove(documentId);
    const rows: number[] = [];
    for (const { chunkIndex, vector } of vectors) {
      const row = this.free.pop() ?? this.rowDoc.length;
      if ((row + 1) * this.dims > this.matrix.length) {
        const bigger = new Float32Array(this.matrix.length * 2);
        bigger.set(this.matrix);
        this.matrix = bigger;
      }
      this.matrix.set(vector, row * this.dims);
      this.rowDoc[row] = documentId;
      this.rowChunk[row] = chunkIndex;
      rows.push(row);
    }
    this.rowsOf.set(documentId, rows);
  }

  remove(documentId: string): number {
    const rows = this.rowsOf.get(documentId);
    if (!rows) return 0;
    for (const row of rows) {
      this.rowDoc[row] = '';
      this.free.push(row);
    }
    this.rowsOf.delete(documentId);
    return rows.length;
  }

  /** Exact search: every row's dot product (vectors are unit length), best row per document. */
  search(query: Float32Array, topK: number): VectorHit[] {
    const best = new Map<string, VectorHit>();
    const { dims, matrix } = this;
    for (let row = 0; row < this.rowDoc.length; row++) {
      const documentId = this.rowDoc[row];
      if (!documentId) continue;
      let score = 0;
      const base = row * dims;
      for (let d = 0; d < dims; d++) score += matrix[base + d] * query[d];
      const current = best.get(documentId);
      if (!current || score > current.score) best.set(documentId, { documentId, score, chunkIndex: this.rowChunk[row] });
    }
    return [...best.values()].sort((a, b) => b.score - a.score).slice(0, topK);
  }

  *records(companyId: string): Generator<LogRecord> {
    for (const [documentId, rows] of this.rowsOf) {
      const packed = new Float32Array(rows.length * this.dims);
      rows.forEach((row, i) => packed.set(this.matrix.subarray(row * this.dims, (row + 1) * this.dims), i * this.dims));
      yield { op: 'put', c: companyId, d: documentId, chunks: rows.map((r) => this.rowChunk[r]), v: encode(packed) };
    }
  }
}

const encode = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
const decode = (s: string) => {
  const bytes = Buffer.from(s, 'base64');
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
};

/**
 * The standalone vector index: exact cosine search over each company's vectors in memory,
 * made durable by an append-only log in the data folder.
 */
export class EmbeddedVectorIndex implements VectorIndex {
  private readonly companies = new Map<string, CompanyVectors>();

  private constructor(
    private readonly dims: number,
    private log: AppendLog<LogRecord> | null = null,
  ) {}

  static async open(dataDir: string, dims: number): Promise<EmbeddedVectorIndex> {
    const index = new EmbeddedVectorIndex(dims);
    const log = await AppendLog.open<LogRecord>(path.join(dataDir, 'vectors', 'vectors.jsonl'), (r) => index.apply(r));
    index.log = log;
    const live = [...index.companies.values()].reduce((n, c) => n + c.rowsOf.size, 0);
    if (log.size > 2 * live + 1000) await log.rewrite(index.allRecords());
    return index;
  }

  private company(companyId: string): CompanyVectors {
    let c = this.companies.get(companyId);
    if (!c) {
      c = new CompanyVectors(this.dims);
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
    const rows = this.companies.get(companyId)?.rowsOf.get(documentId)?.length ?? 0;
    if (rows === 0) return 0;
    const record: LogRecord = { op: 'del', c: companyId, d: documentId };
    await this.requireLog().append(record);
    return this.apply(record);
  }

  async search(companyId: string, query: Float32Array, topK: number): Promise<VectorHit[]> {
    return this.companies.get(companyId)?.search(query, topK) ?? [];
  }

  async count(companyId: string): Promise<number> {
    return this.companies.get(companyId)?.rowsOf.size ?? 0;
  }

  async close(): Promise<void> {
    await this.log?.close();
  }

  private requireLog(): AppendLog<LogRecord> {
    if (!this.log) throw new Error('vector index is closed');
    return this.log;
  }
}
