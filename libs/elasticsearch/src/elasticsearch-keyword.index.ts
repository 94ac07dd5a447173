import { BM25_B, BM25_K1, RM3, distinctiveTerms, feedbackShares, feedbackTermWeights, idf } from '@cs/ranking';
import type { KeywordHit, KeywordIndex } from '@cs/ports';
import {
  DEGREE_LEVELS,
  SENIORITY_LEVELS,
  TOP_SKILLS,
  YEAR_BANDS,
  countFacets,
  isEmptyFilter,
  orderedFacetCounts,
  phraseHolderIds,
  storedAttributeFields,
  type FacetCounts,
  type FacetField,
  type Range,
  type RequirementCounts,
  type SearchAttributes,
  type SearchFilter,
} from '@cs/search-filters';
import { headline, type KeywordCondition, type ParsedQuery } from '@cs/text-analysis';
import { ANALYSIS } from './elasticsearch-analysis';

type SearchHit = { _id?: string; _score?: number | null; _source?: unknown; matched_queries?: string[] | Record<string, number> };

/** One CV's analysed `text` field, as the term vectors API gives it. */
export interface TermVectorsDoc {
  _id: string;
  term_vectors?: Record<
    string,
    { field_statistics?: { doc_count: number }; terms: Record<string, { term_freq: number; doc_freq?: number }> }
  >;
}

/** The calls this adapter makes, as the Elasticsearch client offers them (narrowed for tests). */
export interface ElasticsearchApi {
  indices: {
    exists(params: { index: string }): Promise<boolean>;
    create(params: Record<string, unknown>): Promise<unknown>;
    putMapping(params: Record<string, unknown>): Promise<unknown>;
  };
  index(params: Record<string, unknown>): Promise<unknown>;
  update(params: Record<string, unknown>): Promise<unknown>;
  delete(params: Record<string, unknown>): Promise<unknown>;
  search(params: Record<string, unknown>): Promise<{
    hits: { total?: number | { value: number; relation?: string }; max_score?: number | null; hits: SearchHit[] };
    aggregations?: Record<string, unknown>;
  }>;
  mtermvectors(params: Record<string, unknown>): Promise<{ docs: TermVectorsDoc[] }>;
  count(params: Record<string, unknown>): Promise<{ count: number }>;
}

/** The fields filters read (a CV's attributes, `storedAttributeFields`); added to an index created before them when it opens. */
export const ATTRIBUTE_PROPERTIES = {
  skills: { type: 'keyword' },
  experience_years: { type: 'float' },
  seniority: { type: 'keyword' },
  domain: { type: 'keyword' },
  degree: { type: 'integer' },
  languages: { type: 'keyword' },
  location: { type: 'geo_point' },
  city: { type: 'keyword' },
  region_code: { type: 'keyword' },
  country_code: { type: 'keyword' },
  document_date: { type: 'integer' },
} as const;

/** An inclusive range; with neither end, any value (a CV that does not say fails either). */
function inRange(field: string, range: Range): Record<string, unknown> {
  const bounds: Range = { ...(range.gte !== undefined ? { gte: range.gte } : {}), ...(range.lte !== undefined ? { lte: range.lte } : {}) };
  return Object.keys(bounds).length > 0 ? { range: { [field]: bounds } } : { exists: { field } };
}

/**
 * The search filter as clauses of a bool query's filter context (passesFilter's semantics),
 * which select without scoring: `filter` for what a CV needs, `must_not` for what it may not
 * hold, which a CV without attributes passes. Null when no CV can pass (an empty list of allowed
 * values), so that no request is sent.
 */
