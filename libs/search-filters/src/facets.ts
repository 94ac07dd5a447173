import { z } from 'zod';
import { DEGREE_LEVELS } from './filters-body';
import type { SearchAttributes } from './search-filter';

/** The profile fields a search can count CVs by. */
export const FACET_FIELDS = ['seniority', 'domain', 'skills', 'experienceYears', 'location', 'degree'] as const;
export type FacetField = (typeof FACET_FIELDS)[number];

/** How many skills a count lists: the most frequent. */
export const TOP_SKILLS = 20;

/** Years of experience in bands, in order; a CV falls in the first whose bound it does not pass. */
export const YEAR_BANDS: readonly { value: string; below: number }[] = [
  { value: '0-2', below: 3 },
  { value: '3-5', below: 6 },
  { value: '6-10', below: 11 },
  { value: '11-20', below: 21 },
  { value: '20+', below: Infinity },
];

export const FacetCount = z.strictObject({ value: z.string(), count: z.int() });
export type FacetCount = z.infer<typeof FacetCount>;
/** Each asked field's values with their counts; a CV with nothing read for a field counts under none of its values. */
export const FacetCounts = z.strictObject({
  /** How many CVs were counted. */
  cvs: z.int(),
  fields: z.partialRecord(z.enum(FACET_FIELDS), z.array(FacetCount)),
});
export type FacetCounts = z.infer<typeof FacetCounts>;

/** A CV's values for one field, as counted: the band of its years, its region as an ISO 3166-2 code. */
function valuesOf(a: SearchAttributes, field: FacetField): readonly string[] {
  switch (field) {
    case 'seniority':
      return a.seniority === null ? [] : [a.seniority];
    case 'domain':
      return a.domain === null ? [] : [a.domain];
    case 'skills':
      return a.skills;
    case 'experienceYears': {
      const years = a.experienceYears;
      return years === null ? [] : [YEAR_BANDS.find((b) => years < b.below)!.value];
    }
    case 'location':
      return a.location === null
        ? []
        : [a.location.regionCode ? `${a.location.countryCode}-${a.location.regionCode}` : a.location.countryCode];
    case 'degree':
      return a.degree === null ? [] : [DEGREE_LEVELS[a.degree]];
  }
}

/**
 * Counts of each value of each field over these CVs: most frequent first (years in band order),
 * skills the TOP_SKILLS most frequent, a value's ties by name.
 */
export function countFacets(cvs: Iterable<SearchAttributes | null>, fields: readonly FacetField[]): FacetCounts {
  const tallies = new Map<FacetField, Map<string, number>>(fields.map((f) => [f, new Map()]));
  let counted = 0;
  for (const cv of cvs) {
    counted++;
    if (!cv) continue;
    for (const [field, tally] of tallies) for (const value of valuesOf(cv, field)) tally.set(value, (tally.get(value) ?? 0) + 1);
  }
  return { cvs: counted, fields: Object.fromEntries([...tallies].map(([field, tally]) => [field, ordered(field, tally)])) };
}

/** A store's raw tallies (value to count) in the order and length the API gives them. */
export function ordered(field: FacetField, tally: ReadonlyMap<string, number>): FacetCount[] {
  const counts = [...tally].map(([value, count]) => ({ value, count }));
  if (field === 'experienceYears') {
    const band = (v: string) => YEAR_BANDS.findIndex((b) => b.value === v);
    return counts.sort((a, b) => band(a.value) - band(b.value));
  }
  counts.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return field === 'skills' ? counts.slice(0, TOP_SKILLS) : counts;
}
