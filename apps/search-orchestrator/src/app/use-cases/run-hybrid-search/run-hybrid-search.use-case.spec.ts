import { DENSE_SHARE, SHIPPED_TUNING } from '@cs/ranking';
import { MIN_RERANK_CANDIDATES } from '@cs/search-domain';
import { NO_ATTRIBUTES } from '@cs/search-filters';
import { NOTHING_TO_SEARCH } from '../../stages/unsearchable-query';
import { command, failureOf, fakeStages, type FakeCv, type FakeServices } from '../../testing/search-fakes';
import { RunHybridSearch } from './run-hybrid-search.use-case';

const CVS: FakeCv[] = [
  { id: 'cv-analyst', name: 'Ann', text: 'Financial Analyst\nForecasts and budgets.' },
  { id: 'cv-accountant', name: 'Bob', text: 'Staff Accountant\nGeneral ledger and reconciliations.' },
  { id: 'cv-clerk', name: 'Cy', text: 'Accounts Clerk\nReconciliations and invoices.' },
  { id: 'cv-cook', name: 'Di', text: 'Line Cook\nPrep and grill.' },
];

/** Dense finds the analyst, then the accountant; sparse the clerk, then the accountant. */
const DENSE: FakeServices['denseSearch'] = () => ({
  hits: [
    { documentId: 'cv-analyst', score: 0.8, chunkIndex: -1 },
    { documentId: 'cv-accountant', score: 0.7, chunkIndex: -1 },
  ],
  noKnownWords: false,
  unknownWords: [],
});
const SPARSE: FakeServices['sparseSearch'] = () => [
  { documentId: 'cv-clerk', score: 4, maxScore: 4, matchedTerms: ['reconciliations'] },
  { documentId: 'cv-accountant', score: 2, maxScore: 4, matchedTerms: ['reconciliations'] },
];

function useCase(services: FakeServices = {}) {
  const stages = fakeStages(CVS, { denseSearch: DENSE, sparseSearch: SPARSE, ...services });
  return {
    calls: stages.calls,
    hybrid: new RunHybridSearch(
      stages.denseRetrieval,
      stages.sparseRetrieval,
      stages.reranking,
      stages.resultDocuments,
      stages.keywordConditions,
      SHIPPED_TUNING,
    ),
  };
}

