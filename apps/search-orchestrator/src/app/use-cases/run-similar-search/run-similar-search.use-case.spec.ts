import { SHIPPED_TUNING } from '@cs/ranking';
import { MIN_SIMILAR_CANDIDATES } from '@cs/search-domain';
import { searchCommand } from '../../stages/search-command';
import { command, failureOf, fakeStages, type FakeCv } from '../../testing/search-fakes';
import { RunSimilarSearch } from './run-similar-search.use-case';

const CVS: FakeCv[] = [
  { id: 'cv-seed', name: 'Ann', text: 'Platform engineer\nKubernetes operators, Terraform modules, Kubernetes upgrades.' },
  { id: 'cv-twin', name: 'Bob', text: 'DevOps engineer\nKubernetes clusters and Terraform.' },
  { id: 'cv-cook', name: 'Cy', text: 'Line cook\nPrep and grill.' },
];

function useCase(cvs: FakeCv[] = CVS) {
  const stages = fakeStages(cvs);
  return {
    calls: stages.calls,
    similar: new RunSimilarSearch(
      stages.denseRetrieval,
      stages.sparseRetrieval,
      stages.resultDocuments,
      stages.texts,
      stages.sparse,
      SHIPPED_TUNING,
    ),
  };
}

/** As the pipeline makes it from a stored search: the CV kept out by the filter. */
const similarTo = (documentId: string, topK = 10) =>
  searchCommand({
    searchType: 'similar',
    companyId: 'c-1',
    query: '',
    similarTo: documentId,
    topK,
    rerankTopN: 30,
    resolvedFilter: { excludeDocumentIds: ['cv-cook'] },
  } as Parameters<typeof searchCommand>[0]);

describe('RunSimilarSearch', () => {
  it('searches both legs from the CV, itself kept out by the filter, and explains results by its distinctive words', async () => {
    const { similar, calls } = useCase();
    const outcome = await similar.execute(similarTo('cv-seed'));
    const filter = { excludeDocumentIds: ['cv-cook', 'cv-seed'] };
    expect(calls.similar).toEqual([{ documentId: 'cv-seed', topK: MIN_SIMILAR_CANDIDATES, filter }]);
    expect(calls.sparse).toHaveLength(1);
    expect(calls.sparse[0].filter).toEqual(filter);
    // The keyword leg's words are the CV's own, as written, each its own part.
    expect(calls.sparse[0].query.parts.map((p) => p.text)).toEqual(outcome.metadata.distinctiveTerms);
    expect(outcome.metadata.distinctiveTerms).toEqual(expect.arrayContaining(['kubernetes', 'terraform']));
    expect(outcome.results.map((r) => r.documentId)).toEqual(['cv-twin']);
    const twin = outcome.results.find((r) => r.documentId === 'cv-twin')!;
    expect(twin.matchedTerms).toEqual(expect.arrayContaining(['kubernetes', 'terraform']));
    expect(outcome.metadata).toMatchObject({ topK: 10, rerankTopN: null, reranker: null, similarTo: 'cv-seed' });
    expect(outcome.metadata.fusion.method).toBe('convex-combination');
  });

  it('returns at most top K', async () => {
    const { similar } = useCase();
    expect((await similar.execute(similarTo('cv-seed', 1))).results).toHaveLength(1);
  });

  it('fails, not retryable, when the CV was deleted before the search ran', async () => {
    const { similar } = useCase();
    const failure = await failureOf(similar.execute(similarTo('cv-gone')));
    expect(failure).toMatchObject({ retryable: false });
    expect(failure.message).toMatch(/cv-gone .*was deleted/);
  });

  it('refuses a command without the CV it starts from', async () => {
    const { similar } = useCase();
    await expect(similar.execute(command('', { type: 'similar' }))).rejects.toThrow(/without the CV/);
  });
});
