import type { QdrantApi, QdrantCondition, QdrantFilter } from '../qdrant-vector.index';

type Payload = Record<string, unknown>;

/** Qdrant's Earth (the `geo` crate's mean radius), in metres. */
const EARTH_RADIUS_M = 6371008.8;

function haversineMetres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A field's values as conditions read them: none for a missing or null field, each element of an array. */
function valuesOf(payload: Payload, key: string): unknown[] {
  const value = payload[key];
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter((v) => v !== null);
}

/**
 * Whether a point's payload passes a Qdrant filter, as Qdrant's "Filtering" page defines the
 * conditions this adapter writes, and throwing on any other rather than guess:
 * - `must` all, `must_not` none, `should` at least one when it has any; a filter is a condition;
 * - `match.value`: some value equals it; `match.any`: some value is in the list (an array field
 *   matches by any element; a missing or null field matches nothing);
 * - `range`: some numeric value within the given bounds;
 * - `geo_radius`: some `{lat, lon}` value closer to the centre than the radius in metres
 *   (haversine, strictly closer, as Qdrant's `GeoRadius::check_point`);
 * - `is_empty`: the field is missing, null or [].
 */
export function passesQdrantFilter(filter: QdrantFilter, payload: Payload): boolean {
  const known = new Set(['must', 'must_not', 'should']);
  for (const key of Object.keys(filter)) if (!known.has(key)) throw new Error(`unknown filter clause ${key}`);
  return (
    (filter.must ?? []).every((c) => passesCondition(c, payload)) &&
    !(filter.must_not ?? []).some((c) => passesCondition(c, payload)) &&
    (!filter.should?.length || filter.should.some((c) => passesCondition(c, payload)))
  );
}

function passesCondition(condition: QdrantCondition, payload: Payload): boolean {
  if ('must' in condition || 'must_not' in condition || 'should' in condition) return passesQdrantFilter(condition, payload);
  if ('is_empty' in condition) return valuesOf(payload, condition.is_empty.key).length === 0;
  if (!('key' in condition)) throw new Error(`unknown condition ${JSON.stringify(condition)}`);
  const values = valuesOf(payload, condition.key);
  if ('match' in condition) {
    const match = condition.match;
    if ('value' in match) return values.some((v) => v === match.value);
    if ('any' in match) return values.some((v) => match.any.includes(v as string));
    throw new Error(`unknown match ${JSON.stringify(match)}`);
  }
  if ('range' in condition) {
    const { gte, lte, ...rest } = condition.range as Record<string, number | undefined>;
    if (Object.keys(rest).length > 0) throw new Error(`unknown range bounds ${Object.keys(rest).join(', ')}`);
    return values.some((v) => typeof v === 'number' && (gte === undefined || v >= gte) && (lte === undefined || v <= lte));
  }
  if ('geo_radius' in condition) {
    const { center, radius } = condition.geo_radius;
    return values.some((v) => {
      const point = v as { lat?: unknown; lon?: unknown };
      return (
        typeof point.lat === 'number' &&
        typeof point.lon === 'number' &&
        haversineMetres(center, { lat: point.lat, lon: point.lon }) < radius
      );
    });
  }
  throw new Error(`unknown condition ${JSON.stringify(condition)}`);
}

interface StoredPoint {
  vector: number[];
  payload: Payload;
}

/**
 * One Qdrant collection in memory, for the adapter's unit specs: points with payloads, filters
 * interpreted by `passesQdrantFilter`, exact cosine search (Qdrant normalises vectors of a Cosine
 * collection), grouped search, and set-payload that merges keys as Qdrant's does. Each request is
 * recorded. It stands for Qdrant's documented semantics, not for its planner or its HNSW.
 */
export function memoryQdrant(): { api: QdrantApi; points: Map<string, StoredPoint>; requests: [string, Record<string, unknown>][] } {
  const points = new Map<string, StoredPoint>();
  const indexes = new Map<string, unknown>();
  const requests: [string, Record<string, unknown>][] = [];
  let exists = false;
  const selected = (filter: unknown) => [...points].filter(([, p]) => passesQdrantFilter(filter as QdrantFilter, p.payload));
  const ranked = (vector: number[], filter: unknown) =>
    selected(filter)
      .map(([, p]) => ({ score: p.vector.reduce((sum, x, i) => sum + x * vector[i], 0) / Math.hypot(...vector), payload: p.payload }))
      .sort((a, b) => b.score - a.score);
  const api: QdrantApi = {
    collectionExists: async () => ({ exists }),
    createCollection: async (_, body) => {
      requests.push(['createCollection', body]);
      exists = true;
    },
    getCollection: async () => ({ payload_schema: Object.fromEntries(indexes) }),
    createPayloadIndex: async (_, body) => {
      requests.push(['createPayloadIndex', body]);
      indexes.set(String(body.field_name), { data_type: body.field_schema });
    },
    upsert: async (_, body) => {
      requests.push(['upsert', body]);
      for (const p of body.points as { id: string; vector: number[]; payload: Payload }[]) {
        const norm = Math.hypot(...p.vector);
        points.set(p.id, { vector: p.vector.map((x) => x / norm), payload: { ...p.payload } });
      }
    },
    setPayload: async (_, body) => {
      requests.push(['setPayload', body]);
      for (const [, p] of selected(body.filter)) Object.assign(p.payload, body.payload);
    },
    delete: async (_, body) => {
      requests.push(['delete', body]);
      for (const [id] of selected(body.filter)) points.delete(id);
    },
    count: async (_, body) => {
      requests.push(['count', body]);
      return { count: selected(body.filter).length };
    },
    retrieve: async (_, body) => {
      requests.push(['retrieve', body]);
      return (body.ids as string[]).flatMap((id) => {
        const p = points.get(id);
        return p ? [{ payload: p.payload, vector: p.vector }] : [];
      });
    },
    search: async (_, body) => {
      requests.push(['search', body]);
      return ranked(body.vector as number[], body.filter).slice(0, body.limit as number);
    },
    searchPointGroups: async (_, body) => {
      requests.push(['searchPointGroups', body]);
      const groups = new Map<string, { score: number; payload: Payload }[]>();
      for (const hit of ranked(body.vector as number[], body.filter)) {
        const id = String(hit.payload[body.group_by as string]);
        if (!groups.has(id)) groups.set(id, []);
        if (groups.get(id)!.length < (body.group_size as number)) groups.get(id)!.push(hit);
      }
      return { groups: [...groups].slice(0, body.limit as number).map(([id, hits]) => ({ id, hits })) };
    },
  };
  return { api, points, requests };
}
