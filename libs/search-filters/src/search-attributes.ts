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

/**
 * A CV's attributes as the flat fields a remote store keeps (Qdrant's payload, Elasticsearch's
 * document). Every field is written, null or empty where the CV does not say, so that an update
 * that merges fields (set-payload, a partial update) clears what a profile read again no longer
 * says; neither store indexes a value for null or [], so such a CV matches no condition on them.
 */
export function storedAttributeFields(a: SearchAttributes): Record<string, unknown> {
  return {
    skills: a.skills,
    experience_years: a.experienceYears,
    seniority: a.seniority,
    domain: a.domain,
    degree: a.degree,
    languages: a.languages,
    // A region's or country's centre is no point a radius should find.
    location: a.location?.cityPoint ? { lat: a.location.lat, lon: a.location.lon } : null,
    city: a.location?.city ?? null,
    region_code: a.location?.regionCode ?? null,
    country_code: a.location?.countryCode ?? null,
    document_date: a.documentDate,
  };
}