export function elasticsearchFilter(
  filter: SearchFilter,
): { filter: Record<string, unknown>[]; must_not: Record<string, unknown>[] } | null {
  const must: Record<string, unknown>[] = [];
  const mustNot: Record<string, unknown>[] = [];
  for (const list of [filter.documentIds, filter.seniority, filter.domain]) if (list?.length === 0) return null;
  if (filter.documentIds) must.push({ terms: { document_id: filter.documentIds } });
  if (filter.excludeDocumentIds?.length) mustNot.push({ terms: { document_id: filter.excludeDocumentIds } });
  for (const [field, sets] of [
    ['skills', filter.skills],
    ['languages', filter.languages],
  ] as const) {
    if (!sets) continue;
    for (const value of sets.all) must.push({ term: { [field]: value } });
    // skills' `any` is below, with the skills matched as text
    if (sets.any.length > 0 && field === 'languages') must.push({ terms: { [field]: sets.any } });
    if ('none' in sets && sets.none.length > 0) mustNot.push({ terms: { [field]: sets.none } });
  }
  if (filter.skills) {
    // Skills matched as text are the ids of the CVs holding them; `any` holds by a skill or by one of them.
    const phrases = phraseHolderIds(filter.skills);
    if (phrases?.all?.length === 0) return null;
    if (phrases?.all) must.push({ terms: { document_id: phrases.all } });
    const any = [
      ...(filter.skills.any.length > 0 ? [{ terms: { skills: filter.skills.any } }] : []),
      ...(phrases?.any?.length ? [{ terms: { document_id: phrases.any } }] : []),
    ];
    if (any.length === 0 && phrases?.any) return null;
    if (any.length === 1) must.push(any[0]);
    if (any.length === 2) must.push({ bool: { should: any, minimum_should_match: 1 } });
    if (phrases?.none.length) mustNot.push({ terms: { document_id: phrases.none } });
  }
  if (filter.seniority) must.push({ terms: { seniority: filter.seniority } });
  if (filter.domain) must.push({ terms: { domain: filter.domain } });
  if (filter.experienceYears) must.push(inRange('experience_years', filter.experienceYears));
  if (filter.degree) must.push(inRange('degree', filter.degree));
  if (filter.documentDate) must.push(inRange('document_date', filter.documentDate));
  const place = filter.location;
  // geo_distance measures the arc (haversine), as passesFilter does.
  if (place?.kind === 'near')
    must.push({ geo_distance: { distance: `${place.radiusKm}km`, location: { lat: place.lat, lon: place.lon } } });
  if (place?.kind === 'place') {
    must.push({ term: { country_code: place.countryCode } });
    if (place.regionCode !== undefined) must.push({ term: { region_code: place.regionCode } });
    if (place.city !== undefined) must.push({ term: { city: place.city } });
  }
  return { filter: must, must_not: mustNot };
}

/**
 * The sizes of the facets' terms aggregations. A terms aggregation over several shards is
 * approximate: each shard sends only its `shard_size` most frequent values, so a value that misses
 * a shard's list is undercounted. Each size here is at least the number of values the field can
 * hold, so every shard sends every value it holds and the counts are exact on any number of shards.
 */
export const FACET_TERMS_SIZES = {
  /** SENIORITY_LEVELS: 8. */
  seniority: SENIORITY_LEVELS.length,
  /** DEGREE_LEVELS: 6 (stored as their rank). */
  degree: DEGREE_LEVELS.length,
  /** The profile reads 24 domains (libs/cv-understanding's DOMAIN_NAMES). */
  domain: 50,
  /** The skill vocabulary holds 188 keys: a shard sends all it holds, of which the top TOP_SKILLS are kept. */
  skillsPerShard: 500,
  /** The gazetteer's countries: 250. */
  countries: 300,
  /** The most regions one country has in the gazetteer: 247 (GB). */
  regionsPerCountry: 300,
} as const;

/** YEAR_BANDS as ES ranges (`from` included, `to` excluded): a band holds the years below its bound and not below the previous one's. */
const YEAR_RANGES = YEAR_BANDS.map((band, i) => ({
  key: band.value,
  ...(i > 0 ? { from: YEAR_BANDS[i - 1].below } : {}),
  ...(Number.isFinite(band.below) ? { to: band.below } : {}),
}));

