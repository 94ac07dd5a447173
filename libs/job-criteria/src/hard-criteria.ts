import type { SearchFilters } from '@cs/search-filters/body';
import type { Criterion } from '@cs/search-domain';
import type { JobCriteria } from './criteria';
import { criterionOf } from './criterion';

/**
 * A strict match's filters: the client's filters and the criteria's requirements, every one
 * required. Required skills and languages join the client's `all`; years, degree and place are
 * the criteria's unless the client's filters name that field, which then stands. The title,
 * preferred skills and seniority (read from the title, often unstated) only weigh.
 */
export function withHardCriteria(filters: SearchFilters | null | undefined, criteria: JobCriteria): SearchFilters {
  const merged: SearchFilters = { ...filters };
  const joined = (held: string[] | undefined, added: string[]) => [...new Set([...(held ?? []), ...added])];
  for (const { filters: one } of hardRequirements(filters, criteria)) {
    if (one.skills?.all) merged.skills = { ...merged.skills, all: joined(merged.skills?.all, one.skills.all) };
    else if (one.languages?.all) merged.languages = { ...merged.languages, all: joined(merged.languages?.all, one.languages.all) };
    else Object.assign(merged, one);
  }
  return merged;
}

/** A requirement a filter can apply: the criterion, and the filters that keep to it alone. */
export interface HardRequirement {
  criterion: Criterion;
  filters: SearchFilters;
}

/**
 * The requirements `withHardCriteria` applies, one at a time, for counting what each keeps out:
 * required skills and languages, and the years, degree and place unless the client's filters
 * name that field (the client's condition then stands, and is no requirement to loosen).
 */
export function hardRequirements(filters: SearchFilters | null | undefined, criteria: JobCriteria): HardRequirement[] {
  const own = filters ?? {};
  const found: HardRequirement[] = criteria.skills.required.map((skill) => ({
    criterion: criterionOf.skill(skill, true),
    filters: { skills: { all: [skill.name] } },
  }));
  if (criteria.experienceYears && criteria.experienceYears.min > 0 && !own.experienceYears)
    found.push({
      criterion: criterionOf.experienceYears(criteria.experienceYears.min),
      filters: { experienceYears: { gte: criteria.experienceYears.min } },
    });
  if (criteria.degree && !own.degree)
    found.push({ criterion: criterionOf.degree(criteria.degree.min), filters: { degree: { gte: criteria.degree.min } } });
  if (criteria.location && 'place' in criteria.location && !own.location) {
    const { place, radiusKm } = criteria.location;
    found.push({ criterion: criterionOf.location(place, radiusKm), filters: { location: { near: place, radiusKm } } });
  }
  for (const language of criteria.languages)
    found.push({ criterion: criterionOf.language(language), filters: { languages: { all: [language] } } });
  return found;
}
