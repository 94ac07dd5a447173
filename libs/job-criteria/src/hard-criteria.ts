import type { SearchFilters } from '@cs/search-filters/body';
import type { JobCriteria } from './criteria';

/**
 * A strict match's filters: the client's filters and the criteria's requirements, every one
 * required. Required skills and languages join the client's `all`; years, degree and place are
 * the criteria's unless the client's filters name that field, which then stands. The title,
 * preferred skills and seniority (read from the title, often unstated) only weigh.
 */
export function withHardCriteria(filters: SearchFilters | null | undefined, criteria: JobCriteria): SearchFilters {
  const own = filters ?? {};
  const merged: SearchFilters = { ...own };
  const skills = criteria.skills.required.map((s) => s.name);
  if (skills.length > 0) merged.skills = { ...own.skills, all: [...new Set([...(own.skills?.all ?? []), ...skills])] };
  if (criteria.languages.length > 0)
    merged.languages = { ...own.languages, all: [...new Set([...(own.languages?.all ?? []), ...criteria.languages])] };
  if (criteria.experienceYears && !own.experienceYears) merged.experienceYears = { gte: criteria.experienceYears.min };
  if (criteria.degree && !own.degree) merged.degree = { gte: criteria.degree.min };
  if (criteria.location && 'place' in criteria.location && !own.location)
    merged.location = { near: criteria.location.place, radiusKm: criteria.location.radiusKm };
  return merged;
}
