import { Client } from '@elastic/elasticsearch';
import { describeKeywordIndexContract } from '@cs/ports/testing';
import { startContainer } from '@cs/test-services';
import { parseQuery } from '@cs/text-analysis';
import { ElasticsearchKeywordIndex, INDEX_SETTINGS, type ElasticsearchApi } from './elasticsearch-keyword.index';

function recordingApi(hits: Array<Record<string, unknown>> = []) {
  const calls: Array<[string, Record<string, unknown>]> = [];
  const api: ElasticsearchApi = {
    indices: {
      exists: async () => false,
      create: async (p) => void calls.push(['create', p]),
    },
    index: async (p) => void calls.push(['index', p]),
    delete: async (p) => void calls.push(['delete', p]),
    search: async (p) => (calls.push(['search', p]), { hits: { max_score: 4, hits } }),
    count: async (p) => (calls.push(['count', p]), { count: 1 }),
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
    const { api, calls } = recordingApi([{ _score: 2, _source: { document_id: 'd1' }, matched_queries: ['part-0', 'pairs-0'] }]);
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    calls.length = 0;
    const hits = await index.search('acme', parseQuery('"general ledger", QuickBooks'), 7);
    expect(hits).toEqual([{ documentId: 'd1', score: 2, maxScore: 4, matchedTerms: ['general ledger'] }]);
    await index.count('acme');
    const search = calls[0][1] as { size: number; query: { bool: { filter: unknown[]; should: unknown[] } } };
    expect(search.size).toBe(7);
    expect(search.query.bool.filter).toEqual([{ term: { company_id: 'acme' } }]);
    expect(search.query.bool.should).toEqual([
      { match: { text: { query: 'general ledger', operator: 'and', _name: 'part-0' } } },
      { match: { 'text.pairs': { query: 'general ledger', _name: 'pairs-0' } } },
      { match: { text: { query: 'QuickBooks', _name: 'part-1' } } },
      { match: { headline: { query: 'general ledger' } } },
      { match: { headline: { query: 'QuickBooks' } } },
    ]);
    expect(calls[1][1]).toEqual({ index: 'cs-cvs', query: { term: { company_id: 'acme' } } });
  });

  it('keys documents by company and document, and says 0 for a delete of nothing', async () => {
    const { api, calls } = recordingApi();
    api.delete = async () => {
      throw Object.assign(new Error('not found'), { meta: { statusCode: 404 } });
    };
    const index = await ElasticsearchKeywordIndex.open(api, 'cs-cvs');
    await index.upsert('acme', 'd1', 'text');
    expect(calls.at(-1)).toEqual(['index', { index: 'cs-cvs', id: 'acme:d1', document: { company_id: 'acme', document_id: 'd1', text: 'text', headline: 'text' }, refresh: 'wait_for' }]);
    expect(await index.delete('acme', 'd9')).toBe(0);
  });
});

let server: ReturnType<typeof startContainer> | undefined;
let n = 0;
describeKeywordIndexContract('Elasticsearch (testcontainers)', async () => {
  server ??= startContainer('Elasticsearch contract', 'docker.elastic.co/elasticsearch/elasticsearch:8.19.1', 9200, {
    env: { 'discovery.type': 'single-node', 'xpack.security.enabled': 'false', ES_JAVA_OPTS: '-Xms512m -Xmx512m' },
    waitPath: '/_cluster/health',
  });
  const es = await server;
  if (!es) return null;
  return ElasticsearchKeywordIndex.open(new Client({ node: es.url }) as unknown as ElasticsearchApi, `contract-${Date.now()}-${n++}`);
});
afterAll(async () => (await server)?.stop());
