import { criterionOf, type JobCriteria } from '@cs/job-criteria';
import type { ProfileInfo, SearchMatch } from '@cs/records';
import { SHIPPED_TUNING } from '@cs/ranking';
import { MATCH_CANDIDATES } from '@cs/search-domain';
import { NO_ATTRIBUTES, skillKey, type SearchAttributes, type SearchFilter } from '@cs/search-filters';
import { searchCommand } from '../../stages/search-command';
import { fakeStages, type FakeCv } from '../../testing/search-fakes';
import { MAX_COUNTED_PHRASE_IDS, RunMatchSearch, keywordQueryOf, meaningOf, type CandidateProfiles } from './run-match-search.use-case';

const CRITERIA: JobCriteria = {
  title: 'Staff Accountant',
  summary: 'Own part of the month-end close and keep the ledger clean.',
  skills: {
    required: [
      { name: 'general ledger', weight: 1 },
      { name: 'payroll', weight: 1 },
    ],
    preferred: [{ name: 'QuickBooks', weight: 0.5 }],
  },
  experienceYears: { min: 3 },
  seniority: null,
  location: null,
  degree: null,
  languages: [],
};

const CVS: FakeCv[] = [
  { id: 'cv-both', name: 'Ann', text: 'Staff Accountant\nGeneral ledger and payroll, 01/2015 to Present.' },
  { id: 'cv-ledger', name: 'Bob', text: 'Accountant\nGeneral ledger, QuickBooks.' },
  { id: 'cv-cook', name: 'Cy', text: 'Line cook\nPrep and grill.' },
];

const PROFILE = { experienceYears: null } as unknown as ProfileInfo;

function useCase(cvs: FakeCv[] = CVS, tuning = SHIPPED_TUNING) {
  const stages = fakeStages(cvs);
  const profiles: CandidateProfiles = {
    getProfiles: async (_companyId, ids) =>
      new Map(ids.map((id) => [id, id === 'cv-both' ? { ...PROFILE, experienceYears: 11 } : PROFILE])),
    getSearchable: stages.searchable.getSearchable,
  };
  return {
    calls: stages.calls,
    match: new RunMatchSearch(
      stages.denseRetrieval,
      stages.sparseRetrieval,
      stages.reranking,
      stages.resultDocuments,
      stages.texts,
      profiles,
      stages.sparse,
      stages.skillPhrases,
      tuning,
    ),
  };
}

const skills = (...names: string[]): SearchFilter => ({ skills: { all: names.map((n) => skillKey(n)!), any: [], none: [] } });
/** The requirements as the gateway resolves them: each required skill, then the years. */
const REQUIREMENTS: NonNullable<SearchMatch['requirements']> = {
  base: null,
  each: [
    { criterion: criterionOf.skill(CRITERIA.skills.required[0], true), filter: skills('general ledger') },
    { criterion: criterionOf.skill(CRITERIA.skills.required[1], true), filter: skills('payroll') },
    { criterion: criterionOf.experienceYears(3), filter: { experienceYears: { gte: 3 } } },
  ],
};

const matchSearch = (criteria: JobCriteria = CRITERIA, topK = 10, strict = false) =>
  searchCommand({
    searchType: 'match',
    companyId: 'c-1',
    query: '',
    similarTo: null,
    match: { criteria, strict, place: null, requirements: REQUIREMENTS },
    topK,
    rerankTopN: MATCH_CANDIDATES.reranked,
    // Strict, the search's filter holds every requirement.
    resolvedFilter: strict ? { ...skills('general ledger', 'payroll'), experienceYears: { gte: 3 } } : null,
  } as Parameters<typeof searchCommand>[0]);

const attributes = (names: string[], experienceYears: number | null): SearchAttributes => ({
  ...NO_ATTRIBUTES,
  skills: names.map((n) => skillKey(n)!),
  experienceYears,
});
/** The CVs with what filters read of them, as the profiles above say. */
const FILTERED_CVS: FakeCv[] = [
  { ...CVS[0], attributes: attributes(['general ledger', 'payroll'], 11) },
  { ...CVS[1], attributes: attributes(['general ledger', 'quickbooks'], null) },
  { ...CVS[2], attributes: attributes([], 4) },
];

