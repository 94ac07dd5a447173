import { describe, expect, it } from '@jest/globals';
import { SearchFilters } from '@cs/search-filters/body';
import { FACET_FIELDS, TOP_SKILLS as API_TOP_SKILLS, YEAR_BANDS as API_YEAR_BANDS } from '@cs/search-filters/facets';
import {
  FACETS,
  TOP_SKILLS,
  YEAR_BANDS,
  addNames,
  degreeAtLeastCounts,
  emptyFilterState,
  filtersOf,
  parseFilterState,
  passingSentence,
  refusedFields,
  withSeen,
  yearBands,
  type FilterState,
} from './filter-state';

const state = (change: Partial<FilterState>): FilterState => ({ ...emptyFilterState(), ...change });

describe('the filter panel’s state', () => {
  it('reads comma-separated names: trimmed, blanks dropped, each name once whatever its case', () => {
    expect(addNames([], ' java, k8s ,, Java ,')).toEqual(['java', 'k8s']);
    expect(addNames(['Java'], 'JAVA, Python')).toEqual(['Java', 'Python']);
    expect(addNames(['Go'], '  ')).toEqual(['Go']);
  });

  it('sends no filters when the panel sets none', () => {
    expect(filtersOf(emptyFilterState())).toBeNull();
    // A radius says nothing without a place.
    expect(filtersOf(state({ radiusKm: '30' }))).toBeNull();
  });

  it('builds every condition the panel holds, as the API takes them', () => {
    const filters = filtersOf(
      state({
        skillsAll: ['Java', 'k8s'],
        skillsNone: ['PHP'],
        minYears: '5',
        seniority: ['senior', 'lead'],
        degreeAtLeast: 'bachelor',
        languages: ['Spanish'],
        near: ' Austin, TX ',
        radiusKm: '80',
        dateFrom: '01-2024',
        dateTo: '',
      }),
    );
    expect(filters).toEqual({
      skills: { all: ['Java', 'k8s'], none: ['PHP'] },
      experienceYears: { gte: 5 },
      seniority: ['senior', 'lead'],
      degree: { gte: 'bachelor' },
      languages: { all: ['Spanish'] },
      location: { near: 'Austin, TX', radiusKm: 80 },
      documentDate: { gte: '01-2024' },
    });
    // The service's own schema takes them as they are.
    expect(SearchFilters.safeParse(filters).success).toBe(true);
  });

  it('gives a place without a radius the SDK’s default radius, and leaves what the service checks to it', () => {
    expect(filtersOf(state({ near: 'Berlin' }))).toEqual({ location: { near: 'Berlin', radiusKm: 50 } });
    // A date the API will refuse is still sent: its 400 names the field.
    expect(filtersOf(state({ dateTo: '2025-13' }))).toEqual({ documentDate: { lte: '2025-13' } });
    expect(filtersOf(state({ minYears: '120' }))).toEqual({ experienceYears: { gte: 120 } });
  });

  it('reads a stored panel back, keeping only fields of the right shape', () => {
    const kept = state({ skillsAll: ['Java'], seniority: ['lead'], degreeAtLeast: 'master', near: 'Austin, TX', dateFrom: '01-2024' });
    expect(parseFilterState(JSON.stringify(kept))).toEqual(kept);
    expect(parseFilterState(null)).toEqual(emptyFilterState());
    expect(parseFilterState('{not json')).toEqual(emptyFilterState());
    expect(parseFilterState('[1,2]')).toEqual(emptyFilterState());
    expect(
      parseFilterState(JSON.stringify({ skillsAll: ['Go', 3, ''], seniority: ['senior', 'wizard'], degreeAtLeast: 'phd', minYears: 7 })),
    ).toEqual(state({ skillsAll: ['Go'], seniority: ['senior'] }));
  });

  it('finds the panel field a 400 names, among the reasons the API joins', () => {
    expect(
      refusedFields(
        'filters.skills.all: "???" is not in the skills vocabulary and holds no word CVs are searched by (stop words and punctuation are not indexed), so it cannot be matched as text',
      ),
    ).toEqual({ aboutFilters: true, fields: ['skillsAll'] });
    expect(
      refusedFields(
        'filters.location.radiusKm must be a number of kilometres above 0 and at most 1000; filters.documentDate.lte must be a date as MM-YYYY',
      ),
    ).toEqual({ aboutFilters: true, fields: ['radiusKm', 'dateTo'] });
    expect(refusedFields('filters.location.near: "Xqzzyville" is not a place the gazetteer knows').fields).toEqual(['near']);
    expect(refusedFields('filters: unrecognized key "salary"')).toEqual({ aboutFilters: true, fields: [] });
    expect(refusedFields('query must be a string of 1 to 500 characters')).toEqual({ aboutFilters: false, fields: [] });
  });
});

describe('the counts beside the choices', () => {
  it('asks for the fields, bands and skills the API counts', () => {
    expect([...FACETS].sort()).toEqual([...FACET_FIELDS].sort());
    expect(YEAR_BANDS).toEqual(API_YEAR_BANDS.map((band) => band.value));
    expect(TOP_SKILLS).toBe(API_TOP_SKILLS);
  });

  it('keeps values seen before at 0 when the list is whole, and leaves them out of a list cut to the most frequent', () => {
    const seen = new Set(['Java', 'Python', 'Go']);
    const counts = [
      { value: 'Java', count: 4 },
      { value: 'AWS', count: 2 },
    ];
    expect(withSeen(counts, seen, true)).toEqual([
      { value: 'Java', count: 4 },
      { value: 'AWS', count: 2 },
      { value: 'Python', count: 0 },
      { value: 'Go', count: 0 },
    ]);
    expect(withSeen(counts, seen, false)).toEqual(counts);
    expect(withSeen(undefined, seen, true, 1)).toEqual([{ value: 'Java', count: 0 }]);
  });

  it('lists every years band in order, 0 where the API listed none', () => {
    expect(
      yearBands([
        { value: '6-10', count: 3 },
        { value: '0-2', count: 1 },
      ]),
    ).toEqual([
      { value: '0-2', count: 1 },
      { value: '3-5', count: 0 },
      { value: '6-10', count: 3 },
      { value: '11-20', count: 0 },
      { value: '20+', count: 0 },
    ]);
  });

  it('counts each degree with those above it, as "degree at least" keeps them', () => {
    const atLeast = degreeAtLeastCounts([
      { value: 'bachelor', count: 5 },
      { value: 'master', count: 2 },
      { value: 'doctorate', count: 1 },
      { value: 'high-school', count: 3 },
    ]);
    expect(Object.fromEntries(atLeast)).toEqual({
      doctorate: 1,
      master: 3,
      bachelor: 8,
      associate: 8,
      'high-school': 11,
      none: 11,
    });
  });

  it('says how many CVs pass', () => {
    expect(passingSentence(412, true)).toBe('412 CVs pass these filters');
    expect(passingSentence(1, true)).toBe('1 CV passes these filters');
    expect(passingSentence(9, false)).toBe('9 CVs in all (no filters set)');
  });
});