/** The aggregation that counts one facet field's values. */
function facetAggregation(field: FacetField): Record<string, unknown> {
  switch (field) {
    case 'seniority':
      return { terms: { field: 'seniority', size: FACET_TERMS_SIZES.seniority } };
    case 'domain':
      return { terms: { field: 'domain', size: FACET_TERMS_SIZES.domain } };
    case 'degree':
      return { terms: { field: 'degree', size: FACET_TERMS_SIZES.degree } };
    case 'skills':
      // Ties are ordered by key, as orderedFacetCounts orders them, so the 20 kept are the 20 it would keep.
      return { terms: { field: 'skills', size: TOP_SKILLS, shard_size: FACET_TERMS_SIZES.skillsPerShard } };
    case 'experienceYears':
      return { range: { field: 'experience_years', ranges: YEAR_RANGES } };
    case 'location':
      // Terms on the country with its regions beneath, rather than a composite aggregation over
      // both: one request answers it whole (a composite one pages), and the sizes are bounded by
      // the gazetteer. `missing` counts the country's CVs that name no region.
      return {
        terms: { field: 'country_code', size: FACET_TERMS_SIZES.countries },
        aggs: {
          regions: { terms: { field: 'region_code', size: FACET_TERMS_SIZES.regionsPerCountry } },
          no_region: { missing: { field: 'region_code' } },
        },
      };
  }
}

interface Bucket {
  key: string | number;
  doc_count: number;
}
interface CountryBucket extends Bucket {
  regions?: { buckets: Bucket[] };
  no_region?: { doc_count: number };
}

/** A facet field's values with their counts, from its aggregation's answer, named as countFacets names them. */
function facetTally(field: FacetField, aggregation: unknown): Map<string, number> {
  const tally = new Map<string, number>();
  const add = (value: string, count: number) => {
    if (count > 0) tally.set(value, (tally.get(value) ?? 0) + count);
  };
  const buckets = (aggregation as { buckets?: CountryBucket[] } | undefined)?.buckets ?? [];
  for (const bucket of buckets) {
    if (field === 'degree') {
      const name = DEGREE_LEVELS[Number(bucket.key)] as string | undefined;
      if (name !== undefined) add(name, bucket.doc_count);
    } else if (field === 'location') {
      const country = String(bucket.key);
      // An empty region code is no region, as countFacets reads it.
      for (const region of bucket.regions?.buckets ?? []) add(region.key === '' ? country : `${country}-${region.key}`, region.doc_count);
      add(country, bucket.no_region?.doc_count ?? 0);
    } else add(String(bucket.key), bucket.doc_count);
  }
  return tally;
}

/**
 * A condition of the keyword query language (a `+` or `-` clause) as a query in filter context,
 * selecting without scoring. A word or phrase is a `match_phrase` on the text (or the headline for
 * `title:`), analysed as the text is; a skill is a term of the profile's skills. One difference
 * from the embedded index: Elasticsearch keeps a stop word's place, so a phrase matches across a
 * stop word only where the CV has one there too.
 */
export function elasticsearchCondition(condition: KeywordCondition): Record<string, unknown> {
  switch (condition.kind) {
    case 'text':
      return { match_phrase: { text: { query: condition.text } } };
    case 'title':
      return { match_phrase: { headline: { query: condition.text } } };
    case 'skill':
      return { term: { skills: condition.skill } };
    case 'all':
      return { bool: { filter: condition.of.map(elasticsearchCondition) } };
    case 'any':
      return { bool: { should: condition.of.map(elasticsearchCondition), minimum_should_match: 1 } };
  }
}

/** BM25 with our k1 and b, our analysis (libs/text-analysis, see ANALYSIS), word pairs for phrases, a headline field, the filters' fields. */
export const INDEX_SETTINGS = {
  settings: {
    index: { similarity: { default: { type: 'BM25', k1: BM25_K1, b: BM25_B } } },
    analysis: ANALYSIS,
  },
  mappings: {
    properties: {
      company_id: { type: 'keyword' },
      document_id: { type: 'keyword' },
      text: { type: 'text', analyzer: 'cs_text', fields: { pairs: { type: 'text', analyzer: 'cs_pairs' } } },
      // The first line (the role), matched again so that it weighs more, as in the embedded index.
      headline: { type: 'text', analyzer: 'cs_text' },
      ...ATTRIBUTE_PROPERTIES,
    },
  },
};

