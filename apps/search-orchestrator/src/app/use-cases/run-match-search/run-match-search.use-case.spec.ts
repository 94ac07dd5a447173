import type { JobCriteria } from '@cs/job-criteria';
import type { ProfileInfo } from '@cs/records';
import { SHIPPED_TUNING } from '@cs/ranking';
import { MATCH_CANDIDATES } from '@cs/search-domain';
import { searchCommand } from '../../stages/search-command';
import { fakeStages, type FakeCv } from '../../testing/search-fakes';
import { RunMatchSearch, keywordQueryOf, meaningOf, type CandidateProfiles } from './run-match-search.use-case';

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
      tuning,
    ),
  };
}

const matchSearch = (criteria: JobCriteria = CRITERIA, topK = 10) =>
  searchCommand({
    searchType: 'match',
    companyId: 'c-1',
    query: '',
    similarTo: null,
    match: { criteria, strict: false, place: null },
    topK,
    rerankTopN: MATCH_CANDIDATES.reranked,
    resolvedFilter: null,
  } as Parameters<typeof searchCommand>[0]);

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
