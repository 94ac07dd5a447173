import { randomUUID } from 'node:crypto';
import { promises as fs, rmSync } from 'node:fs';
import * as path from 'node:path';
import { LoggedIndex } from '@cs/append-log';
import { quantizeRows } from '@cs/embeddings';
import type { ChunkVector, VectorHit, VectorIndex } from '@cs/ports';
import { AttributeIndex, isEmptyFilter, type SearchAttributes, type SearchFilter } from '@cs/search-filters';
import { Index as HnswIndex, MetricKind, ScalarKind, exactSearch } from 'usearch';

/** `a`: the CV's attributes for filters (absent in records written before they were kept; an `attr` record sets them later). */
type LogRecord =
  | { op: 'put'; c: string; d: string; chunks: number[]; v: string; a?: SearchAttributes }
  | { op: 'attr'; c: string; d: string; a: SearchAttributes }
  | { op: 'del'; c: string; d: string };

/** Below this many documents an exact scan is as fast as the graph and never misses. */
export const DEFAULT_ANN_THRESHOLD = 5_000;

/** HNSW graph settings (usearch): recall against exact search is printed by `npm run bench`. */
export const HNSW = { connectivity: 16, expansionAdd: 128, expansionSearch: 256 } as const;

/**
 * A filtered search ranks the CVs that pass exactly when they are at most this share of the
 * company (or fewer than the graph threshold): a scan of so few rows costs less than the graph,
 * and a very selective filter loses nothing to approximate search. Above it, the graph is asked
 * for enough neighbours that the passing ones fill the top K (see `searchFiltered`).
 */
export const FILTERED_EXACT_SHARE = 0.1;

interface StoredDocument {
  key: bigint;
  /** Row of the company's matrix of whole-document vectors (the vectors that rank documents). */
  row: number;
  /**
   * Passage vectors, for naming the passage closest to a query: one signed byte a component
   * with a scale a passage, since a CV has about 15 of them (at 100k CVs, 150 MB instead of 600).
   */
  chunkIndexes: number[];
  chunkCodes: Int8Array;
  chunkScales: Float32Array;
}

/**
 * A company's documents as a snapshot holds them: flat arrays, row by row, which restore in a
 * fraction of the time the log's base64 JSON takes to read. Its graph is saved in its own file.
 */
interface CompanySnapshot {
  ids: string[];
  keys: BigUint64Array;
  nextKey: bigint;
  /** Passages of each row, and their indexes, codes and scales one row after another. */
  chunkCounts: Uint32Array;
  chunkIndexes: Int32Array;
  chunkCodes: Int8Array;
  chunkScales: Float32Array;
  matrix: Float32Array;
  /** The graph's file in the index's folder, when the company had a graph. */
  graph: string | null;
  /**
   * Slots of removed documents in that graph, scrubbed before it was saved (see
   * `scrubFreedSlots`); absent from snapshots made before that, whose graph is built again.
   */
  graphFreeSlots?: number;
  /** Each row's attributes (null where none were given); absent in snapshots saved before they were kept. */
  attributes?: (SearchAttributes | null)[];
}

/** Raised when the snapshot's layout changes: an older snapshot is then ignored, and the log replays. */
const SNAPSHOT_LAYOUT = 1;

interface IndexSnapshot {
  dims: number;
  companies: [companyId: string, company: CompanySnapshot][];
}

/**
 * Keys of the placeholder vectors that overwrite removed documents' slots in a graph: far above
 * any document's key, which counts up from 1.
 */
const SCRUB_KEYS_FROM = 1n << 63n;

