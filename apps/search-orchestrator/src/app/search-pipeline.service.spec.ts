import type { DenseClient, RerankerClient, SparseClient } from '@cs/ports';
import type { DocumentsRepository, SearchRecord } from '@cs/records';
import type { DocumentTexts } from './document-texts';
import { SearchPipelineService } from './search-pipeline.service';

const CV = 'Platform Engineer\nRuns Kubernetes clusters for containers and cloud deployments.';

/** A pipeline over fakes: one CV, a dense service that knows every word but `kubernetes`. */
function pipeline(sparseSearch: SparseClient['search']) {
  const denseCalls: Array<ReadonlyMap<string, string> | undefined> = [];
  const dense: DenseClient = {
    upsert: async () => 0,
    delete: async () => 0,
    count: async () => 1,
    search: async (_companyId, query, _topK, wordContexts) => {
      denseCalls.push(wordContexts);
      const unknownWords = /kubernetes/i.test(query) && !wordContexts?.has('kubernetes') ? ['kubernetes'] : [];
      return { hits: [{ documentId: 'cv-1', score: 0.8, chunkIndex: -1 }], noKnownWords: false, unknownWords };
    },
  };
  const sparse: SparseClient = { upsert: async () => undefined, delete: async () => 0, search: sparseSearch };
  const documents = { getSearchable: async () => new Map([['cv-1', { documentName: 'Ann', documentDate: '01-2024' }]]) } as unknown as DocumentsRepository;
  const texts = {
    texts: async () => new Map([['cv-1', CV]]),
    contents: async () => new Map([['cv-1', { text: CV, chunks: [] }]]),
  } as unknown as DocumentTexts;
  const service = new SearchPipelineService(dense, sparse, {} as RerankerClient, documents, texts);
  return { service, denseCalls };
}

const search = (query: string): SearchRecord =>
  ({ id: 's', companyId: 'c', searchGroupId: 'g', searchType: 'dense', query, topK: 20, rerankTopN: 30 }) as SearchRecord;

describe('SearchPipelineService, dense query words the vectors lack', () => {
  it('searches again with the text around the word in the CVs that hold it', async () => {
    const { service, denseCalls } = pipeline(async () => [{ documentId: 'cv-1', score: 1, maxScore: 1, matchedTerms: ['kubernetes'] }]);
    const outcome = await service.run(search('senior kubernetes engineer'));
    expect(outcome.metadata.inducedWords).toEqual([{ word: 'kubernetes', cvs: 1 }]);
    expect(denseCalls).toHaveLength(2);
    expect(denseCalls[1]?.get('kubernetes')).toContain('Runs Kubernetes clusters');
    expect(outcome.results.map((r) => r.documentId)).toEqual(['cv-1']);
  });

  it('still completes, without them, when the keyword index cannot be asked', async () => {
    const { service, denseCalls } = pipeline(async () => {
      throw new Error('sparse service unavailable');
    });
    const outcome = await service.run(search('senior kubernetes engineer'));
    expect(outcome.metadata.inducedWords).toBeUndefined();
    expect(denseCalls).toHaveLength(1);
    expect(outcome.results.map((r) => r.documentId)).toEqual(['cv-1']);
  });
});
