import { DEGREE_LEVELS, monthIndex, type DegreeLevel } from './filters-body';
import { NO_ATTRIBUTES, type SearchAttributes } from './search-filter';
import { foldName, skillKey } from './skill-keys';

/** The profile fields filters read (libs/cv-understanding's ProfileInfo has them all). */
export interface FilterableProfile {
  skills: readonly string[];
  experienceYears: number | null;
  seniorityLevel: string | null;
  domain: string | null;
  degree: DegreeLevel | null;
  languages: readonly string[];
  location: {
    kind: 'city' | 'region' | 'country';
    lat: number;
    lon: number;
    city: string | null;
    regionCode: string | null;
    countryCode: string;
  } | null;
}

/** What the stores keep of a CV for filtering: its profile's fields in the form filters compare, and its date. */
export function searchAttributesOf(profile: FilterableProfile | null, documentDate: string | null): SearchAttributes {
  const date = documentDate !== null && /^(0[1-9]|1[0-2])-\d{4}$/.test(documentDate) ? monthIndex(documentDate) : null;
  if (!profile) return { ...NO_ATTRIBUTES, documentDate: date };
  const place = profile.location;
  return {
    skills: [...new Set(profile.skills.map(skillKey).filter((k): k is string => k !== null))],
    experienceYears: profile.experienceYears,
    seniority: profile.seniorityLevel,
    domain: profile.domain === null ? null : foldName(profile.domain),
    degree: profile.degree === null ? null : DEGREE_LEVELS.indexOf(profile.degree),
    languages: [...new Set(profile.languages.map(foldName))],
    location: place && {
      cityPoint: place.kind === 'city',
      lat: place.lat,
      lon: place.lon,
      city: place.city === null ? null : foldName(place.city),
      regionCode: place.regionCode,
      countryCode: place.countryCode,
    },
    documentDate: date,
  };
}