/** Four running sums, which the JIT pipelines: passages are scored for every result. */
const dotAt = (a: Float32Array, b: Int8Array, offset: number, dims: number) => {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dims; d += 4) {
    s0 += a[d] * b[offset + d];
    s1 += a[d + 1] * b[offset + d + 1];
    s2 += a[d + 2] * b[offset + d + 2];
    s3 += a[d + 3] * b[offset + d + 3];
  }
  for (; d < dims; d++) s0 += a[d] * b[offset + d];
  return s0 + s1 + s2 + s3;
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
  /**
   * usearch only marks a removed vector's slot free, and keeps its bytes until an added vector
   * reuses the slot: these count the graph's free slots, and whether one may still hold a removed
   * document's vector, which must not reach the next graph file (see `scrubFreedSlots`).
   */
  private graphFreeSlots = 0;
  private graphHoldsRemoved = false;
  private scrubPasses = 0;
  /** Document vectors row by row, for exact search with SIMD; a removal moves the last row into its place. */
  private matrix: Float32Array = new Float32Array(0);
  private readonly rowOwners: string[] = [];
  /** What filters read of each row's CV, row by row: it moves with the rows. */
  private readonly attributes = new AttributeIndex((documentId) => this.documents.get(documentId)?.row);

  constructor(
    private readonly dims: number,
    private readonly annThreshold: number,
    /** While the log replays, the graph waits: built once at the end, on every core, it is several times faster. */
    private deferGraph: boolean,
  ) {}

  /** The replay is over: the graph is built now if the company is big enough for one. */
  ready(): void {
    this.deferGraph = false;
    if (!this.graph && this.documents.size > this.annThreshold) this.buildGraph();
  }

  put(documentId: string, vectors: ChunkVector[], attributes?: SearchAttributes): void {
    this.remove(documentId);
    const whole = vectors.find((v) => v.chunkIndex === -1)?.vector;
    if (!whole) return; // nothing ranks a document without its whole-document vector
    const passages = vectors.filter((v) => v.chunkIndex >= 0);
    const chunks = new Float32Array(passages.length * this.dims);
    passages.forEach((p, i) => chunks.set(p.vector, i * this.dims));
    const { codes, scales } = quantizeRows(chunks, this.dims);
    const doc: StoredDocument = {
      key: this.nextKey++,
      row: this.rowOwners.length,
      chunkIndexes: passages.map((p) => p.chunkIndex),
      chunkCodes: codes,
      chunkScales: scales,
    };
    if (this.matrix.length < (doc.row + 1) * this.dims) {
      const grown = new Float32Array(Math.max(64, Math.ceil(1.5 * (doc.row + 1))) * this.dims); // half again: at 100k CVs the slack stays under 20 MB
      grown.set(this.matrix);
      this.matrix = grown;
    }
    this.matrix.set(whole, doc.row * this.dims);
    this.rowOwners.push(documentId);
    this.documents.set(documentId, doc);
    this.byKey.set(doc.key, documentId);
    this.attributes.set(doc.row, attributes ?? null);
    if (this.graph) {
      this.graph.add(doc.key, this.vectorOf(doc));
      this.graphFreeSlots = Math.max(0, this.graphFreeSlots - 1);
    } else if (!this.deferGraph && this.documents.size > this.annThreshold) this.buildGraph();
  }

  /** Whether the company holds the CV (whose attributes are then replaced). */
  setAttributes(documentId: string, attributes: SearchAttributes): boolean {
    const doc = this.documents.get(documentId);
    if (!doc) return false;
    this.attributes.set(doc.row, attributes);
    return true;
  }

  remove(documentId: string): number {
    const doc = this.documents.get(documentId);
    if (!doc) return 0;
    this.documents.delete(documentId);
    this.byKey.delete(doc.key);
    if (this.graph) {
      this.graph.remove(doc.key);
      this.graphFreeSlots++;
      this.graphHoldsRemoved = true;
    }
    const last = this.rowOwners.length - 1;
    if (doc.row !== last) {
      const moved = this.documents.get(this.rowOwners[last])!;
      this.matrix.copyWithin(doc.row * this.dims, last * this.dims, (last + 1) * this.dims);
      moved.row = doc.row;
      this.rowOwners[doc.row] = this.rowOwners[last];
      this.attributes.move(last, doc.row);
    } else this.attributes.clear(last);
    this.rowOwners.pop();
    return 1 + doc.chunkIndexes.length;
  }

  /** Its documents as flat arrays; the graph, if any, is saved to `graphFile`. */
  snapshot(graphFile: string | null): CompanySnapshot {
    const rows = this.rowOwners.map((id) => this.documents.get(id)!);
    const chunkTotal = rows.reduce((n, doc) => n + doc.chunkIndexes.length, 0);
    const snapshot: CompanySnapshot = {
      ids: [...this.rowOwners],
      keys: BigUint64Array.from(rows, (doc) => doc.key),
      nextKey: this.nextKey,
      chunkCounts: Uint32Array.from(rows, (doc) => doc.chunkIndexes.length),
      chunkIndexes: new Int32Array(chunkTotal),
      chunkCodes: new Int8Array(chunkTotal * this.dims),
      chunkScales: new Float32Array(chunkTotal),
      matrix: this.matrix.slice(0, rows.length * this.dims),
      graph: null,
      attributes: rows.map((_, row) => this.attributes.attributesAt(row)),
    };
    let at = 0;
    for (const doc of rows) {
      snapshot.chunkIndexes.set(doc.chunkIndexes, at);
      snapshot.chunkCodes.set(doc.chunkCodes, at * this.dims);
      snapshot.chunkScales.set(doc.chunkScales, at);
      at += doc.chunkIndexes.length;
    }
    if (this.graph && graphFile) {
      this.scrubFreedSlots();
      this.graph.save(graphFile);
      snapshot.graph = path.basename(graphFile);
      snapshot.graphFreeSlots = this.graphFreeSlots;
    }
    return snapshot;
  }

  /** The company as `snapshot` holds it; throws when its graph does not match its documents. */
  static restore(dims: number, annThreshold: number, snapshot: CompanySnapshot, folder: string): CompanyVectors {
    const company = new CompanyVectors(dims, annThreshold, true);
    let at = 0;
    snapshot.ids.forEach((documentId, row) => {
      const count = snapshot.chunkCounts[row];
      const doc: StoredDocument = {
        key: snapshot.keys[row],
        row,
        chunkIndexes: Array.from(snapshot.chunkIndexes.subarray(at, at + count)),
        chunkCodes: snapshot.chunkCodes.subarray(at * dims, (at + count) * dims),
        chunkScales: snapshot.chunkScales.subarray(at, at + count),
      };
      at += count;
      company.documents.set(documentId, doc);
      company.byKey.set(doc.key, documentId);
      company.rowOwners.push(documentId);
      company.attributes.set(row, snapshot.attributes?.[row] ?? null);
    });
    // A copy of its own: usearch's exact search reads a matrix from the start of its buffer, and a
    // deserialised array is a view into the snapshot's bytes (and of another realm in tests).
    company.matrix = new Float32Array(snapshot.matrix.length);
    company.matrix.set(snapshot.matrix);
    company.nextKey = snapshot.nextKey;
    // A graph saved before free slots were scrubbed is left unread, and removed (its free slots may
    // hold removed documents' vectors): `ready` builds a new one once the log's tail has replayed.
    const freeSlots = snapshot.graphFreeSlots;
    if (snapshot.graph && freeSlots === undefined) rmSync(path.join(folder, snapshot.graph), { force: true });
    else if (snapshot.graph && freeSlots !== undefined) {
      company.graphFreeSlots = freeSlots;
      const graph = company.newGraph();
      graph.load(path.join(folder, snapshot.graph));
      if (graph.size() !== snapshot.ids.length)
        throw new Error(`graph ${snapshot.graph} holds ${graph.size()} vectors, the snapshot ${snapshot.ids.length}`);
      company.graph = graph;
    }
    return company;
  }

  private newGraph(): HnswIndex {
    return new HnswIndex({
      dimensions: this.dims,
      metric: MetricKind.Cos,
      quantization: ScalarKind.F32,
      multi: false,
      connectivity: HNSW.connectivity,
      expansion_add: HNSW.expansionAdd,
      expansion_search: HNSW.expansionSearch,
    });
  }

  /**
   * Fills every free slot of the graph with a placeholder (a live document's vector, so the
   * removed nodes that usearch keeps as waypoints stay among the documents; each pass takes other
   * rows, spread over all of them), then removes the placeholders: the slots stay free, and no
   * removed document's vector is left in them. This is how a deleted CV's vector leaves the graph
   * file that the next snapshot saves. Once free slots pass a quarter of the documents, a new
   * graph costs about as much and holds none.
   */
  private scrubFreedSlots(): void {
    if (!this.graph || !this.graphHoldsRemoved) return;
    const count = this.graphFreeSlots;
    const rows = this.rowOwners.length;
    if (count > rows / 4) {
      this.buildGraph();
      return;
    }
    this.graphHoldsRemoved = false;
    if (count === 0) return; // every freed slot was taken by a document since
    const keys = new BigUint64Array(count);
    const placeholders = new Float32Array(count * this.dims);
    const offset = (this.scrubPasses++ * 7919) % rows;
    for (let i = 0; i < count; i++) {
      keys[i] = SCRUB_KEYS_FROM + BigInt(i);
      const row = (offset + Math.floor(((i + 0.5) * rows) / count)) % rows;
      placeholders.set(this.matrix.subarray(row * this.dims, (row + 1) * this.dims), i * this.dims);
    }
    this.graph.add(keys, placeholders, 0);
    this.graph.remove(keys);
  }

  private buildGraph(): void {
    this.graphFreeSlots = 0;
    this.graphHoldsRemoved = false;
    this.graph = this.newGraph();
    const rows = this.rowOwners.length;
    const keys = BigUint64Array.from(this.rowOwners, (id) => this.documents.get(id)!.key);
    if (rows > 0) this.graph.add(keys, this.matrix.subarray(0, rows * this.dims), 0);
  }

  /** A view of the document's row: valid until the next put or remove moves rows. */
  private vectorOf(doc: StoredDocument): Float32Array {
    return this.matrix.subarray(doc.row * this.dims, (doc.row + 1) * this.dims);
  }

  /** A copy of the document's whole-document vector, or null when the company lacks it. */
  wholeVector(documentId: string): Float32Array | null {
    const doc = this.documents.get(documentId);
    return doc ? this.vectorOf(doc).slice() : null;
  }

  get approximate(): boolean {
    return this.graph !== null;
  }

  search(query: Float32Array, limit: number, exact = false, filter?: SearchFilter | null): VectorHit[] {
    const ranked =
      filter && !isEmptyFilter(filter)
        ? this.searchFiltered(query, limit, filter, exact)
        : this.graph && !exact
          ? this.searchGraph(query, limit)
          : this.scan(query, limit);
    return ranked.map(([documentId, score]) => ({ documentId, score, chunkIndex: this.closestChunk(documentId, query) }));
  }

  /**
   * The CVs that pass, ranked: exactly when few pass (FILTERED_EXACT_SHARE); else the graph's
   * nearest neighbours, as many as should hold the top K among them at the share that passes
   * (twice over), and an exact scan of the passing rows when they still fall short.
   */
  private searchFiltered(query: Float32Array, limit: number, filter: SearchFilter, exact: boolean): [string, number][] {
    const passes = this.attributes.passing(filter);
    const passing: number[] = [];
    for (let row = 0; row < this.rowOwners.length; row++) if (passes[row] === 1) passing.push(row);
    const wanted = Math.min(limit, passing.length);
    if (wanted === 0) return [];
    const share = passing.length / this.rowOwners.length;
    if (this.graph && !exact && share > FILTERED_EXACT_SHARE && passing.length > this.annThreshold) {
      const found = this.searchGraph(query, Math.ceil((2 * limit) / share)).filter(([id]) => passes[this.documents.get(id)!.row] === 1);
      if (found.length >= wanted) return found.slice(0, wanted);
    }
    return this.scanRows(query, passing, wanted);
  }

  /** The `count` best of these rows by inner product (cosine: the vectors are unit length), with SIMD; ties to the CV indexed first. */
  private scanRows(query: Float32Array, rows: readonly number[], count: number): [string, number][] {
    const gathered = new Float32Array(rows.length * this.dims);
    rows.forEach((row, i) => gathered.set(this.matrix.subarray(row * this.dims, (row + 1) * this.dims), i * this.dims));
    const found = exactSearch(gathered, query, this.dims, count, MetricKind.IP, 1);
    const hits = Array.from(found.keys, (at, i) => ({ documentId: this.rowOwners[rows[Number(at)]], score: 1 - found.distances[i] }));
    const order = (id: string) => this.documents.get(id)!.key;
    hits.sort((a, b) => b.score - a.score || (order(a.documentId) < order(b.documentId) ? -1 : 1));
    return hits.map((h) => [h.documentId, h.score]);
  }

  private searchGraph(query: Float32Array, limit: number): [string, number][] {
    const found = this.graph!.search(query, Math.min(limit, this.documents.size), 0);
    const ranked: [string, number][] = [];
    found.keys.forEach((key, i) => {
      const documentId = this.byKey.get(key);
      if (documentId !== undefined) ranked.push([documentId, 1 - found.distances[i]]);
    });
    return ranked;
  }

  private scan(query: Float32Array, limit: number): [string, number][] {
    const rows = this.rowOwners.length;
    const count = Math.min(limit, rows);
    if (count <= 0) return [];
    const found = exactSearch(this.matrix.subarray(0, rows * this.dims), query, this.dims, count, MetricKind.IP, 1);
    const hits = Array.from(found.keys, (row, i) => ({ documentId: this.rowOwners[Number(row)], score: 1 - found.distances[i] }));
    // Ties go to the document indexed first, whatever order the scan met them in.
    const order = (id: string) => this.documents.get(id)!.key;
    hits.sort((a, b) => b.score - a.score || (order(a.documentId) < order(b.documentId) ? -1 : 1));
    return hits.map((h) => [h.documentId, h.score]);
  }

  private closestChunk(documentId: string, query: Float32Array): number {
    const doc = this.documents.get(documentId)!;
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < doc.chunkIndexes.length; i++) {
      const score = doc.chunkScales[i] * dotAt(query, doc.chunkCodes, i * this.dims, this.dims);
      if (score > bestScore) {
        best = doc.chunkIndexes[i];
        bestScore = score;
      }
    }
    return best;
  }

  *records(companyId: string): Generator<LogRecord> {
    for (const [documentId, doc] of this.documents) {
      const attributes = this.attributes.attributesAt(doc.row);
      const packed = new Float32Array(this.dims * (1 + doc.chunkIndexes.length));
      packed.set(this.vectorOf(doc), 0);
      // Compaction writes the passages as read back from their bytes; quantising those again gives the same bytes.
      for (let i = 0; i < doc.chunkCodes.length; i++)
        packed[this.dims + i] = doc.chunkCodes[i] * doc.chunkScales[Math.floor(i / this.dims)];
      yield {
        op: 'put',
        c: companyId,
        d: documentId,
        chunks: [-1, ...doc.chunkIndexes],
        v: encode(packed),
        ...(attributes ? { a: attributes } : {}),
      };
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
  private companies = new Map<string, CompanyVectors>();
  private log: LoggedIndex<LogRecord, IndexSnapshot, number> | null = null;

  private constructor(
    private readonly dims: number,
    private readonly annThreshold: number,
    private readonly folder: string,
  ) {}

  /**
   * Opens the index in `dataDir/vectors`: from the snapshot saved at the last close and the
   * records logged after it, or from the whole log when there is no usable snapshot.
   */
  static open(dataDir: string, dims: number, annThreshold = DEFAULT_ANN_THRESHOLD): Promise<EmbeddedVectorIndex> {
    return EmbeddedVectorIndex.openFolder(path.join(dataDir, 'vectors'), dims, annThreshold);
  }

  /** Opens the index whose log and snapshot are in `folder` (created when missing). */
  static async openFolder(folder: string, dims: number, annThreshold = DEFAULT_ANN_THRESHOLD): Promise<EmbeddedVectorIndex> {
    const index = new EmbeddedVectorIndex(dims, annThreshold, folder);
    index.log = await LoggedIndex.open(
      path.join(folder, 'vectors.jsonl'),
      SNAPSHOT_LAYOUT,
      {
        apply: (record, replaying) => index.apply(record, replaying),
        restore: (snapshot) => index.restore(snapshot),
        ready: () => index.companies.forEach((company) => company.ready()),
        liveRecords: () => [...index.companies.values()].reduce((n, c) => n + c.documents.size, 0),
        records: () => index.allRecords(),
        snapshot: () => index.snapshot(),
        saved: (snapshot) => index.removeGraphsBut(snapshot),
      },
      'vector index',
    );
    return index;
  }

  /** Replaces the (empty) memory with the snapshot's, or throws and leaves it as it was. */
  private restore(snapshot: IndexSnapshot): void {
    if (snapshot.dims !== this.dims) throw new Error(`snapshot has ${snapshot.dims} dimensions, index has ${this.dims}`);
    this.companies = new Map(
      snapshot.companies.map(([companyId, company]) => [
        companyId,
        CompanyVectors.restore(this.dims, this.annThreshold, company, this.folder),
      ]),
    );
  }

  /** The memory as a snapshot, each graph saved in a file of its own beside the log. */
  private snapshot(): IndexSnapshot {
    const stamp = randomUUID().slice(0, 8);
    const companies = [...this.companies].map(
      ([companyId, c], i) => [companyId, c.snapshot(path.join(this.folder, `graph-${stamp}-${i}.usearch`))] as [string, CompanySnapshot],
    );
    return { dims: this.dims, companies };
  }

  /** Once the snapshot is saved, the graph files of older ones go. */
  private async removeGraphsBut(snapshot: IndexSnapshot): Promise<void> {
    const kept = new Set(snapshot.companies.map(([, c]) => c.graph));
    for (const file of await fs.readdir(this.folder)) {
      if (file.startsWith('graph-') && !kept.has(file)) await fs.rm(path.join(this.folder, file), { force: true });
    }
  }

  /** While the log replays, a new company defers its graph until `ready`. */
  private company(companyId: string, replaying: boolean): CompanyVectors {
    let c = this.companies.get(companyId);
    if (!c) {
      c = new CompanyVectors(this.dims, this.annThreshold, replaying);
      this.companies.set(companyId, c);
    }
    return c;
  }

  private apply(record: LogRecord, replaying: boolean): number {
    if (record.op === 'del') return this.companies.get(record.c)?.remove(record.d) ?? 0;
    if (record.op === 'attr') return this.companies.get(record.c)?.setAttributes(record.d, record.a) ? 1 : 0;
    const flat = decode(record.v);
    const vectors = record.chunks.map((chunkIndex, i) => ({
      chunkIndex,
      vector: flat.subarray(i * this.dims, (i + 1) * this.dims),
    }));
    this.company(record.c, replaying).put(record.d, vectors, record.a);
    return vectors.length;
  }

  private *allRecords(): Generator<LogRecord> {
    for (const [companyId, c] of this.companies) yield* c.records(companyId);
  }

  async upsert(companyId: string, documentId: string, vectors: ChunkVector[], attributes?: SearchAttributes): Promise<void> {
    for (const { vector } of vectors) {
      if (vector.length !== this.dims) throw new Error(`vector has ${vector.length} dimensions, index has ${this.dims}`);
    }
    const packed = new Float32Array(vectors.length * this.dims);
    vectors.forEach((v, i) => packed.set(v.vector, i * this.dims));
    await this.requireLog().write({
      op: 'put',
      c: companyId,
      d: documentId,
      chunks: vectors.map((v) => v.chunkIndex),
      v: encode(packed),
      ...(attributes ? { a: attributes } : {}),
    });
  }

  async setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean> {
    if (!this.companies.get(companyId)?.documents.has(documentId)) return false;
    return (await this.requireLog().write({ op: 'attr', c: companyId, d: documentId, a: attributes })) > 0;
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    if (!this.companies.get(companyId)?.documents.has(documentId)) return 0;
    return this.requireLog().write({ op: 'del', c: companyId, d: documentId });
  }

  async search(companyId: string, query: Float32Array, topK: number, filter?: SearchFilter | null): Promise<VectorHit[]> {
    return this.companies.get(companyId)?.search(query, topK, false, filter) ?? [];
  }

  async documentVectors(companyId: string, documentIds: readonly string[]): Promise<Map<string, Float32Array>> {
    const company = this.companies.get(companyId);
    const vectors = new Map<string, Float32Array>();
    for (const documentId of documentIds) {
      const vector = company?.wholeVector(documentId);
      if (vector) vectors.set(documentId, vector);
    }
    return vectors;
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

  /** Rewrites the log without deleted CVs' vectors now (LoggedIndex does it on its erasing schedule). */
  compact(): Promise<void> {
    return this.requireLog().compact();
  }

  /** Closes the log after saving a snapshot, which lets the next open skip most of it. */
  async close(): Promise<void> {
    await this.log?.close();
  }

  private requireLog(): LoggedIndex<LogRecord, IndexSnapshot, number> {
    if (!this.log) throw new Error('vector index is closed');
    return this.log;
  }
}
