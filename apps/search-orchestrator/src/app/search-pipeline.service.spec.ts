import type { SearchRecord } from '@cs/records';
import { SEARCH_TYPES, type SearchType } from '@cs/search-domain';
import { MAX_TEXT_SKILL_CVS, type SearchFilter } from '@cs/search-filters';
import { SearchPipelineService } from './search-pipeline.service';
import { failureOf, fakeStages } from './testing/search-fakes';
import type { SearchCommand, SearchOutcome } from './stages/search-command';
import type { RunBuiltinRerankSearch } from './use-cases/run-builtin-rerank-search/run-builtin-rerank-search.use-case';
import type { RunDenseSearch } from './use-cases/run-dense-search/run-dense-search.use-case';
import type { RunHybridSearch } from './use-cases/run-hybrid-search/run-hybrid-search.use-case';
import type { RunSparseSearch } from './use-cases/run-sparse-search/run-sparse-search.use-case';
import type { RunMatchSearch } from './use-cases/run-match-search/run-match-search.use-case';
import type { RunSimilarSearch } from './use-cases/run-similar-search/run-similar-search.use-case';

/** A use case that records the command it ran. */
function recording(type: SearchType, ran: [SearchType, SearchCommand][]) {
  return {
    execute: async (command: SearchCommand) => {
      ran.push([type, command]);
      return {
        results: [],
        metadata: { topK: command.topK, stageTimingsMs: { retrieval: 1.5, documents: 1, explain: 1 } },
      } as unknown as SearchOutcome;
    },
  };
}

describe('SearchPipelineService', () => {
  it.each(SEARCH_TYPES)('runs a %s search through its own use case, with the search as a command', async (type) => {
    const ran: [SearchType, SearchCommand][] = [];
    const pipeline = new SearchPipelineService(
      recording('dense', ran) as RunDenseSearch,
      recording('sparse', ran) as RunSparseSearch,
      recording('hybrid', ran) as RunHybridSearch,
      recording('builtin-rerank', ran) as RunBuiltinRerankSearch,
      recording('similar', ran) as RunSimilarSearch,
      recording('match', ran) as RunMatchSearch,
      fakeStages([]).facetCounting,
      fakeStages([]).skillPhrases,
    );
    const search = {
      id: 's-1',
      companyId: 'c-1',
      searchGroupId: 'g-1',
      searchType: type,
      query: 'nurse',
      topK: 12,
      rerankTopN: 7,
      similarTo: null,
      resolvedFilter: null,
      facetFields: [],
    } as unknown as SearchRecord;
    const outcome = await pipeline.run(search);
    expect(ran).toEqual([[type, { type, companyId: 'c-1', query: 'nurse', similarTo: null, topK: 12, rerankTopN: 7, filter: null }]]);
    expect(outcome.facets).toBeUndefined();
  });
});

describe('SearchPipelineService with facets', () => {
  const attributes = (seniority: string, skills: string[]) => ({
    skills,
    experienceYears: null,
    seniority,
    domain: 'software engineering',
    degree: null,
    languages: [],
    location: null,
    documentDate: null,
  });
  const cvs = [
    { id: 'a', name: 'a', text: 'java', attributes: attributes('senior', ['java', 'kubernetes']) },
    { id: 'b', name: 'b', text: 'java', attributes: attributes('senior', ['java']) },
    { id: 'c', name: 'c', text: 'php', attributes: attributes('junior', ['php']) },
  ];

  it('counts the asked fields over the CVs that pass and over the results, by the names the profile writes', async () => {
    const stages = fakeStages(cvs);
    const filter = { seniority: ['senior', 'junior'] };
    const results = [{ documentId: 'a' }, { documentId: 'c' }];
    const use = { execute: async () => ({ results, metadata: {} }) as unknown as SearchOutcome };
    const pipeline = new SearchPipelineService(
      use as unknown as RunDenseSearch,
      use as unknown as RunSparseSearch,
      use as unknown as RunHybridSearch,
      use as unknown as RunBuiltinRerankSearch,
      use as unknown as RunSimilarSearch,
      use as unknown as RunMatchSearch,
      stages.facetCounting,
      stages.skillPhrases,
    );
    const search = {
      id: 's-1',
      companyId: 'c-1',
      searchType: 'dense',
      query: 'java',
      topK: 10,
      rerankTopN: 10,
      resolvedFilter: filter,
      facetFields: ['seniority', 'skills', 'domain'],
    } as unknown as SearchRecord;
    const outcome = await pipeline.run(search);
    expect(outcome.facets).toEqual({
      passing: {
        cvs: 3,
        fields: {
          seniority: [
            { value: 'senior', count: 2 },
            { value: 'junior', count: 1 },
          ],
          skills: [
            { value: 'Java', count: 2 },
            { value: 'Kubernetes', count: 1 },
            { value: 'PHP', count: 1 },
          ],
          domain: [{ value: 'Software engineering', count: 3 }],
        },
      },
      results: {
        cvs: 2,
        fields: {
          seniority: [
            { value: 'junior', count: 1 },
            { value: 'senior', count: 1 },
          ],
          skills: [
            { value: 'Java', count: 1 },
            { value: 'Kubernetes', count: 1 },
            { value: 'PHP', count: 1 },
          ],
          domain: [{ value: 'Software engineering', count: 2 }],
        },
      },
    });
    expect(stages.calls.facets).toEqual([
      { fields: ['seniority', 'skills', 'domain'], filter },
      { fields: ['seniority', 'skills', 'domain'], filter: { documentIds: ['a', 'c'] } },
    ]);
  });
});

