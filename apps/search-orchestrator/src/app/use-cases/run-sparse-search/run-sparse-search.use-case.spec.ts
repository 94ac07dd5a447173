import { NO_KEYWORDS } from '../../stages/unsearchable-query';
import { command, failureOf, fakeStages, type FakeCv, type FakeServices } from '../../testing/search-fakes';
import { RunSparseSearch } from './run-sparse-search.use-case';

const CVS: FakeCv[] = [
  { id: 'cv-accountant', name: 'Ann', text: 'Staff Accountant\nGeneral ledger, reconciliations and month-end close in SAP.' },
  { id: 'cv-clerk', name: 'Bob', text: 'Accounts Clerk\nInvoices and reconciliations.' },
  { id: 'cv-chef', name: 'Cy', text: 'Chef\nMenus and kitchen staff.' },
];

function useCase(services: FakeServices = {}) {
  const stages = fakeStages(CVS, services);
  return { calls: stages.calls, sparse: new RunSparseSearch(stages.sparseRetrieval, stages.resultDocuments) };
}

describe('RunSparseSearch', () => {
  it("ranks the CVs holding the query's keywords, each score over the query's upper bound", async () => {
    const { sparse, calls } = useCase();
    const outcome = await sparse.execute(command('general ledger, reconciliations', { topK: 7 }));
    expect(calls.sparse).toEqual([{ query: expect.objectContaining({ raw: 'general ledger, reconciliations' }), topK: 7 }]);
    expect(outcome.results.map((r) => [r.rank, r.documentId, r.score, r.scores])).toEqual([
      [1, 'cv-accountant', 1, { sparse: 1 }],
      [2, 'cv-clerk', 0.5, { sparse: 0.5 }],
    ]);
    expect(outcome.results[0].matchedTerms).toEqual(['general ledger', 'reconciliations']);
    expect(outcome.results[1].highlights[0].text).toContain('reconciliations');
    expect(Object.keys(outcome.metadata)).toEqual(['topK', 'rerankTopN', 'reranker', 'stageTimingsMs']);
    expect(outcome.metadata).toMatchObject({ topK: 7, rerankTopN: null, reranker: null });
    expect(Object.keys(outcome.metadata.stageTimingsMs)).toEqual(['retrieval', 'documents', 'explain']);
  });

  it('sends the keyword query language to the index: + and - clauses as conditions, excluded words never scored', async () => {
    const { sparse, calls } = useCase();
    const outcome = await sparse.execute(command('reconciliations +(ledger OR invoices) -chef'));
    expect(calls.sparse[0].query).toMatchObject({
      parts: [
        { text: 'reconciliations', terms: ['reconcili'], phrase: false },
        { text: 'ledger', terms: ['ledger'], phrase: false },
        { text: 'invoices', terms: ['invoic'], phrase: false },
      ],
      required: [{ kind: 'any', of: [expect.objectContaining({ text: 'ledger' }), expect.objectContaining({ text: 'invoices' })] }],
      excluded: [{ kind: 'text', text: 'chef', terms: ['chef'] }],
    });
    expect(outcome.results.flatMap((r) => r.matchedTerms)).not.toContain('chef');
  });

  it('fails at once, not retryable, naming the character, for a malformed query stored before queries were checked', async () => {
    const { sparse, calls } = useCase();
    const failure = await failureOf(sparse.execute(command('reconciliations OR')));
    expect(failure).toMatchObject({ retryable: false, message: expect.stringContaining('query at character 17: OR needs') });
    expect(calls.sparse).toEqual([]);
  });

  it('lists a term only where the CV holds it as written, as an inflection or as a synonym, says how, and marks only those', async () => {
    // The index finds CVs by stem: "Accounts" is held as account, the stem of accountant too.
    const { sparse } = useCase({
      sparseSearch: () => [
        { documentId: 'cv-clerk', score: 2, maxScore: 2, matchedTerms: ['accountant', 'invoice'] },
        { documentId: 'cv-accountant', score: 1, maxScore: 2, matchedTerms: ['accountant'] },
      ],
    });
    const [clerk, accountant] = (await sparse.execute(command('accountant, invoice'))).results;
    expect(clerk.matchedTerms).toEqual(['invoice']);
    expect(clerk.matchedAs).toEqual([{ term: 'invoice', as: 'inflection', text: 'Invoices' }]);
    const marked = clerk.highlights.flatMap((h) => h.matches.map((m) => h.text.slice(m.start, m.end)));
    expect(marked).toEqual(['Invoices']);
    expect(accountant.matchedAs).toEqual([{ term: 'accountant', as: 'exact', text: 'Accountant' }]);
  });

  it('scores 0 when the index gives no upper bound, and never above 1', async () => {
    const { sparse } = useCase({
      sparseSearch: () => [
        { documentId: 'cv-clerk', score: 9, maxScore: 4, matchedTerms: ['invoices'] },
        { documentId: 'cv-chef', score: 3, maxScore: 0, matchedTerms: ['invoices'] },
      ],
    });
    const outcome = await sparse.execute(command('invoices'));
    expect(outcome.results.map((r) => r.score)).toEqual([1, 0]);
  });

  it('fails at once, not retryable, when no keyword is left after analysis', async () => {
    const { sparse, calls } = useCase();
    const failure = await failureOf(sparse.execute(command('the, and, of!')));
    expect(failure).toMatchObject({ message: NO_KEYWORDS, retryable: false });
    expect(calls.sparse).toEqual([]);
  });

  it('fails retryable when the sparse service is unavailable', async () => {
    const { sparse } = useCase({ down: ['sparse'] });
    expect((await failureOf(sparse.execute(command('invoices')))).retryable).toBe(true);
  });
});