describe('RunHybridSearch', () => {
  it("gives the reranker the dense model's cosines when that model is not builtin, a keyword-only CV the leg's lowest", async () => {
    const onnx = useCase({ denseModel: { id: 'onnx:minilm@0123456789ab', dimensions: 384 } });
    await onnx.hybrid.execute(command('accountant, reconciliations', { topK: 10, rerankTopN: 3 }));
    expect(onnx.calls.rerank[0].candidates.map((c) => [c.id, c.denseScore])).toEqual([
      ['cv-analyst', 0.8],
      ['cv-clerk', 0.7],
      ['cv-accountant', 0.7],
    ]);
    // The builtin reranker reads the builtin model's meaning from its own word vectors.
    const builtin = useCase();
    await builtin.hybrid.execute(command('accountant, reconciliations', { topK: 10, rerankTopN: 3 }));
    expect(builtin.calls.rerank[0].candidates.every((c) => c.denseScore === undefined)).toBe(true);
  });

  it('fuses both legs (a CV both found high first) and has the external provider rerank them', async () => {
    // Each leg's third hit is its lowest, which min-max normalisation puts at 0.
    const { hybrid, calls } = useCase({
      denseSearch: (...args) => {
        const found = DENSE(...args);
        return { ...found, hits: [...found.hits, { documentId: 'cv-cook', score: 0.2, chunkIndex: -1 }] };
      },
      sparseSearch: (...args) => [...SPARSE(...args), { documentId: 'cv-cook', score: 1, maxScore: 4, matchedTerms: [] }],
    });
    const outcome = await hybrid.execute(command('accountant, reconciliations', { topK: 10, rerankTopN: 3 }));
    expect(calls.dense.map((c) => c.topK)).toEqual([MIN_RERANK_CANDIDATES.hybrid]);
    expect(calls.sparse.map((c) => c.topK)).toEqual([MIN_RERANK_CANDIDATES.hybrid]);
    expect(calls.rerank.map((c) => [c.mode, c.topN, c.candidates.map((x) => x.id)])).toEqual([
      ['external', 3, ['cv-accountant', 'cv-analyst', 'cv-clerk', 'cv-cook']],
    ]);
    // The accountant: dense's share of 5/6 (0.7 between 0.2 and 0.8) and the rest of 1/3 (0.5 between
    // 0.25 and 1), the best; the analyst, dense's share of 1, over that.
    const best = (DENSE_SHARE * 5) / 6 + (1 - DENSE_SHARE) / 3;
    expect(calls.rerank[0].candidates.map((c) => c.firstStageScore)).toEqual([
      1,
      expect.closeTo(DENSE_SHARE / best, 10),
      expect.closeTo((1 - DENSE_SHARE) / best, 10),
      0,
    ]);
    expect(outcome.results.map((r) => [r.rank, r.documentId])).toEqual([
      [1, 'cv-accountant'],
      [2, 'cv-analyst'],
      [3, 'cv-clerk'],
    ]);
    expect(outcome.results[0].scores).toEqual({ dense: 0.7, sparse: 0.5, fused: 1, rerank: 1 });
    const analyst = Math.round((DENSE_SHARE / best) * 1e4) / 1e4;
    expect(outcome.results[1].scores).toEqual({ dense: 0.8, fused: analyst, rerank: analyst });
    expect(Object.keys(outcome.metadata)).toEqual(['topK', 'rerankTopN', 'reranker', 'denseModel', 'fusion', 'stageTimingsMs']);
    expect(outcome.metadata).toMatchObject({
      topK: 10,
      rerankTopN: 3,
      reranker: { provider: 'cohere:rerank-v3.5', degraded: false },
      fusion: { method: 'convex-combination', denseShare: DENSE_SHARE, denseCandidates: 3, sparseCandidates: 3, fusedCandidates: 4 },
    });
    expect(Object.keys(outcome.metadata.stageTimingsMs)).toEqual(['retrieval', 'rerank', 'documents', 'explain']);
  });

  it('reads meaning from the positive words alone: the dense leg and the reranker never see operators or excluded words', async () => {
    const { hybrid, calls } = useCase();
    await hybrid.execute(command('+(accountant OR clerk) title:"staff accountant" -php, reconciliations', { topK: 10, rerankTopN: 3 }));
    expect(calls.dense.map((c) => c.query)).toEqual(['accountant clerk staff accountant reconciliations']);
    expect(calls.rerank.map((c) => c.query)).toEqual(['accountant clerk staff accountant reconciliations']);
    expect(calls.sparse[0].query.excluded).toEqual([{ kind: 'text', text: 'php', terms: ['php'] }]);
  });

  it('gives the dense leg and the reranker a query without operators as it was written', async () => {
    const { hybrid, calls } = useCase();
    await hybrid.execute(command('"general ledger", reconciliations', { topK: 10, rerankTopN: 3 }));
    expect(calls.dense.map((c) => c.query)).toEqual(['"general ledger", reconciliations']);
    expect(calls.rerank.map((c) => c.query)).toEqual(['"general ledger", reconciliations']);
  });

  it('holds the dense candidates the keyword leg did not return to the + and - clauses', async () => {
    // The analyst, found by dense alone, says "budgets"; the accountant was found by both legs.
    const excluded = useCase();
    const outcome = await excluded.hybrid.execute(command('reconciliations -budgets', { topK: 10, rerankTopN: 5 }));
    expect(excluded.calls.rerank[0].candidates.map((c) => c.id).sort()).toEqual(['cv-accountant', 'cv-clerk']);
    expect(outcome.results.map((r) => r.documentId)).not.toContain('cv-analyst');
    expect(outcome.metadata.fusion).toMatchObject({ denseCandidates: 1, sparseCandidates: 2, fusedCandidates: 2 });
    const required = useCase();
    await required.hybrid.execute(command('reconciliations +title:"financial analyst"', { topK: 10, rerankTopN: 5 }));
    expect(required.calls.rerank[0].candidates.map((c) => c.id).sort()).toEqual(['cv-accountant', 'cv-analyst', 'cv-clerk']);
  });

  it('reads skill: clauses of dense candidates in their profile', async () => {
    const withSkills = CVS.map((cv) => (cv.id === 'cv-analyst' ? { ...cv, attributes: { ...NO_ATTRIBUTES, skills: ['excel'] } } : cv));
    const run = (query: string) => {
      const stages = fakeStages(withSkills, { denseSearch: DENSE, sparseSearch: SPARSE });
      const hybrid = new RunHybridSearch(
        stages.denseRetrieval,
        stages.sparseRetrieval,
        stages.reranking,
        stages.resultDocuments,
        stages.keywordConditions,
        SHIPPED_TUNING,
      );
      return hybrid
        .execute(command(query, { topK: 10, rerankTopN: 5 }))
        .then(() => stages.calls.rerank[0].candidates.map((c) => c.id).sort());
    };
    expect(await run('reconciliations -skill:Excel')).toEqual(['cv-accountant', 'cv-clerk']);
    expect(await run('reconciliations +skill:excel')).toEqual(['cv-accountant', 'cv-analyst', 'cv-clerk']);
  });

  it('says degraded, and why, when the builtin reranker stood in for a failing provider', async () => {
    const { hybrid } = useCase({
      external: (candidates) => ({
        provider: 'builtin',
        degraded: { reason: 'reranker answered HTTP 429' },
        results: candidates.map((c, i) => ({ id: c.id, score: 0.9 - i / 10 })),
      }),
    });
    const outcome = await hybrid.execute(command('accountant, reconciliations'));
    expect(outcome.metadata.reranker).toEqual({ provider: 'builtin', degraded: true, degradedReason: 'reranker answered HTTP 429' });
    expect(Object.keys(outcome.metadata.reranker)).toEqual(['provider', 'degraded', 'degradedReason']);
    expect(outcome.results).toHaveLength(3);
  });

  it('runs the dense leg alone for a query with no keywords', async () => {
    const { hybrid, calls } = useCase();
    const outcome = await hybrid.execute(command('!!!'));
    expect(calls.sparse).toEqual([]);
    expect(outcome.metadata.fusion).toMatchObject({ denseCandidates: 2, sparseCandidates: 0, fusedCandidates: 2 });
  });

  it('runs the sparse leg alone for a query with no word the vectors know', async () => {
    const { hybrid } = useCase({ denseSearch: () => ({ hits: [], noKnownWords: true, unknownWords: [] }) });
    const outcome = await hybrid.execute(command('reconciliations'));
    expect(outcome.metadata.fusion).toMatchObject({ denseCandidates: 0, sparseCandidates: 2, fusedCandidates: 2 });
    expect(outcome.results.map((r) => r.documentId)).toEqual(['cv-clerk', 'cv-accountant']);
  });

  it('fails at once, not retryable, when neither leg has anything to search with', async () => {
    const { hybrid, calls } = useCase({ denseSearch: () => ({ hits: [], noKnownWords: true, unknownWords: [] }) });
    expect(await failureOf(hybrid.execute(command('?!')))).toMatchObject({ message: NOTHING_TO_SEARCH, retryable: false });
    expect(calls.rerank).toEqual([]);
  });

  it.each(['dense', 'sparse', 'reranker'] as const)('fails retryable when the %s service is unavailable', async (service) => {
    const { hybrid } = useCase({ down: [service] });
    expect((await failureOf(hybrid.execute(command('accountant, reconciliations')))).retryable).toBe(true);
  });
});
