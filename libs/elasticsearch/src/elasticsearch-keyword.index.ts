import { BM25_B, BM25_K1 } from '@cs/embedded-bm25';
import type { KeywordHit, KeywordIndex } from '@cs/ports';
import { headline, type ParsedQuery } from '@cs/text-analysis';

/** The calls this adapter makes, as the Elasticsearch client offers them (narrowed for tests). */
export interface ElasticsearchApi {
  indices: {
    exists(params: { index: string }): Promise<boolean>;
    create(params: Record<string, unknown>): Promise<unknown>;
  };
  index(params: Record<string, unknown>): Promise<unknown>;
  delete(params: Record<string, unknown>): Promise<unknown>;
  search(params: Record<string, unknown>): Promise<{ hits: { max_score?: number | null; hits: Array<{ _score?: number | null; _source?: unknown; matched_queries?: string[] | Record<string, number> }> } }>;
  count(params: Record<string, unknown>): Promise<{ count: number }>;
}

/** BM25 with our k1 and b, our tokens (C++, .NET, Node.js), English stemming, word pairs for phrases, a headline field. */
export const INDEX_SETTINGS = {
  settings: {
    index: { similarity: { default: { type: 'BM25', k1: BM25_K1, b: BM25_B } } },
    analysis: {
      tokenizer: {
        // The same token shapes as libs/text-analysis: a dot or slash joins parts only before a letter or digit.
        cs_tokens: { type: 'pattern', group: 0, pattern: '\\.?[\\p{L}\\p{N}][\\p{L}\\p{N}_]*(?:[+#]+)?(?:[./][\\p{L}\\p{N}][\\p{L}\\p{N}_]*(?:[+#]+)?)*' },
      },
      filter: {
        cs_stop: { type: 'stop', stopwords: '_english_' },
        cs_stem: { type: 'stemmer', language: 'english' },
        cs_pairs: { type: 'shingle', min_shingle_size: 2, max_shingle_size: 2, output_unigrams: false },
      },
      analyzer: {
        cs_text: { type: 'custom', tokenizer: 'cs_tokens', filter: ['lowercase', 'cs_stop', 'cs_stem'] },
        cs_pairs: { type: 'custom', tokenizer: 'cs_tokens', filter: ['lowercase', 'cs_stop', 'cs_stem', 'cs_pairs'] },
      },
    },
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
    await this.api.index({ index: this.index, id: this.id(companyId, documentId), document: { company_id: companyId, document_id: documentId, text, headline: headline(text) }, refresh: 'wait_for' });
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

  async search(companyId: string, query: ParsedQuery, topK: number): Promise<KeywordHit[]> {
    const should = query.parts.flatMap((part, i): Array<Record<string, unknown>> =>
      part.phrase
        ? [
            { match: { text: { query: part.text, operator: 'and', _name: `part-${i}` } } },
            { match: { 'text.pairs': { query: part.text, _name: `pairs-${i}` } } },
          ]
        : [{ match: { text: { query: part.text, _name: `part-${i}` } } }],
    );
    should.push(...query.parts.map((part) => ({ match: { headline: { query: part.text } } })));
    const response = await this.api.search({
      index: this.index,
      size: topK,
      _source: ['document_id'],
      query: { bool: { filter: [{ term: { company_id: companyId } }], should, minimum_should_match: 1 } },
    });
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

  async count(companyId: string): Promise<number> {
    return (await this.api.count({ index: this.index, query: { term: { company_id: companyId } } })).count;
  }

  async close(): Promise<void> {
    // the client is closed by its owner
  }
}
