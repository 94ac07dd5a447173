import { NO_KNOWN_WORDS } from '../../stages/unsearchable-query';
import { FAKE_DENSE_MODEL, command, failureOf, fakeStages, type FakeCv, type FakeServices } from '../../testing/search-fakes';
import { RunDenseSearch } from './run-dense-search.use-case';

const PLATFORM = 'Platform Engineer\nRuns Kubernetes clusters for containers and cloud deployments.';
const JAVA = 'Java Developer\nSummary: backend engineer.\nExperience: built payment services in Java and Spring for a bank.';
const CVS: FakeCv[] = [
  { id: 'cv-platform', name: 'Ann', text: PLATFORM },
  {
    id: 'cv-java',
    name: 'Bob',
    text: JAVA,
    chunks: [
      { index: 0, start: 0, end: 40 },
      { index: 1, start: 41, end: JAVA.length },
    ],
  },
];

function useCase(cvs: FakeCv[] = CVS, services: FakeServices = {}) {
  const stages = fakeStages(cvs, services);
  return { calls: stages.calls, dense: new RunDenseSearch(stages.denseRetrieval, stages.resultDocuments) };
}

/** A dense service that knows every word but `kubernetes`, unless given its context. */
const kubernetesUnknown: FakeServices['denseSearch'] = (query, _topK, wordContexts) => ({
  hits: [{ documentId: 'cv-platform', score: 0.8, chunkIndex: -1 }],
  noKnownWords: false,
  unknownWords: /kubernetes/i.test(query) && !wordContexts?.has('kubernetes') ? ['kubernetes'] : [],
});

describe('RunDenseSearch', () => {
  it('ranks CVs by the dense score, explains each, and says there was no reranker', async () => {
    const { dense, calls } = useCase();
    const outcome = await dense.execute(command('engineer, spring', { topK: 5 }));
    expect(calls.dense.map((c) => c.topK)).toEqual([5]);
    expect(outcome.results).toEqual([
      {
        score: 0.9,
        scores: { dense: 0.9 },
        highlights: [expect.objectContaining({ start: 0 })],
        matchedTerms: ['engineer'],
        matchedAs: [{ term: 'engineer', as: 'exact', text: 'Engineer' }],
        rank: 1,
        documentId: 'cv-platform',
        documentName: 'Ann',
        documentDate: '01-2024',
      },
      {
        score: 0.8,
        scores: { dense: 0.8 },
        highlights: expect.any(Array),
        matchedTerms: ['engineer', 'spring'],
        matchedAs: [
          { term: 'engineer', as: 'exact', text: 'engineer' },
          { term: 'spring', as: 'exact', text: 'Spring' },
        ],
        rank: 2,
        documentId: 'cv-java',
        documentName: 'Bob',
        documentDate: '01-2024',
      },
    ]);
    // The stored shape clients read: these keys, in this order.
    expect(Object.keys(outcome.metadata)).toEqual(['topK', 'rerankTopN', 'reranker', 'denseModel', 'stageTimingsMs']);
    expect(outcome.metadata).toMatchObject({ topK: 5, rerankTopN: null, reranker: null, denseModel: FAKE_DENSE_MODEL });
    expect(Object.keys(outcome.metadata.stageTimingsMs)).toEqual(['retrieval', 'documents', 'explain']);
  });

  it("shows the dense match's best chunk as the first highlight", async () => {
    const { dense } = useCase(CVS, {
      denseSearch: () => ({ hits: [{ documentId: 'cv-java', score: 0.7, chunkIndex: 1 }], noKnownWords: false, unknownWords: [] }),
    });
    const [result] = (await dense.execute(command('payment services'))).results;
    expect(result.highlights[0]).toMatchObject({ start: 41 });
    expect(result.highlights[0].text).toContain('payment services');
  });

  it('leaves out a CV the index still returns after it was deleted', async () => {
    const { dense } = useCase([{ ...CVS[0], searchable: false }, CVS[1]]);
    const outcome = await dense.execute(command('engineer'));
    expect(outcome.results.map((r) => [r.rank, r.documentId])).toEqual([[1, 'cv-java']]);
  });

  it('searches again with the text around a word the vectors lack, from the CVs that hold it', async () => {
    const { dense, calls } = useCase(CVS, { denseSearch: kubernetesUnknown });
    const outcome = await dense.execute(command('senior kubernetes engineer'));
    expect(calls.dense).toHaveLength(2);
    expect(calls.dense[1].wordContexts?.get('kubernetes')).toContain('Runs Kubernetes clusters');
    expect(outcome.metadata.inducedWords).toEqual([{ word: 'kubernetes', cvs: 1 }]);
    expect(Object.keys(outcome.metadata)).toEqual(['topK', 'rerankTopN', 'reranker', 'denseModel', 'inducedWords', 'stageTimingsMs']);
    expect(outcome.results.map((r) => r.documentId)).toEqual(['cv-platform']);
  });

  it('still completes, without those words, when the keyword index cannot be asked', async () => {
    const { dense, calls } = useCase(CVS, { denseSearch: kubernetesUnknown, down: ['sparse'] });
    const outcome = await dense.execute(command('senior kubernetes engineer'));
    expect(outcome.metadata.inducedWords).toBeUndefined();
    expect(calls.dense).toHaveLength(1);
    expect(outcome.results.map((r) => r.documentId)).toEqual(['cv-platform']);
  });

  it('fails at once, not retryable, when no word of the query is known nor held by a CV', async () => {
    const { dense } = useCase(CVS, { denseSearch: () => ({ hits: [], noKnownWords: true, unknownWords: ['xqzzvk'] }) });
    const failure = await failureOf(dense.execute(command('xqzzvk')));
    expect(failure).toMatchObject({ message: NO_KNOWN_WORDS, retryable: false });
  });

  it('fails retryable when the dense service is unavailable', async () => {
    const { dense } = useCase(CVS, { down: ['dense'] });
    expect((await failureOf(dense.execute(command('engineer')))).retryable).toBe(true);
  });
});
