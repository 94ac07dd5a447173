import { MIN_RERANK_CANDIDATES } from '@cs/search-domain';
import { NO_KNOWN_WORDS } from '../../stages/unsearchable-query';
import { command, failureOf, fakeStages, type FakeCv, type FakeServices } from '../../testing/search-fakes';
import { RunBuiltinRerankSearch } from './run-builtin-rerank-search.use-case';

const CVS: FakeCv[] = [
  { id: 'cv-nurse', name: 'Ann', text: 'Registered Nurse\nPatient care in intensive care units.' },
  { id: 'cv-platform', name: 'Bob', text: 'Platform Engineer\nRuns Kubernetes clusters for containers.' },
  { id: 'cv-devops', name: 'Cy', text: 'DevOps Engineer\nKubernetes, Terraform and CI/CD pipelines.' },
];

/** The builtin reranker's view: the DevOps CV first, then the platform engineer, the nurse last. */
const RERANK: Record<string, number> = { 'cv-devops': 0.97, 'cv-platform': 0.6, 'cv-nurse': 0.1 };

function useCase(services: FakeServices = {}) {
  const stages = fakeStages(CVS, { builtinScore: (id) => RERANK[id], ...services });
  return {
    calls: stages.calls,
    builtinRerank: new RunBuiltinRerankSearch(stages.denseRetrieval, stages.reranking, stages.resultDocuments),
  };
}

describe('RunBuiltinRerankSearch', () => {
  it("reads at least the domain's minimum of dense candidates and returns the builtin reranker's best rerankTopN", async () => {
    const { builtinRerank, calls } = useCase();
    const outcome = await builtinRerank.execute(command('devops engineer', { topK: 20, rerankTopN: 2 }));
    expect(calls.dense.map((c) => c.topK)).toEqual([MIN_RERANK_CANDIDATES['builtin-rerank']]);
    expect(calls.rerank).toEqual([
      {
        mode: 'builtin',
        query: 'devops engineer',
        topN: 2,
        wordContexts: new Map(),
        candidates: [
          { id: 'cv-nurse', firstStageScore: 0.9 },
          { id: 'cv-platform', firstStageScore: 0.8 },
          { id: 'cv-devops', firstStageScore: 0.7 },
        ],
      },
    ]);
    expect(outcome.results.map((r) => [r.rank, r.documentId, r.score, r.scores])).toEqual([
      [1, 'cv-devops', 0.97, { dense: 0.7, rerank: 0.97 }],
      [2, 'cv-platform', 0.6, { dense: 0.8, rerank: 0.6 }],
    ]);
    expect(Object.keys(outcome.metadata)).toEqual(['topK', 'rerankTopN', 'reranker', 'denseModel', 'candidates', 'stageTimingsMs']);
    expect(outcome.metadata).toMatchObject({ topK: 20, rerankTopN: 2, reranker: { provider: 'builtin', degraded: false }, candidates: 3 });
    expect(Object.keys(outcome.metadata.stageTimingsMs)).toEqual(['retrieval', 'rerank', 'documents', 'explain']);
  });

  it('lets the reranker read a word the vectors lack as the dense leg did', async () => {
    const { builtinRerank, calls } = useCase({
      denseSearch: (query, _topK, wordContexts) => ({
        hits: [{ documentId: 'cv-platform', score: 0.5, chunkIndex: -1 }],
        noKnownWords: false,
        unknownWords: !wordContexts?.has('kubernetes') ? ['kubernetes'] : [],
      }),
    });
    const outcome = await builtinRerank.execute(command('kubernetes'));
    expect(calls.rerank[0].wordContexts?.get('kubernetes')).toContain('Kubernetes, Terraform');
    expect(outcome.metadata.inducedWords).toEqual([{ word: 'kubernetes', cvs: 2 }]);
    expect(Object.keys(outcome.metadata)).toEqual([
      'topK',
      'rerankTopN',
      'reranker',
      'denseModel',
      'inducedWords',
      'candidates',
      'stageTimingsMs',
    ]);
  });

  it('fails at once, not retryable, when no word of the query is known nor held by a CV', async () => {
    const { builtinRerank, calls } = useCase({ denseSearch: () => ({ hits: [], noKnownWords: true, unknownWords: [] }) });
    expect(await failureOf(builtinRerank.execute(command('שלום')))).toMatchObject({ message: NO_KNOWN_WORDS, retryable: false });
    expect(calls.rerank).toEqual([]);
  });

  it('fails retryable when the reranker service is unavailable', async () => {
    const { builtinRerank } = useCase({ down: ['reranker'] });
    expect((await failureOf(builtinRerank.execute(command('devops engineer')))).retryable).toBe(true);
  });
});
