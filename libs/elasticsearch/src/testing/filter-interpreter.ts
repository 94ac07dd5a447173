import { ANALYSIS } from '../elasticsearch-analysis';
import { AnalysisInterpreter } from './analysis-interpreter';

type Source = Record<string, unknown>;

const analysis = new AnalysisInterpreter(ANALYSIS);

/** A text field's terms at their positions, as the field's analyzer (`cs_text`) indexes them: a removed token leaves its place. */
function positioned(text: string): { term: string; position: number }[] {
  let position = -1;
  return analysis.tokens('cs_text', text).map((t) => ({ term: t.term, position: (position += t.positionIncrement) }));
}
type Clause = Record<string, unknown>;

/** Elasticsearch's Earth for `arc` distances (`GeoUtils.EARTH_MEAN_RADIUS`), in metres. */
const EARTH_RADIUS_M = 6371008.7714;

function arcMetres(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A distance as geo_distance writes it, in metres: `50km`, `800m`. */
function metres(distance: string): number {
  const parsed = /^(\d+(?:\.\d+)?)(km|m)$/.exec(distance);
  if (!parsed) throw new Error(`unknown distance ${distance}`);
  return Number(parsed[1]) * (parsed[2] === 'km' ? 1000 : 1);
}

/** What a field indexes: nothing for a missing or null field or [], each element of an array. */
function valuesOf(source: Source, field: string): unknown[] {
  const value = source[field];
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).filter((v) => v !== null);
}

/** The one `field: value` pair of a leaf query. */
function only(body: unknown, query: string): [string, unknown] {
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length !== 1) throw new Error(`${query} must name one field: ${JSON.stringify(body)}`);
  return entries[0];
}

/**
 * Whether a document's `_source` passes a query in filter context, as Elasticsearch's Query DSL
 * reference defines the queries this adapter writes, and throwing on any other rather than guess:
 * - `bool`: every `filter` and `must` clause, no `must_not` clause, and with `should`, at least
 *   `minimum_should_match` of those (which the adapter always states);
 * - `match_phrase` on a text field (`text`, `headline`, analysed by `cs_text`): the query's terms
 *   at the same distances from one another as in the query (slop 0), stop words' places kept;
 * - `match_none`: no document;
 * - `term` / `terms` on a keyword field: some indexed value equals the term / one of the terms;
 * - `range`: some numeric value within `gte` / `lte`;
 * - `exists`: the field indexes a value (not for missing, null or []);
 * - `geo_distance`: some point at most `distance` from the centre, measured as `arc` (haversine),
 *   the default distance type.
 */
export function passesElasticsearchFilter(clause: Clause, source: Source): boolean {
  const [query, body] = only(clause, 'a clause');
  switch (query) {
    case 'bool': {
      const {
        filter = [],
        must = [],
        must_not: mustNot = [],
        should,
        minimum_should_match: minimum,
        ...rest
      } = body as Record<string, Clause[]> & { should?: Clause[]; minimum_should_match?: number };
      if (Object.keys(rest).length > 0) throw new Error(`unknown bool clauses ${Object.keys(rest).join(', ')}`);
      if (should && typeof minimum !== 'number') throw new Error('a should in filter context must state its minimum_should_match');
      return (
        [...filter, ...must].every((c) => passesElasticsearchFilter(c, source)) &&
        !mustNot.some((c) => passesElasticsearchFilter(c, source)) &&
        (should ?? []).filter((c) => passesElasticsearchFilter(c, source)).length >= (minimum ?? 0)
      );
    }
    case 'match_none':
      return false;
    case 'term': {
      const [field, term] = only(body, 'term');
      const value = typeof term === 'object' && term !== null ? (term as { value: unknown }).value : term;
      return valuesOf(source, field).some((v) => v === value);
    }
    case 'terms': {
      const [field, terms] = only(body, 'terms');
      return valuesOf(source, field).some((v) => (terms as unknown[]).includes(v));
    }
    case 'range': {
      const [field, bounds] = only(body, 'range');
      const { gte, lte, ...rest } = bounds as Record<string, number | undefined>;
      if (Object.keys(rest).length > 0) throw new Error(`unknown range bounds ${Object.keys(rest).join(', ')}`);
      return valuesOf(source, field).some(
        (v) => typeof v === 'number' && (gte === undefined || v >= gte) && (lte === undefined || v <= lte),
      );
    }
    case 'match_phrase': {
      const [field, params] = only(body, 'match_phrase');
      const { query, ...options } = typeof params === 'string' ? { query: params } : (params as { query: string });
      if (Object.keys(options).length > 0) throw new Error(`unknown match_phrase options ${Object.keys(options).join(', ')}`);
      const phrase = positioned(query);
      if (phrase.length === 0) throw new Error(`a phrase of no term: ${query}`);
      return valuesOf(source, field).some((text) => {
        const at = new Map<number, string>();
        for (const t of positioned(text as string)) if (!at.has(t.position)) at.set(t.position, t.term);
        return [...at.keys()].some((start) => phrase.every((t) => at.get(start + t.position - phrase[0].position) === t.term));
      });
    }
    case 'exists':
      return valuesOf(source, (body as { field: string }).field).length > 0;
    case 'geo_distance': {
      const { distance, distance_type: type, ...points } = body as { distance: string; distance_type?: string } & Record<string, unknown>;
      if (type !== undefined && type !== 'arc') throw new Error(`unknown distance type ${type}`);
      const [field, center] = only(points, 'geo_distance');
      return valuesOf(source, field).some(
        (p) => arcMetres(center as { lat: number; lon: number }, p as { lat: number; lon: number }) <= metres(distance),
      );
    }
    default:
      throw new Error(`unknown query ${query}`);
  }
}

