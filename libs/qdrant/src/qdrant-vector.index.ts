import { createHash } from 'node:crypto';
import type { ChunkVector, VectorHit, VectorIndex } from '@cs/ports';
import {
  isEmptyFilter,
  phraseHolderIds,
  storedAttributeFields,
  type Range,
  type SearchAttributes,
  type SearchFilter,
} from '@cs/search-filters';

/** The calls this adapter makes, as the Qdrant REST client offers them (narrowed for tests). */
export interface QdrantApi {
  collectionExists(name: string): Promise<{ exists: boolean }>;
  createCollection(name: string, body: Record<string, unknown>): Promise<unknown>;
  /** `payload_schema`: the payload indexes the collection has, by field. */
  getCollection(name: string): Promise<{ payload_schema?: Record<string, unknown> }>;
  createPayloadIndex(name: string, body: Record<string, unknown>): Promise<unknown>;
  upsert(name: string, body: Record<string, unknown>): Promise<unknown>;
  setPayload(name: string, body: Record<string, unknown>): Promise<unknown>;
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

/** A condition of a Qdrant filter, as this adapter writes them (Qdrant's "Filtering" page). */
export type QdrantCondition =
  | { key: string; match: { value: string | number } | { any: string[] } }
  | { key: string; range: Range }
  | { key: string; geo_radius: { center: { lat: number; lon: number }; radius: number } }
  | { is_empty: { key: string } }
  | QdrantFilter;

export interface QdrantFilter {
  must?: QdrantCondition[];
  must_not?: QdrantCondition[];
  should?: QdrantCondition[];
}

/**
 * Every payload index of a collection, with its schema: the company, document and chunk that
 * scope each request, and each field filters read (so that Qdrant plans a filtered search from
 * the indexes, and ranks the passing points exactly when few pass).
 */
export const PAYLOAD_INDEXES: readonly [field: string, schema: 'keyword' | 'integer' | 'float' | 'geo'][] = [
  ['company_id', 'keyword'],
  ['document_id', 'keyword'],
  ['chunk_index', 'integer'],
  ['skills', 'keyword'],
  ['experience_years', 'float'],
  ['seniority', 'keyword'],
  ['domain', 'keyword'],
  ['degree', 'integer'],
  ['languages', 'keyword'],
  ['location', 'geo'],
  ['city', 'keyword'],
  ['region_code', 'keyword'],
  ['country_code', 'keyword'],
  ['document_date', 'integer'],
];

const matches = (key: string, value: string | number): QdrantCondition => ({ key, match: { value } });
const matchesAny = (key: string, any: string[]): QdrantCondition => ({ key, match: { any } });

/**
 * An inclusive range; with neither end, any value. A missing or null field matches no range, so
 * a CV that does not say fails it, as passesFilter has it.
 */
function inRange(key: string, range: Range): QdrantCondition {
  const bounds: Range = { ...(range.gte !== undefined ? { gte: range.gte } : {}), ...(range.lte !== undefined ? { lte: range.lte } : {}) };
  return Object.keys(bounds).length > 0 ? { key, range: bounds } : { must_not: [{ is_empty: { key } }] };
}

/**
 * The search filter as Qdrant conditions on the payload (passesFilter's semantics): `must` for
 * what a CV needs, `must_not` for what it may not hold, which a CV without attributes passes;
 * null when no CV can pass (a list of allowed values that is empty: Qdrant's `match.any` on an
 * empty list has not always matched nothing, so it is never sent).
 */
export function qdrantConditions(filter: SearchFilter): Required<Omit<QdrantFilter, 'should'>> | null {
  const must: QdrantCondition[] = [];
  const mustNot: QdrantCondition[] = [];
  for (const list of [filter.documentIds, filter.seniority, filter.domain]) if (list?.length === 0) return null;
  if (filter.documentIds) must.push(matchesAny('document_id', filter.documentIds));
  if (filter.excludeDocumentIds?.length) mustNot.push(matchesAny('document_id', filter.excludeDocumentIds));
  for (const [key, sets] of [
    ['skills', filter.skills],
    ['languages', filter.languages],
  ] as const) {
    if (!sets) continue;
    for (const value of sets.all) must.push(matches(key, value));
    // skills' `any` is below, with the skills matched as text
    if (sets.any.length > 0 && key === 'languages') must.push(matchesAny(key, sets.any));
    if ('none' in sets && sets.none.length > 0) mustNot.push(matchesAny(key, sets.none));
  }
  if (filter.skills) {
    // Skills matched as text are the ids of the CVs holding them; `any` holds by a skill or by one of them.
    const phrases = phraseHolderIds(filter.skills);
    if (phrases?.all?.length === 0) return null;
    if (phrases?.all) must.push(matchesAny('document_id', phrases.all));
    const any = [
      ...(filter.skills.any.length > 0 ? [matchesAny('skills', filter.skills.any)] : []),
      ...(phrases?.any?.length ? [matchesAny('document_id', phrases.any)] : []),
    ];
    if (any.length === 0 && phrases?.any) return null;
    if (any.length === 1) must.push(any[0]);
    if (any.length === 2) must.push({ should: any });
    if (phrases?.none.length) mustNot.push(matchesAny('document_id', phrases.none));
  }
  if (filter.seniority) must.push(matchesAny('seniority', filter.seniority));
  if (filter.domain) must.push(matchesAny('domain', filter.domain));
  if (filter.experienceYears) must.push(inRange('experience_years', filter.experienceYears));
  if (filter.degree) must.push(inRange('degree', filter.degree));
  if (filter.documentDate) must.push(inRange('document_date', filter.documentDate));
  const place = filter.location;
  if (place?.kind === 'near')
    must.push({ key: 'location', geo_radius: { center: { lat: place.lat, lon: place.lon }, radius: place.radiusKm * 1000 } });
  if (place?.kind === 'place') {
    must.push(matches('country_code', place.countryCode));
    if (place.regionCode !== undefined) must.push(matches('region_code', place.regionCode));
    if (place.city !== undefined) must.push(matches('city', place.city));
  }
  return { must, must_not: mustNot };
}

const byCompany = (companyId: string, ...more: QdrantCondition[]): { must: QdrantCondition[] } => ({
  must: [{ key: 'company_id', match: { value: companyId } }, ...more],
});

/**
 * The cluster's vector index: one Qdrant collection of chunk vectors (cosine), each point
 * carrying its company and document; every query filters on the company. A CV's attributes are
 * payload fields of its whole-document point (chunk -1), the point that ranks it: searches filter
 * that point inside Qdrant's search, before its limit, and passages are only looked up for CVs
 * that passed.
 */
export class QdrantVectorIndex implements VectorIndex {
  private constructor(
    private readonly api: QdrantApi,
    private readonly collection: string,
  ) {}