const isNotFound = (error: unknown) => (error as { meta?: { statusCode?: number } }).meta?.statusCode === 404;

/**
 * The cluster's keyword index: one Elasticsearch index of CVs; every query is filtered on the
 * company, each comma-separated part is a named clause (so hits say which parts they matched), and
 * phrases also match their word pairs. The query's required and excluded clauses are in the bool
 * query's filter and must_not, beside the search's filter. `maxScore` is the best score of the answer (ES gives no
 * upper bound), so scores are relative to the best CV of the search. A search's filter is in the
 * bool query's filter context of both passes, so it selects without scoring, and the CVs feedback
 * learns from are CVs that pass.
 */
export class ElasticsearchKeywordIndex implements KeywordIndex {
  private constructor(
    private readonly api: ElasticsearchApi,
    private readonly index: string,
  ) {}

  /** Creates the index when missing; else adds the filters' fields to its mapping (a no-op once they are there). */
  static async open(api: ElasticsearchApi, index: string): Promise<ElasticsearchKeywordIndex> {
    if (!(await api.indices.exists({ index }))) await api.indices.create({ index, ...INDEX_SETTINGS });
    else await api.indices.putMapping({ index, properties: ATTRIBUTE_PROPERTIES });
    return new ElasticsearchKeywordIndex(api, index);
  }

  private id(companyId: string, documentId: string): string {
    return `${companyId}:${documentId}`;
  }

  async upsert(companyId: string, documentId: string, text: string, attributes?: SearchAttributes): Promise<void> {
    await this.api.index({
      index: this.index,
      id: this.id(companyId, documentId),
      document: {
        company_id: companyId,
        document_id: documentId,
        text,
        headline: headline(text),
        ...(attributes ? storedAttributeFields(attributes) : {}),
      },
      refresh: 'wait_for',
    });
  }