/** A partial update's `doc` merged into a `_source` as Elasticsearch merges it: objects field by field, anything else replaced. */
export function mergePartialUpdate(source: Source, doc: Source): Source {
  const merged: Source = { ...source };
  for (const [key, value] of Object.entries(doc)) {
    const before = merged[key];
    const isObject = (v: unknown): v is Source => typeof v === 'object' && v !== null && !Array.isArray(v);
    merged[key] = isObject(before) && isObject(value) ? mergePartialUpdate(before, value) : value;
  }
  return merged;
}

type Bucket = Record<string, unknown> & { doc_count: number };

/**
 * The `aggregations` of a search whose matching documents are these `_source`s, for the
 * aggregations this adapter writes, as Elasticsearch's aggregations reference defines them on one
 * shard, and throwing on any other:
 * - `terms`: a bucket per indexed value (a document counted once per value), most documents
 *   first, ties by key, `size` buckets, none empty; numbers keyed as numbers;
 * - `range`: a bucket per range in the order given, `from` included and `to` excluded, empty ones kept;
 * - `missing`: the documents that index no value;
 * - `filters`: a bucket per named filter (keyed buckets), the documents passing it;
 * - `aggs` beneath a bucket aggregation, over the bucket's documents.
 */
export function elasticsearchAggregations(aggs: Record<string, Clause>, sources: Source[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(aggs).map(([name, agg]) => [name, aggregation(agg, sources)]));
}

function aggregation(agg: Clause, sources: Source[]): unknown {
  const { aggs, ...kinds } = agg as { aggs?: Record<string, Clause> } & Clause;
  const [kind, body] = only(kinds, 'an aggregation');
  const bucket = (extra: Record<string, unknown>, docs: Source[]): Bucket => ({
    ...extra,
    doc_count: docs.length,
    ...(aggs ? elasticsearchAggregations(aggs, docs) : {}),
  });
  switch (kind) {
    case 'terms': {
      const { field, size = 10, shard_size: _shardSize, ...rest } = body as { field: string; size?: number; shard_size?: number };
      if (Object.keys(rest).length > 0) throw new Error(`unknown terms options ${Object.keys(rest).join(', ')}`);
      const byValue = new Map<string | number, Source[]>();
      for (const source of sources)
        for (const value of new Set(valuesOf(source, field)))
          byValue.set(value as string | number, [...(byValue.get(value as string | number) ?? []), source]);
      const keys = [...byValue.keys()].sort((a, b) => byValue.get(b)!.length - byValue.get(a)!.length || (a < b ? -1 : a > b ? 1 : 0));
      return { buckets: keys.slice(0, size).map((key) => bucket({ key }, byValue.get(key)!)) };
    }
    case 'range': {
      const { field, ranges, ...rest } = body as { field: string; ranges: { key?: string; from?: number; to?: number }[] };
      if (Object.keys(rest).length > 0) throw new Error(`unknown range options ${Object.keys(rest).join(', ')}`);
      return {
        buckets: ranges.map((r) =>
          bucket(
            { ...r },
            sources.filter((s) =>
              valuesOf(s, field).some(
                (v) => typeof v === 'number' && (r.from === undefined || v >= r.from) && (r.to === undefined || v < r.to),
              ),
            ),
          ),
        ),
      };
    }
    case 'filters': {
      const { filters, ...rest } = body as { filters: Record<string, Clause> };
      if (Object.keys(rest).length > 0) throw new Error(`unknown filters options ${Object.keys(rest).join(', ')}`);
      const buckets: Record<string, Bucket> = {};
      for (const [key, clause] of Object.entries(filters))
        buckets[key] = bucket(
          {},
          sources.filter((s) => passesElasticsearchFilter(clause, s)),
        );
      return { buckets };
    }
    case 'missing':
      return bucket(
        {},
        sources.filter((s) => valuesOf(s, (body as { field: string }).field).length === 0),
      );
    default:
      throw new Error(`unknown aggregation ${kind}`);
  }
}