  /** Creates the collection when missing, and any payload index it lacks (one created before filters). */
  static async open(api: QdrantApi, collection: string, dimensions: number): Promise<QdrantVectorIndex> {
    const exists = (await api.collectionExists(collection)).exists;
    if (!exists) await api.createCollection(collection, { vectors: { size: dimensions, distance: 'Cosine' } });
    const indexed = new Set(exists ? Object.keys((await api.getCollection(collection)).payload_schema ?? {}) : []);
    for (const [field, schema] of PAYLOAD_INDEXES)
      if (!indexed.has(field)) await api.createPayloadIndex(collection, { field_name: field, field_schema: schema, wait: true });
    return new QdrantVectorIndex(api, collection);
  }

  async upsert(companyId: string, documentId: string, vectors: ChunkVector[], attributes?: SearchAttributes): Promise<void> {
    await this.api.delete(this.collection, {
      wait: true,
      filter: byCompany(companyId, matches('document_id', documentId)),
    });
    if (vectors.length === 0) return;
    await this.api.upsert(this.collection, {
      wait: true,
      points: vectors.map((v) => ({
        id: pointId(companyId, documentId, v.chunkIndex),
        vector: [...v.vector],
        payload: {
          company_id: companyId,
          document_id: documentId,
          chunk_index: v.chunkIndex,
          ...(attributes && v.chunkIndex === -1 ? storedAttributeFields(attributes) : {}),
        },
      })),
    });
  }

  async setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean> {
    const filter = byCompany(companyId, matches('document_id', documentId), matches('chunk_index', -1));
    const { count } = await this.api.count(this.collection, { filter, exact: true });
    if (count === 0) return false;
    await this.api.setPayload(this.collection, { wait: true, filter, payload: storedAttributeFields(attributes) });
    return true;
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    const filter = byCompany(companyId, matches('document_id', documentId));
    const { count } = await this.api.count(this.collection, { filter, exact: true });
    if (count > 0) await this.api.delete(this.collection, { wait: true, filter });
    return count;
  }

  /**
   * Documents ranked by their whole-document point (chunk -1), then, in one grouped search over
   * just those documents' passages, the passage closest to the query for each. The filter is
   * Qdrant's: it applies it while it searches, so the limit is filled from CVs that pass.
   */
  async search(companyId: string, query: Float32Array, topK: number, filter?: SearchFilter | null): Promise<VectorHit[]> {
    const conditions = filter && !isEmptyFilter(filter) ? qdrantConditions(filter) : { must: [], must_not: [] };
    if (conditions === null) return [];
    const vector = [...query];
    const wholes = await this.api.search(this.collection, {
      vector,
      filter: {
        ...byCompany(companyId, matches('chunk_index', -1), ...conditions.must),
        ...(conditions.must_not.length > 0 ? { must_not: conditions.must_not } : {}),
      },
      limit: topK,
      with_payload: ['document_id'],
    });
    const ids = wholes.map((w) => String(w.payload?.document_id));
    if (ids.length === 0) return [];
    const { groups } = await this.api.searchPointGroups(this.collection, {
      vector,
      filter: byCompany(companyId, matchesAny('document_id', ids), { key: 'chunk_index', range: { gte: 0 } }),
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
    return (await this.api.count(this.collection, { filter: byCompany(companyId, matches('chunk_index', -1)), exact: true })).count;
  }

  async close(): Promise<void> {
    // the REST client holds no connection to close
  }
}
