import {
  DEGREE_LEVELS,
  SENIORITY_LEVELS,
  searchFilters,
  type DegreeLevel,
  type SearchFilters,
  type SeniorityLevel,
} from '@candidate-search/client';
import type { api, http } from '@cs/contracts';

export type SearchFacets = NonNullable<api.SearchResults['facets']>;
export type FacetField = NonNullable<http.CreateSearchBody['facets']>[number];
export type FacetCount = SearchFacets['passing']['fields'][FacetField] extends (infer L)[] | undefined ? L : never;

/** The counts every search of the console asks for. */
export const FACETS = ['seniority', 'domain', 'skills', 'experienceYears', 'location', 'degree'] as const satisfies readonly FacetField[];
/** The API's years bands, in order (docs/api.md, Facets). */
export const YEAR_BANDS = ['0-2', '3-5', '6-10', '11-20', '20+'] as const;
/** How many skills the API counts: its most frequent. A shorter list holds every skill of the CVs counted. */
export const TOP_SKILLS = 20;
/** Degrees a recruiter asks for at least (`none` at least would only mean "a degree was read"). */
export const DEGREE_CHOICES: readonly DegreeLevel[] = DEGREE_LEVELS.filter((level) => level !== 'none');

/** What the filter panel holds, as typed: numbers and dates stay text until a search is built from them. */
export interface FilterState {
  skillsAll: string[];
  skillsNone: string[];
  minYears: string;
  seniority: SeniorityLevel[];
  degreeAtLeast: DegreeLevel | '';
  languages: string[];
  near: string;
  radiusKm: string;
  dateFrom: string;
  dateTo: string;
}

export const emptyFilterState = (): FilterState => ({
  skillsAll: [],
  skillsNone: [],
  minYears: '',
  seniority: [],
  degreeAtLeast: '',
  languages: [],
  near: '',
  radiusKm: '',
  dateFrom: '',
  dateTo: '',
});

/** "java, k8s ,, Java" added to `names`: trimmed, blanks dropped, one of each name (case aside), earlier ones first. */
export function addNames(names: readonly string[], text: string): string[] {
  const out = [...names];
  for (const part of text.split(',')) {
    const name = part.trim();
    if (name && !out.some((n) => n.toLowerCase() === name.toLowerCase())) out.push(name);
  }
  return out;
}

/**
 * The search's `filters` from the panel, through the SDK's builder; null when the panel sets
 * none. Only what JSON cannot carry is dropped here (a number field left empty); the service
 * checks the rest and names the field in its 400.
 */
