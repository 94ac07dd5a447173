import { parseQuery } from '@cs/text-analysis';
import { ElasticsearchKeywordIndex, INDEX_SETTINGS, type ElasticsearchApi, type TermVectorsDoc } from './elasticsearch-keyword.index';

function recordingApi(hits: Record<string, unknown>[] = [], termVectors: TermVectorsDoc[] = []) {
  const calls: [string, Record<string, unknown>][] = [];
  const api: ElasticsearchApi = {
    indices: {
      exists: async () => false,
      create: async (p) => void calls.push(['create', p]),
    },
    index: async (p) => void calls.push(['index', p]),
    delete: async (p) => void calls.push(['delete', p]),
    search: async (p) => (calls.push(['search', p]), { hits: { max_score: 4, hits } }),
    count: async (p) => (calls.push(['count', p]), { count: 1 }),
    mtermvectors: async (p) => (calls.push(['mtermvectors', p]), { docs: termVectors }),
  };
  return { api, calls };
}

describe('ElasticsearchKeywordIndex requests', () => {
  it('creates the index with BM25 k1 1.5, b 0.75, a word-pair field and a headline field', async () => {
    const { api, calls } = recordingApi();
    await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    expect(calls[0]).toEqual(['create', { index: 'cs-cvs', ...INDEX_SETTINGS }]);
    expect(INDEX_SETTINGS.settings.index.similarity.default).toEqual({ type: 'BM25', k1: 1.5, b: 0.75 });
  });

  it('filters every search and count on the company and names each query part', async () => {
    const { api, calls } = recordingApi([
      { _id: 'acme:d1', _score: 2, _source: { document_id: 'd1' }, matched_queries: ['part-0', 'pairs-0'] },
    ]);
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    const hits = await index.search('acme', parseQuery('"general ledger", QuickBooks'), 7);
    expect(hits).toEqual([{ documentId: 'd1', score: 2, maxScore: 4, matchedTerms: ['general ledger'] }]);
    await index.count('acme');
    // The first pass reads at least the 15 CVs that feedback learns from.
    const search = calls[0][1] as { size: number; query: { bool: { filter: unknown[]; should: unknown[] } } };
    expect(search.size).toBe(15);
    expect(search.query.bool.filter).toEqual([{ term: { company_id: 'acme' } }]);
    expect(search.query.bool.should).toEqual([
      { match: { text: { query: 'general ledger', operator: 'and', _name: 'part-0' } } },
      { match: { 'text.pairs': { query: 'general ledger', _name: 'pairs-0' } } },
      { match: { text: { query: 'QuickBooks', _name: 'part-1' } } },
      { match: { headline: { query: 'general ledger' } } },
      { match: { headline: { query: 'QuickBooks' } } },
    ]);
    expect(calls.at(-1)).toEqual(['count', { index: 'cs-cvs', query: { term: { company_id: 'acme' } } }]);
  });

  it('searches again with the words of the best CVs (RM3), still requiring a query part', async () => {
    const termVectors: TermVectorsDoc[] = [
      {
        _id: 'acme:d1',
        term_vectors: {
          text: {
            field_statistics: { doc_count: 100 },
            terms: {
              general: { term_freq: 1, doc_freq: 40 },
              ledger: { term_freq: 2, doc_freq: 10 },
              reconcil: { term_freq: 4, doc_freq: 5 },
              manag: { term_freq: 1, doc_freq: 100 },
            },
          },
        },
      },
    ];
    const { api, calls } = recordingApi(
      [{ _id: 'acme:d1', _score: 3, _source: { document_id: 'd1' }, matched_queries: ['part-0'] }],
      termVectors,
    );
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    await index.search('acme', parseQuery('general ledger'), 5);
    expect(calls.map(([name]) => name)).toEqual(['search', 'mtermvectors', 'search']);
    expect(calls[1][1]).toMatchObject({ index: 'cs-cvs', ids: ['acme:d1'], fields: ['text'], term_statistics: true });
    const second = calls[2][1] as {
      size: number;
      query: {
        bool: {
          filter: unknown[];
          must: { bool: { should: unknown[]; boost: number } }[];
          should: { term: { text: { value: string; boost: number } } }[];
        };
      };
    };
    expect(second.size).toBe(5);
    expect(second.query.bool.filter).toEqual([{ term: { company_id: 'acme' } }]);
    // The query's own clauses must match, with RM3's share for the query spread over its 2 words.
    expect(second.query.bool.must[0].bool.should).toEqual((calls[0][1] as { query: { bool: { should: unknown[] } } }).query.bool.should);
    expect(second.query.bool.must[0].bool.boost).toBeCloseTo(0.3);
    // The rare, repeated word leads the feedback; a word in every CV brings next to nothing.
    const feedback = second.query.bool.should.map((c) => c.term.text);
    expect(feedback.map((f) => f.value)).toEqual(['reconcil', 'ledger', 'general', 'manag']);
    expect(feedback[3].boost).toBeLessThan(feedback[0].boost / 100);
    expect(feedback.reduce((sum, f) => sum + f.boost, 0)).toBeCloseTo(0.4);
  });

  it('skips feedback when the first pass finds nothing', async () => {
    const { api, calls } = recordingApi([]);
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    expect(await index.search('acme', parseQuery('cobol'), 5)).toEqual([]);
    expect(calls.map(([name]) => name)).toEqual(['search']);
  });

  it('keys documents by company and document, and says 0 for a delete of nothing', async () => {
    const { api, calls } = recordingApi();
    api.delete = async () => {
      throw Object.assign(new Error('not found'), { meta: { statusCode: 404 } });
    };
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    await index.upsert('acme', 'd1', 'text');
    expect(calls.at(-1)).toEqual([
      'index',
      {
        index: 'cs-cvs',
        id: 'acme:d1',
        document: { company_id: 'acme', document_id: 'd1', text: 'text', headline: 'text' },
        refresh: 'wait_for',
      },
    ]);
    expect(await index.delete('acme', 'd9')).toBe(0);
  });
});
