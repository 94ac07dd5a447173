import { BM25_B, BM25_K1, RM3, feedbackShares, feedbackTermWeights, idf } from '@cs/ranking';
import type { KeywordHit, KeywordIndex } from '@cs/ports';
import { headline, type ParsedQuery } from '@cs/text-analysis';
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
  };
  index(params: Record<string, unknown>): Promise<unknown>;
  delete(params: Record<string, unknown>): Promise<unknown>;
  search(params: Record<string, unknown>): Promise<{ hits: { max_score?: number | null; hits: SearchHit[] } }>;
  mtermvectors(params: Record<string, unknown>): Promise<{ docs: TermVectorsDoc[] }>;
  count(params: Record<string, unknown>): Promise<{ count: number }>;
}

/** BM25 with our k1 and b, our analysis (libs/text-analysis, see ANALYSIS), word pairs for phrases, a headline field. */
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
    },
  },
};

const isNotFound = (error: unknown) => (error as { meta?: { statusCode?: number } }).meta?.statusCode === 404;

/**
 * The cluster's keyword index: one Elasticsearch index of CVs; every query is filtered on the
 * company, each comma-separated part is a named clause (so hits say which parts they matched), and
 * phrases also match their word pairs. `maxScore` is the best score of the answer (ES gives no
 * upper bound), so scores are relative to the best CV of the search.
 */
export class ElasticsearchKeywordIndex implements KeywordIndex {
  private constructor(
    private readonly api: ElasticsearchApi,
    private readonly index: string,
  ) {}

  static async open(api: ElasticsearchApi, index: string): Promise<ElasticsearchKeywordIndex> {
    if (!(await api.indices.exists({ index }))) await api.indices.create({ index, ...INDEX_SETTINGS });
    return new ElasticsearchKeywordIndex(api, index);
  }

  private id(companyId: string, documentId: string): string {
    return `${companyId}:${documentId}`;
  }

  async upsert(companyId: string, documentId: string, text: string): Promise<void> {
    await this.api.index({
      index: this.index,
      id: this.id(companyId, documentId),
      document: { company_id: companyId, document_id: documentId, text, headline: headline(text) },
      refresh: 'wait_for',
    });
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
  async search(companyId: string, query: ParsedQuery, topK: number): Promise<KeywordHit[]> {
    const should = query.parts.flatMap((part, i): Record<string, unknown>[] =>
      part.phrase
        ? [
            { match: { text: { query: part.text, operator: 'and', _name: `part-${i}` } } },
            { match: { 'text.pairs': { query: part.text, _name: `pairs-${i}` } } },
          ]
        : [{ match: { text: { query: part.text, _name: `part-${i}` } } }],
    );
    should.push(...query.parts.map((part) => ({ match: { headline: { query: part.text } } })));
    const filter = [{ term: { company_id: companyId } }];
    const first = await this.api.search({
      index: this.index,
      size: Math.max(topK, RM3.documents),
      _source: ['document_id'],
      query: { bool: { filter, should, minimum_should_match: 1 } },
    });
    const feedback = await this.feedback(query, first.hits.hits.slice(0, RM3.documents));
    const response = feedback
      ? await this.api.search({
          index: this.index,
          size: topK,
          _source: ['document_id'],
          query: {
            bool: {
              filter,
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

  async count(companyId: string): Promise<number> {
    return (await this.api.count({ index: this.index, query: { term: { company_id: companyId } } })).count;
  }

  async close(): Promise<void> {
    // the client is closed by its owner
  }
}
