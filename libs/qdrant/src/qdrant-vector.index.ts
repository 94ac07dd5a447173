import { createHash } from 'node:crypto';
import type { ChunkVector, VectorHit, VectorIndex } from '@cs/ports';

/** The calls this adapter makes, as the Qdrant REST client offers them (narrowed for tests). */
export interface QdrantApi {
  collectionExists(name: string): Promise<{ exists: boolean }>;
  createCollection(name: string, body: Record<string, unknown>): Promise<unknown>;
  createPayloadIndex(name: string, body: Record<string, unknown>): Promise<unknown>;
  upsert(name: string, body: Record<string, unknown>): Promise<unknown>;
  delete(name: string, body: Record<string, unknown>): Promise<unknown>;
  count(name: string, body: Record<string, unknown>): Promise<{ count: number }>;
  retrieve(name: string, body: Record<string, unknown>): Promise<{ payload?: Record<string, unknown> | null; vector?: unknown }[]>;
  search(name: string, body: Record<string, unknown>): Promise<{ score: number; payload?: Record<string, unknown> | null }[]>;
  searchPointGroups(
    name: string,
    body: Record<string, unknown>,
  ): Promise<{ groups: { id: string | number; hits: { score: number; payload?: Record<string, unknown> | null }[] }[] }>;
}

/** Qdrant needs UUID or integer point ids: a stable UUID from company, document and chunk. */
export function pointId(companyId: string, documentId: string, chunkIndex: number): string {
  const h = createHash('sha1').update(`${companyId}/${documentId}/${chunkIndex}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const byCompany = (companyId: string, ...more: Record<string, unknown>[]) => ({
  must: [{ key: 'company_id', match: { value: companyId } }, ...more],
});

/**
 * The cluster's vector index: one Qdrant collection of chunk vectors (cosine), each point
 * carrying its company and document; every query filters on the company.
 */
export class QdrantVectorIndex implements VectorIndex {
  private constructor(
    private readonly api: QdrantApi,
    private readonly collection: string,
  ) {}

  static async open(api: QdrantApi, collection: string, dimensions: number): Promise<QdrantVectorIndex> {
    if (!(await api.collectionExists(collection)).exists) {
      await api.createCollection(collection, { vectors: { size: dimensions, distance: 'Cosine' } });
      for (const field of ['company_id', 'document_id'])
        await api.createPayloadIndex(collection, { field_name: field, field_schema: 'keyword', wait: true });
      await api.createPayloadIndex(collection, { field_name: 'chunk_index', field_schema: 'integer', wait: true });
    }
    return new QdrantVectorIndex(api, collection);
  }

  async upsert(companyId: string, documentId: string, vectors: ChunkVector[]): Promise<void> {
    await this.api.delete(this.collection, {
      wait: true,
      filter: byCompany(companyId, { key: 'document_id', match: { value: documentId } }),
    });
    if (vectors.length === 0) return;
    await this.api.upsert(this.collection, {
      wait: true,
      points: vectors.map((v) => ({
        id: pointId(companyId, documentId, v.chunkIndex),
        vector: [...v.vector],
        payload: { company_id: companyId, document_id: documentId, chunk_index: v.chunkIndex },
      })),
    });
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    const filter = byCompany(companyId, { key: 'document_id', match: { value: documentId } });
    const { count } = await this.api.count(this.collection, { filter, exact: true });
    if (count > 0) await this.api.delete(this.collection, { wait: true, filter });
    return count;
  }

  /**
   * Documents ranked by their whole-document point (chunk -1), then, in one grouped search over
   * just those documents' passages, the passage closest to the query for each.
   */
  async search(companyId: string, query: Float32Array, topK: number): Promise<VectorHit[]> {
    const vector = [...query];
    const wholes = await this.api.search(this.collection, {
      vector,
      filter: byCompany(companyId, { key: 'chunk_index', match: { value: -1 } }),
      limit: topK,
      with_payload: ['document_id'],
    });
    const ids = wholes.map((w) => String(w.payload?.document_id));
    if (ids.length === 0) return [];
    const { groups } = await this.api.searchPointGroups(this.collection, {
      vector,
      filter: byCompany(companyId, { key: 'document_id', match: { any: ids } }, { key: 'chunk_index', range: { gte: 0 } }),
      group_by: 'document_id',
      group_size: 1,
      limit: ids.length,
      with_payload: ['chunk_index'],
    });
    const closest = new Map(groups.map((g) => [String(g.id), Number(g.hits[0]?.payload?.chunk_index ?? -1)]));
    return wholes.map((w, i) => ({ documentId: ids[i], score: w.score, chunkIndex: closest.get(ids[i]) ?? -1 }));
  }

  /** Their whole-document points (chunk -1), by the point ids the document ids give. */
  async documentVectors(companyId: string, documentIds: readonly string[]): Promise<Map<string, Float32Array>> {
    const vectors = new Map<string, Float32Array>();
    if (documentIds.length === 0) return vectors;
    const points = await this.api.retrieve(this.collection, {
      ids: documentIds.map((documentId) => pointId(companyId, documentId, -1)),
      with_payload: ['document_id'],
      with_vector: true,
    });
    for (const point of points) {
      if (Array.isArray(point.vector)) vectors.set(String(point.payload?.document_id), Float32Array.from(point.vector as number[]));
    }
    return vectors;
  }

  /** Documents with vectors: each has one whole-document vector (chunk -1). */
  async count(companyId: string): Promise<number> {
    return (
      await this.api.count(this.collection, { filter: byCompany(companyId, { key: 'chunk_index', match: { value: -1 } }), exact: true })
    ).count;
  }

  async close(): Promise<void> {
    // the REST client holds no connection to close
  }
}