describe('RunMatchSearch', () => {
  it('searches the title and skills as keywords, reads the title and the description for meaning, and reranks the best candidates', async () => {
    const { match, calls } = useCase();
    await match.execute(matchSearch());
    expect(calls.sparse[0].query.parts.map((p) => p.text)).toEqual(['Staff Accountant', 'general ledger', 'payroll', 'QuickBooks']);
    expect(calls.sparse[0].topK).toBe(MATCH_CANDIDATES.legs);
    expect(calls.rerank).toEqual([
      expect.objectContaining({ mode: 'builtin', query: meaningOf(CRITERIA), topN: MATCH_CANDIDATES.reranked }),
    ]);
  });

  it('gives each result its criteria met and missing, and ranks by the reranker and the criteria together', async () => {
    const { match } = useCase();
    const outcome = await match.execute(matchSearch());
    const [best, second] = outcome.results;
    expect(best.documentId).toBe('cv-both');
    const statuses = (r: typeof best) => Object.fromEntries(r.match!.criteria.map((c) => [c.criterion.name, c.status]));
    expect(statuses(best)).toEqual({
      'Staff Accountant': 'met',
      'general ledger': 'met',
      payroll: 'met',
      QuickBooks: 'missing',
      '3+ years': 'met',
    });
    expect(statuses(second)).toMatchObject({ payroll: 'missing', QuickBooks: 'met', '3+ years': 'unknown' });
    expect(best.scores.criteria).toBe(best.match!.score);
    expect(best.score).toBeCloseTo(
      (1 - SHIPPED_TUNING.matchCriteriaShare) * best.scores.rerank! + SHIPPED_TUNING.matchCriteriaShare * best.match!.score,
      3,
    );
    expect(outcome.metadata).toMatchObject({
      strict: false,
      criteriaShare: SHIPPED_TUNING.matchCriteriaShare,
      rerankTopN: MATCH_CANDIDATES.reranked,
    });
    // With the whole score the criteria's, the CV meeting more of them leads.
    const byCriteria = await useCase(CVS, { ...SHIPPED_TUNING, matchCriteriaShare: 1 }).match.execute(matchSearch());
    expect(byCriteria.results.map((r) => r.documentId).slice(0, 2)).toEqual(['cv-both', 'cv-ledger']);
  });

  it('counts the CVs meeting every requirement and what each one alone keeps out, most first', async () => {
    const { match } = useCase(FILTERED_CVS);
    const { matchOutcome } = await match.execute(matchSearch());
    expect(matchOutcome).toMatchObject({
      candidatesMeetingAll: 1,
      relaxations: [
        // cv-ledger fails the payroll and the years, cv-cook both skills: neither fails one alone.
        { criterion: { kind: 'skill', name: 'general ledger' }, additionalCandidates: 0 },
        { criterion: { kind: 'skill', name: 'payroll' }, additionalCandidates: 0 },
        { criterion: { kind: 'experienceYears', name: '3+ years' }, additionalCandidates: 0 },
      ],
    });
    const oneShort = [FILTERED_CVS[0], { ...FILTERED_CVS[1], attributes: attributes(['general ledger'], 5) }, FILTERED_CVS[2]];
    const counted = (await useCase(oneShort).match.execute(matchSearch())).matchOutcome!;
    expect(counted.relaxations.map((r) => [r.criterion.name, r.additionalCandidates])).toEqual([
      ['payroll', 1],
      ['general ledger', 0],
      ['3+ years', 0],
    ]);
  });

  it('counts a required skill the vocabulary does not know by the CVs holding it as text', async () => {
    const payrollAsText: SearchFilter = { skills: { all: [], any: [], none: [], phrases: { all: ['payroll'], any: [], none: [] } } };
    const search = matchSearch();
    const each = [REQUIREMENTS.each[0], { ...REQUIREMENTS.each[1], filter: payrollAsText }];
    const { match, calls } = useCase(FILTERED_CVS);
    const { matchOutcome } = await match.execute({ ...search, match: { ...search.match!, requirements: { base: null, each } } });
    expect(calls.phrases).toEqual([expect.objectContaining({ phrase: 'payroll' })]);
    // cv-both's text holds payroll; cv-ledger's names the ledger but not payroll.
    expect(matchOutcome).toMatchObject({
      candidatesMeetingAll: 1,
      relaxations: [
        { criterion: { name: 'payroll' }, additionalCandidates: 1 },
        { criterion: { name: 'general ledger' }, additionalCandidates: 0 },
      ],
    });
  });

  it('leaves out a skill matched as text when its holders would carry the count past its bound, and reports nothing without requirements', async () => {
    const payrollAsText: SearchFilter = { skills: { all: [], any: [], none: [], phrases: { all: ['payroll'], any: [], none: [] } } };
    const search = matchSearch();
    const each = [REQUIREMENTS.each[0], { ...REQUIREMENTS.each[1], filter: payrollAsText }];
    // The search's own filter found the phrase's holders: more than a count carries.
    const many = Array.from({ length: MAX_COUNTED_PHRASE_IDS + 1 }, (_, i) => `held-${i}`);
    const heavy = {
      ...search,
      filter: { ...payrollAsText, skills: { ...payrollAsText.skills!, phraseHolders: [{ phrase: 'payroll', documentIds: many }] } },
      match: { ...search.match!, requirements: { base: null, each } },
    };
    const { match } = useCase(FILTERED_CVS);
    const { matchOutcome } = await match.execute(heavy);
    expect(matchOutcome!.relaxations.map((r) => r.criterion.name)).toEqual(['general ledger']);
    const older = await useCase(FILTERED_CVS).match.execute({ ...search, match: { ...search.match!, requirements: undefined } });
    expect(older.matchOutcome).toBeUndefined();
  });

  it('names the best candidates missing exactly one required criterion, with which', async () => {
    const { match } = useCase(FILTERED_CVS);
    const { matchOutcome } = await match.execute(matchSearch());
    // cv-ledger misses payroll (its years are unknown, not missing); cv-cook misses both skills.
    expect(matchOutcome!.nearMisses).toEqual([
      expect.objectContaining({ documentId: 'cv-ledger', documentName: 'Bob', missing: expect.objectContaining({ name: 'payroll' }) }),
    ]);
  });

  it('strict, finds the near misses by the search without the requirements, the client’s filters kept', async () => {
    const { match, calls } = useCase(FILTERED_CVS);
    const outcome = await match.execute(matchSearch(CRITERIA, 10, true));
    expect(outcome.results.map((r) => r.documentId)).toEqual(['cv-both']);
    expect(outcome.matchOutcome!.nearMisses.map((n) => [n.documentId, n.missing.name])).toEqual([['cv-ledger', 'payroll']]);
    expect(calls.sparse.map((c) => c.filter ?? null)).toEqual([matchSearch(CRITERIA, 10, true).filter, null]);
    expect(calls.rerank.map((r) => r.topN)).toEqual([MATCH_CANDIDATES.reranked, MATCH_CANDIDATES.assessed]);
  });

  it('reads the title and the description for meaning, or the title and the required skills without one, within 500 characters', () => {
    expect(meaningOf(CRITERIA)).toBe('Staff Accountant, Own part of the month-end close and keep the ledger clean.');
    expect(meaningOf({ ...CRITERIA, summary: null })).toBe('Staff Accountant, general ledger, payroll');
    const long = meaningOf({ ...CRITERIA, summary: 'word '.repeat(200).trim() });
    expect(long.length).toBeLessThanOrEqual(500);
    expect(long.endsWith('word')).toBe(true);
    expect(keywordQueryOf({ ...CRITERIA, title: null, skills: { required: [{ name: '?!', weight: 1 }], preferred: [] } }).parts).toEqual(
      [],
    );
  });
});
