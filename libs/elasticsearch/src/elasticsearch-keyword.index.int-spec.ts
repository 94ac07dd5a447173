import { Client } from '@elastic/elasticsearch';
import { describeKeywordIndexContract } from '@cs/ports/testing';
import { startContainer } from '@cs/test-services';
import { ElasticsearchKeywordIndex, type ElasticsearchApi } from './elasticsearch-keyword.index';

let server: ReturnType<typeof startContainer> | undefined;
let n = 0;
describeKeywordIndexContract(
  'Elasticsearch (testcontainers)',
  async () => {
    server ??= startContainer('docker.elastic.co/elasticsearch/elasticsearch:8.19.1', 9200, {
      env: { 'discovery.type': 'single-node', 'xpack.security.enabled': 'false', ES_JAVA_OPTS: '-Xms512m -Xmx512m' },
      waitPath: '/_cluster/health',
    });
    const es = await server;
    return ElasticsearchKeywordIndex.open(new Client({ node: es.url }) as unknown as ElasticsearchApi, `contract-${Date.now()}-${n++}`);
  },
  undefined,
  ['docker'],
);
afterAll(async () => (await server)?.stop());