describe('SearchPipelineService with skills matched as text', () => {
  const cvs = [
    { id: 'a', name: 'a', text: 'Built web shops in Java' },
    { id: 'b', name: 'b', text: 'Java services' },
    { id: 'c', name: 'c', text: 'Web Shops and more' },
  ];
  const filter: SearchFilter = {
    skills: { all: [], any: ['java'], none: [], phrases: { all: [], any: ['web shops'], none: ['more'] } },
  };
  const searchOf = (resolvedFilter: SearchFilter | null, facetFields: string[] = []) =>
    ({
      id: 's-1',
      companyId: 'c-1',
      searchType: 'hybrid',
      query: 'java',
      topK: 10,
      rerankTopN: 10,
      resolvedFilter,
      facetFields,
    }) as unknown as SearchRecord;
  const pipelineOver = (stages: ReturnType<typeof fakeStages>, ran: [SearchType, SearchCommand][]) =>
    new SearchPipelineService(
      recording('dense', ran) as RunDenseSearch,
      recording('sparse', ran) as RunSparseSearch,
      recording('hybrid', ran) as RunHybridSearch,
      recording('builtin-rerank', ran) as RunBuiltinRerankSearch,
      recording('similar', ran) as RunSimilarSearch,
      recording('match', ran) as RunMatchSearch,
      stages.facetCounting,
      stages.skillPhrases,
    );

  it('finds the CVs holding each phrase before the legs run, gives them to the legs and the counts, and names the phrases', async () => {
    const stages = fakeStages(cvs);
    const ran: [SearchType, SearchCommand][] = [];
    const outcome = await pipelineOver(stages, ran).run(searchOf(filter, ['skills']));
    expect(stages.calls.phrases).toEqual([
      { phrase: 'web shops', limit: MAX_TEXT_SKILL_CVS + 1 },
      { phrase: 'more', limit: MAX_TEXT_SKILL_CVS + 1 },
    ]);
    const resolved: SearchFilter = {
      skills: {
        ...filter.skills!,
        phraseHolders: [
          { phrase: 'web shops', documentIds: ['a', 'c'] },
          { phrase: 'more', documentIds: ['c'] },
        ],
      },
    };
    expect(ran.map(([, c]) => c.filter)).toEqual([resolved]);
    expect(stages.calls.facets[0].filter).toEqual(resolved);
    expect(outcome.metadata).toEqual({
      topK: 10,
      skillsMatchedAsText: ['web shops', 'more'],
      // The lookup's time is the retrieval's.
      stageTimingsMs: { retrieval: expect.any(Number), documents: 1, explain: 1 },
    });
    expect(outcome.metadata.stageTimingsMs.retrieval).toBeGreaterThanOrEqual(1.5);
  });

  it('asks nothing more of the keyword store, and names nothing, without phrases', async () => {
    const stages = fakeStages(cvs);
    const ran: [SearchType, SearchCommand][] = [];
    const plain: SearchFilter = { skills: { all: ['java'], any: [], none: [] } };
    const outcome = await pipelineOver(stages, ran).run(searchOf(plain));
    expect(stages.calls.phrases).toEqual([]);
    expect(ran.map(([, c]) => c.filter)).toEqual([plain]);
    expect(outcome.metadata).toEqual({ topK: 10, stageTimingsMs: { retrieval: 1.5, documents: 1, explain: 1 } });
  });

  it('fails the search, not retryable, when more CVs than the cap hold a phrase', async () => {
    const many = Array.from({ length: MAX_TEXT_SKILL_CVS + 5 }, (_, i) => ({ id: `cv-${i}`, name: `${i}`, text: 'web shops' }));
    const ran: [SearchType, SearchCommand][] = [];
    const failure = await failureOf(pipelineOver(fakeStages(many), ran).run(searchOf(filter)));
    expect(failure.retryable).toBe(false);
    expect(failure.message).toMatch(
      /"web shops" is not in the skills vocabulary, and more than 2000 .*use a skill of the vocabulary or a keyword/,
    );
    expect(ran).toEqual([]);
  });
});