export function filtersOf(state: FilterState): SearchFilters | null {
  let builder = searchFilters()
    .allSkills(...state.skillsAll)
    .noSkill(...state.skillsNone)
    .seniority(...state.seniority)
    .allLanguages(...state.languages);
  const years = numberOf(state.minYears);
  if (years !== null) builder = builder.minYears(years);
  if (state.degreeAtLeast) builder = builder.minDegree(state.degreeAtLeast);
  // A radius alone says nothing; a place alone takes the SDK's default radius.
  if (state.near.trim()) builder = builder.near(state.near.trim(), numberOf(state.radiusKm) ?? undefined);
  const from = state.dateFrom.trim();
  const to = state.dateTo.trim();
  if (from || to) builder = builder.documentDate({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
  const filters = builder.build();
  return Object.keys(filters).length ? filters : null;
}

function numberOf(text: string): number | null {
  if (!text.trim()) return null;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').slice(0, 50) : [];
const text = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 200) : '');
/** Whether a value is a seniority level (the panel's checkboxes carry them as text). */
export const isSeniority = (value: unknown): value is SeniorityLevel => (SENIORITY_LEVELS as readonly unknown[]).includes(value);
const isDegree = (value: unknown): value is DegreeLevel => (DEGREE_LEVELS as readonly unknown[]).includes(value);

/** A stored panel read back, keeping only fields of the right shape (storage is the page's, but may hold an older version's). */
export function parseFilterState(json: string | null): FilterState {
  const state = emptyFilterState();
  if (!json) return state;
  let stored: unknown;
  try {
    stored = JSON.parse(json);
  } catch {
    return state;
  }
  if (typeof stored !== 'object' || stored === null) return state;
  const s = stored as Record<string, unknown>;
  return {
    skillsAll: strings(s.skillsAll),
    skillsNone: strings(s.skillsNone),
    minYears: text(s.minYears),
    seniority: Array.isArray(s.seniority) ? SENIORITY_LEVELS.filter((level) => (s.seniority as unknown[]).includes(level)) : [],
    degreeAtLeast: isDegree(s.degreeAtLeast) ? s.degreeAtLeast : '',
    languages: strings(s.languages),
    near: text(s.near),
    radiusKm: text(s.radiusKm),
    dateFrom: text(s.dateFrom),
    dateTo: text(s.dateTo),
  };
}

/** The API's 400s name the field first (`filters.skills.all: "…" is not in the skills vocabulary`); the more precise paths come first. */
const FIELD_OF_PATH: readonly [string, keyof FilterState][] = [
  ['filters.skills.all', 'skillsAll'],
  ['filters.skills.none', 'skillsNone'],
  ['filters.experienceYears', 'minYears'],
  ['filters.seniority', 'seniority'],
  ['filters.degree', 'degreeAtLeast'],
  ['filters.languages', 'languages'],
  ['filters.location.radiusKm', 'radiusKm'],
  ['filters.location', 'near'],
  ['filters.documentDate.lte', 'dateTo'],
  ['filters.documentDate', 'dateFrom'],
];

/**
 * The panel fields a 400 names, one a reason (the API joins several with "; "); empty when no
 * reason is about the filters. A reason on filters the panel has no field for still counts.
 */
export function refusedFields(message: string): { aboutFilters: boolean; fields: (keyof FilterState)[] } {
  const reasons = message.split('; ').filter((reason) => reason.startsWith('filters'));
  const fields = reasons.map((reason) => FIELD_OF_PATH.find(([path]) => reason.startsWith(path))?.[1]);
  return { aboutFilters: reasons.length > 0, fields: [...new Set(fields.filter((f) => f !== undefined))] };
}

export interface ShownCount {
  value: string;
  count: number;
}

/** A field's counts by value; a value the API did not list counts 0. */
export const countsOf = (counts: readonly FacetCount[] | undefined): Map<string, number> =>
  new Map((counts ?? []).map((c) => [c.value, c.count]));

/**
 * The values to show for a field whose values are open (skills, regions, domains): those counted
 * now, then those seen in earlier counts and absent now, at 0, so the recruiter sees what the
 * filters left out. An absent value is known to be 0 only when the list is whole: a full list of
 * skills is only the most frequent, so an absent skill there is left out rather than called 0.
 */
export function withSeen(
  counts: readonly FacetCount[] | undefined,
  seen: ReadonlySet<string>,
  whole: boolean,
  maxAbsent = 12,
): ShownCount[] {
  const shown: ShownCount[] = (counts ?? []).map((c) => ({ value: c.value, count: c.count }));
  if (!whole) return shown;
  const listed = new Set(shown.map((c) => c.value));
  const absent = [...seen].filter((value) => !listed.has(value)).slice(0, maxAbsent);
  return [...shown, ...absent.map((value) => ({ value, count: 0 }))];
}

/** The years bands, all of them in order, 0 for a band the API did not list. */
export function yearBands(counts: readonly FacetCount[] | undefined): ShownCount[] {
  const byValue = countsOf(counts);
  return YEAR_BANDS.map((value) => ({ value, count: byValue.get(value) ?? 0 }));
}

/** For each degree, how many CVs counted hold it or a higher one: what "degree at least" would keep of them. */
export function degreeAtLeastCounts(counts: readonly FacetCount[] | undefined): Map<DegreeLevel, number> {
  const byValue = countsOf(counts);
  const out = new Map<DegreeLevel, number>();
  let atLeast = 0;
  for (const level of [...DEGREE_LEVELS].reverse()) {
    atLeast += byValue.get(level) ?? 0;
    out.set(level, atLeast);
  }
  return out;
}

/** "412 CVs pass these filters", or how many there are when no filter is set. */
export function passingSentence(cvs: number, filtered: boolean): string {
  const n = `${cvs} CV${cvs === 1 ? '' : 's'}`;
  return filtered ? `${n} pass${cvs === 1 ? 'es' : ''} these filters` : `${n} in all (no filters set)`;
}
