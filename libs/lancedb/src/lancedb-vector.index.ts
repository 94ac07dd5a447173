import * as path from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { ChunkVector, VectorHit, VectorIndex } from '@cs/ports';
import { Field, FixedSizeList, Float32, Int32, Schema, Utf8, type Table as ArrowTable } from 'apache-arrow';
import { LanceCompanyTables, documentIdIn, ensureDocumentIdIndex, sqlString, type CompanyTablesOptions, type Row } from './company-tables';

/** Up to this many documents a company is searched exactly (a flat scan), as the embedded index does. */
export const DEFAULT_ANN_THRESHOLD = 5_000;

/**
 * The ANN index over a company's whole-document vectors, and how a search reads it. By default
 * IVF_HNSW_SQ: an HNSW graph per IVF partition over 8-bit scalar-quantised vectors. Either kind's
 * candidates are scored again with their float vectors (`refineFactor`), so scores are exact and
 * the order of the top is too. `bench/vector-stores.ts` prints the recall against exact search.
 */
export interface AnnSettings {
  /** 'ivf-pq' (product quantisation, `subVectors` codes a vector) is kept to be measured against. */
  kind: 'ivf-hnsw-sq' | 'ivf-pq';
  /** Documents per IVF partition when the index is trained (with HNSW, each partition is one graph). */
  rowsPerPartition: number;
  /** HNSW's neighbours a node, and candidates while building. */
  m: number;
  efConstruction: number;
  /** IVF-PQ's sub-vectors: the dimension must be a multiple of it. */
  subVectors: number;
  /** Partitions searched. */
  nprobes: number;
  /** Candidates the graph search keeps: at least this, and at least refineFactor × topK. */
  ef: number;
  /** Candidates re-scored with the float vectors: refineFactor × topK. */
  refineFactor: number;
  /** The index is trained again when the company has grown this many times over since it was, */
  retrainGrowth: number;
  /** or when it has more than this many delta indexes (see ensureVectorIndex). */
  maxSegments: number;
}

export const DEFAULT_ANN: AnnSettings = {
  kind: 'ivf-hnsw-sq',
  rowsPerPartition: 250_000,
  m: 20,
  efConstruction: 300,
  subVectors: 50,
  nprobes: 4,
  ef: 200,
  refineFactor: 2,
  retrainGrowth: 2,
  maxSegments: 4,
};

export interface LanceDbVectorIndexOptions {
  /** Documents above which a company's searches go through the ANN index (default DEFAULT_ANN_THRESHOLD). */
  annThreshold?: number;
  ann?: Partial<AnnSettings>;
  /** Passed to the tables (tests and benchmarks shorten or lengthen them). */
  tables?: Pick<CompanyTablesOptions, 'optimizeAfterRows' | 'optimizeAfterMs' | 'eraseEveryMs' | 'session'>;
}

const VECTOR_INDEX_PREFIX = 'vector_trained_';

