import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@elastic/elasticsearch';
import { EmbeddedBm25Index } from '@cs/embedded-bm25';
import type { KeywordIndex } from '@cs/ports';
import { describeWith, startContainer } from '@cs/test-services';
import { parseQuery } from '@cs/text-analysis';
import { ElasticsearchKeywordIndex, type ElasticsearchApi } from './elasticsearch-keyword.index';

/**
 * A small corpus whose CVs hold each query's words clearly more or less: both keyword indexes
 * should find the same CVs and agree on the best. (They differ by design in one place: the
 * embedded index counts headline words twice in the text, Elasticsearch matches a headline field
 * besides it, so close CVs may swap.) Synonyms and technical names are in it on purpose.
 */
const CORPUS: Record<string, string> = {
  'k8s-lead': 'Kubernetes Engineer\nRan Kubernetes clusters and k8s upgrades; wrote Kubernetes operators in Go; Helm charts.',
  'k8s-some': 'DevOps Engineer\nBuilt CI/CD pipelines in Jenkins and Terraform; deployed services on Kubernetes.',
  dotnet: 'Software Developer\nC# and ASP.NET services on .NET 6; SQL Server stored procedures; Azure.',
  node: 'Web Developer\nNode.js and React front ends; PostgreSQL; REST APIs; continuous integration.',
  'nurse-rn': 'Registered Nurse\nRN on a surgical ward: patient care, patient care plans, medication administration, EMR charting.',
  'nurse-lpn': 'Licensed Practical Nurse\nPatient care in a nursing home; vital signs; electronic medical records.',
  'ap-clerk': 'Accounts Payable Clerk\nA/P invoices, vendor payments, three-way matching, month-end close.',
  accountant: 'Staff Accountant\nGeneral ledger, accounts payable and accounts receivable, bank reconciliations, month-end close.',
  ml: 'Machine Learning Engineer\nMachine learning models in Python: classification, NLP, feature engineering; ML pipelines and deep learning.',
  analyst: 'Data Analyst\nSQL reporting, dashboards in Tableau, some machine learning with scikit-learn.',
  chef: 'Executive Chef\nMenus, kitchen staff, food cost and banquets for 300 guests.',
  teacher: 'Math Teacher\nAlgebra and geometry lessons, grading, parent conferences.',
  hvac: 'HVAC Technician\nHeating, ventilation and air conditioning repairs; refrigerant handling.',
  driver: 'Truck Driver\nLong-haul deliveries, logbooks, vehicle inspections.',
};
const QUERIES = ['kubernetes', 'C#, .NET', 'registered nurse', 'accounts payable', 'machine learning', 'HVAC', 'patient care', 'Node.js'];

describeWith(['docker'])('both keyword indexes rank a fixture corpus alike', () => {
  let server: Awaited<ReturnType<typeof startContainer>> | undefined;
  let indexes: [name: string, index: KeywordIndex][] = [];

  beforeAll(async () => {
    server = await startContainer('docker.elastic.co/elasticsearch/elasticsearch:8.19.1', 9200, {
      env: { 'discovery.type': 'single-node', 'xpack.security.enabled': 'false', ES_JAVA_OPTS: '-Xms512m -Xmx512m' },
      waitPath: '/_cluster/health',
    });
    indexes = [
      ['embedded', await EmbeddedBm25Index.open(await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-parity-')))],
      [
        'elasticsearch',
        await ElasticsearchKeywordIndex.open(new Client({ node: server.url }) as unknown as ElasticsearchApi, `parity-${Date.now()}`),
      ],
    ];
    for (const [, index] of indexes) for (const [id, text] of Object.entries(CORPUS)) await index.upsert('parity', id, text);
  }, 180_000);

  afterAll(async () => {
    for (const [, index] of indexes) await index.close();
    await server?.stop();
  });

  it.each(QUERIES)('%s: the same CVs, the same best, the same first three', async (query) => {
    const [embedded, elasticsearch] = await Promise.all(
      indexes.map(async ([, index]) => (await index.search('parity', parseQuery(query), 20)).map((h) => h.documentId)),
    );
    expect(embedded.length).toBeGreaterThan(0);
    expect(new Set(elasticsearch)).toEqual(new Set(embedded));
    expect(elasticsearch[0]).toBe(embedded[0]);
    expect(new Set(elasticsearch.slice(0, 3))).toEqual(new Set(embedded.slice(0, 3)));
  });
});