  /** A partial update of the CV's document: its text and analysis stay as they are. */
  async setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean> {
    try {
      await this.api.update({
        index: this.index,
        id: this.id(companyId, documentId),
        doc: storedAttributeFields(attributes),
        retry_on_conflict: 3,
        // Not waited for: a profile read again reaches searches at the next refresh (a second),
        // and the refresh of a whole archive would otherwise wait that second per CV.
        refresh: false,
      });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    try {
      await this.api.delete({ index: this.index, id: this.id(companyId, documentId), refresh: 'wait_for' });
      return 1;
    } catch (error) {
      if (isNotFound(error)) return 0;
      throw error;
    }
  }

  /**
   * Two passes, as the embedded index does: the query, then RM3 (the query plus the words that
   * characterise the first pass's best CVs, from their term vectors). A hit must still match a
   * query part: feedback reorders, it never returns a CV without a query word.
   */
  async search(companyId: string, query: ParsedQuery, topK: number, searchFilter?: SearchFilter | null): Promise<KeywordHit[]> {
    const scope = this.scope(companyId, searchFilter);
    if (scope === null) return [];
    const should = query.parts.flatMap((part, i): Record<string, unknown>[] =>
      part.phrase
        ? [
            { match: { text: { query: part.text, operator: 'and', _name: `part-${i}` } } },
            { match: { 'text.pairs': { query: part.text, _name: `pairs-${i}` } } },
          ]
        : [{ match: { text: { query: part.text, _name: `part-${i}` } } }],
    );
    should.push(...query.parts.map((part) => ({ match: { headline: { query: part.text } } })));
    // The query's + and - clauses select as the filters do, scoring nothing apart from their words.
    const excluded = [...(scope.must_not ?? []), ...(query.excluded ?? []).map(elasticsearchCondition)];
    const bounds = {
      filter: [...scope.filter, ...(query.required ?? []).map(elasticsearchCondition)],
      ...(excluded.length > 0 ? { must_not: excluded } : {}),
    };
    const first = await this.api.search({
      index: this.index,
      size: Math.max(topK, RM3.documents),
      _source: ['document_id'],
      query: { bool: { ...bounds, should, minimum_should_match: 1 } },
    });
    const feedback = await this.feedback(query, first.hits.hits.slice(0, RM3.documents));
    const response = feedback
      ? await this.api.search({
          index: this.index,
          size: topK,
          _source: ['document_id'],
          query: {
            bool: {
              ...bounds,
              // The query's own clauses, weighted as RM3 weighs the query, must match...
              must: [{ bool: { should, minimum_should_match: 1, boost: feedback.queryBoost } }],
              // ...and the feedback words add to the score.
              should: feedback.terms.map(({ term, boost }) => ({ term: { text: { value: term, boost } } })),
            },
          },
        })
      : { hits: { ...first.hits, hits: first.hits.hits.slice(0, topK) } };
    const best = response.hits.max_score ?? 0;
    return response.hits.hits.map((hit) => {
      const named = Array.isArray(hit.matched_queries) ? hit.matched_queries : Object.keys(hit.matched_queries ?? {});
      return {
        documentId: (hit._source as { document_id: string }).document_id,
        score: hit._score ?? 0,
        maxScore: best,
        matchedTerms: query.parts.filter((_, i) => named.includes(`part-${i}`)).map((p) => p.text),
      };
    });
  }

  /**
   * The feedback words with their boosts (RM3's shares for them), from the best hits' term
   * vectors; null when there is nothing to learn from. The query's clauses score each of its words
   * about once, so they are boosted by RM3's share for one query word.
   */
  private async feedback(
    query: ParsedQuery,
    top: SearchHit[],
  ): Promise<{ queryBoost: number; terms: { term: string; boost: number }[] } | null> {
    const queryWords = query.parts.flatMap((p) => p.terms);
    const ids = top.flatMap((h) => (h._id ? [h._id] : []));
    if (ids.length === 0 || queryWords.length === 0) return null;
    const docs = await this.termVectors(ids);
    const scoreOf = new Map(top.map((h) => [h._id ?? '', h._score ?? 0]));
    const documentFrequency = new Map<string, number>();
    let documentCount = 0;
    const feedbackDocs = docs.flatMap((doc) => {
      const field = doc.term_vectors?.text;
      if (!field) return [];
      documentCount = Math.max(documentCount, field.field_statistics?.doc_count ?? 0);
      const terms = Object.entries(field.terms).map(([term, stats]) => {
        documentFrequency.set(term, stats.doc_freq ?? 1);
        return [term, stats.term_freq] as const;
      });
      return [{ score: scoreOf.get(doc._id) ?? 0, length: terms.reduce((n, [, tf]) => n + tf, 0), terms }];
    });
    if (feedbackDocs.length === 0) return null;
    const feedback = feedbackTermWeights(
      feedbackDocs.sort((a, b) => b.score - a.score),
      (term) => idf(documentFrequency.get(term) ?? 0, Math.max(1, documentCount)),
    );
    const terms = [...feedbackShares(feedback)]
      .map(([term, boost]) => ({ term, boost }))
      .filter((t) => t.boost > 1e-6)
      .sort((a, b) => b.boost - a.boost || a.term.localeCompare(b.term));
    return terms.length ? { queryBoost: RM3.queryWeight / queryWords.length, terms } : null;
  }

  /** The CVs' analysed `text`, with each term's count in the CV and its number of documents. */
  private async termVectors(ids: string[]): Promise<TermVectorsDoc[]> {
    const { docs } = await this.api.mtermvectors({
      index: this.index,
      ids,
      fields: ['text'],
      term_statistics: true,
      field_statistics: true,
      positions: false,
      offsets: false,
      payloads: false,
    });
    return docs;
  }

  /**
   * From the CV's term vectors. Their document frequencies are the index's, over every company
   * it holds, as Elasticsearch's own scoring reads them: which words are rare barely differs.
   */
  async distinctiveTerms(companyId: string, documentId: string, limit: number): Promise<string[]> {
    const docs = await this.termVectors([this.id(companyId, documentId)]);
    const field = docs[0]?.term_vectors?.text;
    if (!field) return [];
    const terms = Object.entries(field.terms).map(([term, stats]) => ({
      term,
      termFrequency: stats.term_freq,
      documentFrequency: stats.doc_freq ?? 1,
    }));
    return distinctiveTerms(terms, Math.max(1, field.field_statistics?.doc_count ?? 0), limit);
  }

  /**
   * One request of no hits: the company and the filter as the query (as search has them), an
   * aggregation per field; `cvs` is the total of hits, counted exactly.
   */
  async facets(companyId: string, filter: SearchFilter | null, fields: readonly FacetField[]): Promise<FacetCounts> {
    const scope = this.scope(companyId, filter);
    if (scope === null) return countFacets([], fields);
    const response = await this.api.search({
      index: this.index,
      size: 0,
      track_total_hits: true,
      query: { bool: scope },
      aggs: Object.fromEntries(fields.map((field) => [field, facetAggregation(field)])),
    });
    const total = response.hits.total;
    return {
      cvs: typeof total === 'number' ? total : (total?.value ?? 0),
      fields: Object.fromEntries(
        fields.map((field) => [field, orderedFacetCounts(field, facetTally(field, response.aggregations?.[field]))]),
      ),
    };
  }

  /**
   * One request of no hits: a `filters` aggregation with a bucket for the CVs meeting every
   * requirement, and one per requirement for those failing it alone (every other one met).
   */
  async requirementCounts(companyId: string, base: SearchFilter | null, requirements: readonly SearchFilter[]): Promise<RequirementCounts> {
    const scope = this.scope(companyId, base);
    const none = { meetingAll: 0, failingOnly: requirements.map(() => 0) };
    if (scope === null) return none;
    // A requirement no CV can pass (elasticsearchFilter's null) is a clause matching none.
    const clauses = requirements.map((requirement) => {
      const conditions = elasticsearchFilter(requirement);
      return conditions === null ? { match_none: {} } : { bool: conditions };
    });
    const buckets: Record<string, unknown> = { all: { bool: { filter: clauses } } };
    clauses.forEach((clause, i) => {
      buckets[`only${i}`] = { bool: { filter: clauses.filter((_, j) => j !== i), must_not: [clause] } };
    });
    const response = await this.api.search({
      index: this.index,
      size: 0,
      query: { bool: scope },
      aggs: { requirements: { filters: { filters: buckets } } },
    });
    const counted = (response.aggregations?.requirements as { buckets?: Record<string, { doc_count: number }> } | undefined)?.buckets;
    if (!counted) return none;
    return { meetingAll: counted.all?.doc_count ?? 0, failingOnly: requirements.map((_, i) => counted[`only${i}`]?.doc_count ?? 0) };
  }

  /** The bool query's filter context for the company's CVs that pass the filter; null when none can. */
  private scope(
    companyId: string,
    searchFilter: SearchFilter | null | undefined,
  ): { filter: Record<string, unknown>[]; must_not?: Record<string, unknown>[] } | null {
    const conditions = searchFilter && !isEmptyFilter(searchFilter) ? elasticsearchFilter(searchFilter) : { filter: [], must_not: [] };
    if (conditions === null) return null;
    return {
      filter: [{ term: { company_id: companyId } }, ...conditions.filter],
      ...(conditions.must_not.length > 0 ? { must_not: conditions.must_not } : {}),
    };
  }

  /** A match_phrase in filter context, as a `+"phrase"` clause of the query language; `limit` within ES's result window (10,000). */
  async documentsWithPhrase(companyId: string, phrase: string, limit: number): Promise<string[]> {
    const response = await this.api.search({
      index: this.index,
      size: limit,
      _source: ['document_id'],
      query: { bool: { filter: [{ term: { company_id: companyId } }, { match_phrase: { text: { query: phrase } } }] } },
    });
    return response.hits.hits.map((hit) => (hit._source as { document_id: string }).document_id);
  }

  async count(companyId: string): Promise<number> {
    return (await this.api.count({ index: this.index, query: { term: { company_id: companyId } } })).count;
  }

  async close(): Promise<void> {
    // the client is closed by its owner
  }
}
