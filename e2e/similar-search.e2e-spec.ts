import { ApiClient } from './support/api-client';
import { TEXT, createCompany } from './support/fixtures';
import { MODES, describeMode, type ServiceUnderTest } from './support/service-under-test';

jest.setTimeout(600_000);

/** Two PHP developers whose CVs say much the same, and others who share little with them. */
const CVS: Record<string, string> = {
  php: 'Maria Lopez\nPHP Developer\n\nBuilt Laravel and Symfony applications on MySQL; wrote PHPUnit tests and Composer packages for WordPress plugins.',
  php2: 'Omar Haddad\nBackend PHP Developer\n\nLaravel APIs and Symfony services over MySQL, PHPUnit suites, Composer packages, WordPress themes.',
  devops: 'Ivan Petrov\nDevOps Engineer\n\nKubernetes clusters, Terraform modules and Ansible playbooks; Prometheus alerts for services.',
  java: 'Lena Berg\nJava Developer\n\nSpring Boot services on PostgreSQL, Kafka consumers and JUnit tests; some MySQL.',
  nurse: 'Grace Kim\nRegistered Nurse\n\nIntensive care unit, patient assessment, medication administration and family education.',
  chef: 'Tom Hale\nHead Chef\n\nMenu planning, kitchen staff, food safety and cost control for a busy restaurant.',
};

for (const mode of MODES)
  describeMode(mode)(`similar searches (${mode.name} mode)`, () => {
    let service: ServiceUnderTest;
    let client: ApiClient;
    let other: ApiClient;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      service = await mode.start();
      client = new ApiClient(service.baseUrl, (await createCompany(service, 'similar', 100_000)).apiKey);
      other = new ApiClient(service.baseUrl, (await createCompany(service, 'similar other', 100_000)).apiKey);
      for (const [name, text] of Object.entries(CVS))
        ids[name] = (await client.upload(Buffer.from(text), TEXT, { documentName: name, documentDate: '03-2025' })).body.documentId;
      const done = await client.waitForDocuments(Object.values(ids));
      expect([...done.values()].every((d) => d.status === 'completed')).toBe(true);
    });
    afterAll(() => service?.destroy());

    const similar = async (body: Record<string, unknown>) => {
      const created = await client.post('/v1/public/searches/similar', body);
      expect(created.status).toBe(202);
      const status = await client.waitForSearch(created.body.searchId);
      expect(status.status).toBe('completed');
      const results = await client.get(`/v1/public/searches/${created.body.searchId}/results`);
      return { created: created.body, status, results: results.body };
    };
    const namesOf = (results: Record<string, any>) => (results.results as { documentName: string }[]).map((r) => r.documentName);

    it('finds the CV most like the one it starts from first, leaves that one out, and says what it read', async () => {
      const { created, status, results } = await similar({ documentId: ids.php, top_k: 100 });
      expect(created).toMatchObject({ searchType: 'similar', query: '', similarTo: ids.php });
      expect(status).toMatchObject({ searchType: 'similar', similarTo: ids.php });
      expect(results.similarTo).toBe(ids.php);
      expect(namesOf(results)[0]).toBe('php2');
      expect(namesOf(results)).not.toContain('php');
      expect(results.metadata).toMatchObject({ similarTo: ids.php, reranker: null, rerankTopN: null, topK: 100 });
      expect(results.metadata.distinctiveTerms).toEqual(expect.arrayContaining(['laravel', 'symfony']));
      // Words only the seed holds (its author's name) find nothing like it.
      expect(results.metadata.distinctiveTerms).not.toContain('maria');
      expect(results.results[0].matchedTerms).toEqual(expect.arrayContaining(['laravel', 'symfony']));
    });

    it('applies filters inside both legs, and counts facets without the CV it starts from', async () => {
      const { results } = await similar({
        documentId: ids.php,
        filters: { excludeDocumentIds: [ids.php2] },
        facets: ['domain'],
      });
      expect(namesOf(results)).not.toContain('php2');
      expect(namesOf(results)).not.toContain('php');
      expect(results.facets.passing.cvs).toBe(Object.keys(CVS).length - 2);
      const only = await similar({ documentId: ids.php, filters: { documentIds: [ids.nurse, ids.php] } });
      expect(namesOf(only.results)).toEqual(['nurse']);
    });

    it('sits in a group beside query searches, compared with them', async () => {
      const first = await similar({ documentId: ids.devops, top_k: 3 });
      const groupId = first.created.searchGroupId;
      const hybrid = await client.post('/v1/public/searches/hybrid', { query: 'kubernetes, terraform', searchGroupId: groupId, top_k: 3 });
      expect(hybrid.status).toBe(202);
      await client.waitForSearch(hybrid.body.searchId);
      const group = await client.get(`/v1/public/searches/groups/${groupId}/results`);
      expect(group.status).toBe(200);
      const similarMember = group.body.searches.find((s: { searchType: string }) => s.searchType === 'similar');
      expect(similarMember).toMatchObject({ similarTo: ids.devops, query: '' });
      expect(group.body.comparison.pairs).toHaveLength(1);
    });

    it('finds none of another company’s CVs, even when a filter names them', async () => {
      const theirs = (await other.upload(Buffer.from(CVS.php), TEXT, { documentName: 'theirs', documentDate: '03-2025' })).body.documentId;
      await other.waitForDocuments([theirs]);
      const named = await similar({ documentId: ids.php, filters: { documentIds: [theirs] } });
      expect(named.results.results).toEqual([]);
      const created = await client.post('/v1/public/searches/hybrid', {
        query: 'laravel, symfony',
        filters: { documentIds: [theirs, ids.php2] },
      });
      await client.waitForSearch(created.body.searchId);
      const hybrid = await client.get(`/v1/public/searches/${created.body.searchId}/results`);
      expect(namesOf(hybrid.body)).toEqual(['php2']);
    });

    it('answers 404 for a document of another company or none, and 400 for a body it does not take', async () => {
      const foreign = await other.post('/v1/public/searches/similar', { documentId: ids.php });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: 'not_found', message: 'document not found' });
      expect((await client.post('/v1/public/searches/similar', { documentId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
      for (const body of [{}, { documentId: 'php' }, { documentId: ids.php, query: 'php' }, { documentId: ids.php, rerank_top_n: 5 }]) {
        const answer = await client.post('/v1/public/searches/similar', body);
        expect({ body, status: answer.status, error: answer.body.error }).toEqual({ body, status: 400, error: 'invalid_request' });
      }
      const bad = await client.post('/v1/public/searches/similar', { documentId: 'php' });
      expect(bad.body.message).toMatch(/documentId/);
    });
  });