const schemaOf = (dimensions: number) =>
  new Schema([
    new Field('document_id', new Utf8(), false),
    new Field('chunk', new Int32(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);

/** Each row's vector of an Arrow result (a view of the result's buffer), with its document and chunk. */
function* vectorRows(table: ArrowTable): Generator<{ documentId: string; chunk: number; vector: Float32Array }> {
  const ids = table.getChild('document_id')!;
  const chunks = table.getChild('chunk');
  const vectors = table.getChild('vector')!;
  for (let i = 0; i < table.numRows; i++) {
    yield {
      documentId: ids.get(i) as string,
      chunk: chunks ? (chunks.get(i) as number) : -1,
      vector: (vectors.get(i) as { toArray(): Float32Array }).toArray(),
    };
  }
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let d = 0; d < a.length; d++) s += a[d] * b[d];
  return s;
};

/**
 * A dense model's vectors in LanceDB, one folder: `documents/` holds each document's whole
 * vector (chunk -1), which ranks it, and `documents/`'s tables carry the ANN index once a company
 * passes the threshold; `passages/` holds the passage vectors, read only for the documents a
 * search returns, to name the passage closest to the query. Apart, the ANN index covers the
 * document vectors alone (a CV has about 15 passages: one table would index sixteen times as
 * many rows and filter most of them out at every search).
 */
export class LanceDbVectorIndex implements VectorIndex {
  private constructor(
    private readonly dimensions: number,
    private readonly documents: LanceCompanyTables,
    private readonly passages: LanceCompanyTables,
    private readonly ann: AnnSettings,
  ) {}

  /** Opens the vectors in `folder` (created when missing), of `dimensions` components each. */
  static async open(folder: string, dimensions: number, options: LanceDbVectorIndexOptions = {}): Promise<LanceDbVectorIndex> {
    const annThreshold = options.annThreshold ?? DEFAULT_ANN_THRESHOLD;
    const ann = { ...DEFAULT_ANN, ...options.ann };
    const schema = schemaOf(dimensions);
    const documents = await LanceCompanyTables.open(path.join(folder, 'documents'), {
      name: 'vector set',
      schema,
      ensureIndexes: async (table, rows) => {
        await ensureDocumentIdIndex(table);
        await ensureVectorIndex(table, rows, annThreshold, ann);
      },
      ...options.tables,
    });
    try {
      const passages = await LanceCompanyTables.open(path.join(folder, 'passages'), {
        name: 'vector set (passages)',
        schema,
        ensureIndexes: ensureDocumentIdIndex,
        ...options.tables,
      });
      return new LanceDbVectorIndex(dimensions, documents, passages, ann);
    } catch (error) {
      await documents.close();
      throw error;
    }
  }

  async upsert(companyId: string, documentId: string, vectors: ChunkVector[]): Promise<void> {
    for (const { vector } of vectors) {
      if (vector.length !== this.dimensions) throw new Error(`vector has ${vector.length} dimensions, index has ${this.dimensions}`);
    }
    const rows = (chunks: ChunkVector[]): Row[] =>
      chunks.map((v) => ({ document_id: documentId, chunk: v.chunkIndex, vector: Array.from(v.vector) }));
    // Passages first: a document is found through its whole vector, which then has its passages beside it.
    await this.passages.put(companyId, documentId, rows(vectors.filter((v) => v.chunkIndex >= 0)));
    // Nothing ranks a document without its whole-document vector: then it has no row here.
    await this.documents.put(companyId, documentId, rows(vectors.filter((v) => v.chunkIndex === -1).slice(0, 1)));
  }

  /** Removes the document; resolves with the number of its vectors that were stored. */
  async delete(companyId: string, documentId: string): Promise<number> {
    const passages = (await this.passages.read(companyId, (table) => table.countRows(`document_id = ${sqlString(documentId)}`))) ?? 0;
    const removed = await this.documents.remove(companyId, documentId);
    await this.passages.remove(companyId, documentId);
    return removed + (removed > 0 ? passages : 0);
  }

  async search(companyId: string, query: Float32Array, topK: number): Promise<VectorHit[]> {
    return this.searchDocuments(companyId, query, topK, false);
  }

  /** Exact search whatever the company's size: the reference the bench measures the ANN index's recall against. */
  searchExact(companyId: string, query: Float32Array, topK: number): Promise<VectorHit[]> {
    return this.searchDocuments(companyId, query, topK, true);
  }

  /** Whether the company's searches go through the ANN index. */
  async isApproximate(companyId: string): Promise<boolean> {
    return (await this.documents.read(companyId, async (table) => (await vectorIndexesOf(table)).length > 0)) ?? false;
  }

  private async searchDocuments(companyId: string, query: Float32Array, topK: number, exact: boolean): Promise<VectorHit[]> {
    if (topK <= 0) return [];
    const ranked =
      (await this.documents.read(companyId, async (table) => {
        // Lance's dot distance is 1 - q·v: with unit vectors, one minus the cosine.
        let search = table.vectorSearch(Array.from(query)).distanceType('dot').select(['document_id', '_distance']).limit(topK);
        if (exact) search = search.bypassVectorIndex();
        else {
          // The graph is asked for refineFactor × topK candidates, so its ef must be at least that.
          search = search
            .nprobes(this.ann.nprobes)
            .ef(Math.max(this.ann.ef, topK * this.ann.refineFactor))
            .refineFactor(this.ann.refineFactor);
        }
        const found = await search.toArrow();
        const ids = found.getChild('document_id')!;
        const distances = found.getChild('_distance')!;
        return Array.from({ length: found.numRows }, (_, i) => ({
          documentId: ids.get(i) as string,
          score: 1 - (distances.get(i) as number),
        }));
      })) ?? [];
    // Ties go by id, so that equal scores come back in one order whatever path found them.
    ranked.sort((a, b) => b.score - a.score || (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : 0));
    const closest = await this.closestPassages(
      companyId,
      ranked.map((h) => h.documentId),
      query,
    );
    return ranked.map((h) => ({ ...h, chunkIndex: closest.get(h.documentId) ?? -1 }));
  }

  /** For each document, its passage closest to the query (documents without passages are left out). */
  private async closestPassages(companyId: string, documentIds: string[], query: Float32Array): Promise<Map<string, number>> {
    const best = new Map<string, { chunk: number; score: number }>();
    if (documentIds.length === 0) return new Map();
    const rows = await this.passages.read(companyId, (table) =>
      table.query().where(documentIdIn(documentIds)).select(['document_id', 'chunk', 'vector']).toArrow(),
    );
    if (rows) {
      for (const row of vectorRows(rows)) {
        const score = dot(query, row.vector);
        const held = best.get(row.documentId);
        if (!held || score > held.score || (score === held.score && row.chunk < held.chunk))
          best.set(row.documentId, { chunk: row.chunk, score });
      }
    }
    return new Map([...best].map(([id, { chunk }]) => [id, chunk]));
  }

  async documentVectors(companyId: string, documentIds: readonly string[]): Promise<Map<string, Float32Array>> {
    const vectors = new Map<string, Float32Array>();
    if (documentIds.length === 0) return vectors;
    const rows = await this.documents.read(companyId, (table) =>
      table.query().where(documentIdIn(documentIds)).select(['document_id', 'vector']).toArrow(),
    );
    if (rows) for (const row of vectorRows(rows)) vectors.set(row.documentId, row.vector.slice());
    return vectors;
  }

  async count(companyId: string): Promise<number> {
    return this.documents.count(companyId);
  }

  /** Rebuilds the tables that had deletions without them: no vector of a deleted CV stays in the folder. */
  async compact(companyId?: string): Promise<void> {
    await this.documents.compact(companyId);
    await this.passages.compact(companyId);
  }

  async close(): Promise<void> {
    await Promise.all([this.documents.close(), this.passages.close()]);
  }
}

/** The table's vector indexes (more than one only after a retrain cut off before the old one went), newest first. */
async function vectorIndexesOf(table: lancedb.Table): Promise<{ name: string; trainedRows: number }[]> {
  return (await table.listIndices())
    .filter((i) => i.columns.includes('vector'))
    .map((i) => ({
      name: i.name,
      trainedRows: i.name.startsWith(VECTOR_INDEX_PREFIX) ? Number(i.name.slice(VECTOR_INDEX_PREFIX.length)) : 0,
    }))
    .sort((a, b) => b.trainedRows - a.trainedRows);
}

/**
 * Trains the ANN index once the company passes the threshold, and again once it has grown
 * `retrainGrowth` times over (the partitions and the quantiser's ranges were learnt from the
 * rows there were then) or `optimize` has added more than `maxSegments` delta indexes to it:
 * each optimize indexes the new rows as a graph of their own, which every search then reads
 * (at 100k CVs, 19 of them doubled the search's time).
 */
async function ensureVectorIndex(table: lancedb.Table, rows: number, threshold: number, ann: AnnSettings): Promise<void> {
  if (rows <= threshold) return;
  const existing = await vectorIndexesOf(table);
  if (existing.length > 0) {
    const segments = (await table.indexStats(existing[0].name))?.numIndices ?? 1;
    if (rows < existing[0].trainedRows * ann.retrainGrowth && segments <= ann.maxSegments) return;
  }
  const name = `${VECTOR_INDEX_PREFIX}${rows}`;
  const numPartitions = Math.max(1, Math.round(rows / ann.rowsPerPartition));
  // An index of another name is added beside the old one (replace only replaces one of the same name).
  await table.createIndex('vector', {
    name,
    replace: true,
    config:
      ann.kind === 'ivf-pq'
        ? lancedb.Index.ivfPq({ distanceType: 'dot', numPartitions, numSubVectors: ann.subVectors })
        : lancedb.Index.hnswSq({ distanceType: 'dot', numPartitions, m: ann.m, efConstruction: ann.efConstruction }),
  });
  for (const old of existing) if (old.name !== name) await table.dropIndex(old.name);
}
