import { analyze } from '@cs/text-analysis';
import { DEGREE_LEVELS, MAX_TEXT_SKILLS, monthIndex, type SearchFilters } from './filters-body';
import type { LocationFilter, Range, SearchFilter, SkillsFilter } from './search-filter';
import { foldName, skillKey } from './skill-keys';

/** A filter naming what the service cannot resolve (an unknown place or domain, a skill of no searchable word): a 400. */
export class InvalidFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidFilterError';
  }
}

/** A place as the gazetteer resolves it. */
export interface ResolvedPlace {
  kind: 'city' | 'region' | 'country';
  city: string | null;
  regionCode: string | null;
  countryCode: string;
  lat: number;
  lon: number;
}

/** The gazetteer, as filters need it. */
export interface PlaceResolver {
  resolvePlace(text: string): ResolvedPlace | null;
  resolveParts(parts: { city?: string | null; region?: string | null; country?: string | null }): ResolvedPlace | null;
}

export interface FilterVocabulary {
  places: PlaceResolver;
  /** The domains the profile reads, as it writes them. */
  domains: readonly string[];
  /** A spoken language's name as the profile writes it, from any of its names; null for one it never reads. */
  language: (name: string) => string | null;
}

/** A filter of few characters, quoted and cut for an error message. */
const quoted = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

type SkillLists = { all: string[]; any: string[]; none: string[] };

/**
 * Skills to vocabulary keys; a skill the vocabulary does not know to a phrase of the CV's text,
 * folded, when it holds a word the text is indexed by (else no CV could be found by it).
 */
function skills(body: NonNullable<SearchFilters['skills']>): SkillsFilter {
  const keys: SkillLists = { all: [], any: [], none: [] };
  const phrases: SkillLists = { all: [], any: [], none: [] };
  for (const list of ['all', 'any', 'none'] as const)
    for (const name of body[list] ?? []) {
      const key = skillKey(name);
      if (key !== null) keys[list].push(key);
      else if (analyze(name).length > 0) phrases[list].push(foldName(name));
      else
        throw new InvalidFilterError(
          `filters.skills.${list}: ${quoted(name)} is not in the skills vocabulary and holds no word CVs are searched by (stop words and punctuation are not indexed), so it cannot be matched as text`,
        );
    }
  const distinct = (lists: SkillLists): SkillLists => ({
    all: [...new Set(lists.all)],
    any: [...new Set(lists.any)],
    none: [...new Set(lists.none)],
  });
  const text = distinct(phrases);
  const count = new Set([...text.all, ...text.any, ...text.none]).size;
  if (count > MAX_TEXT_SKILLS)
    throw new InvalidFilterError(
      `filters.skills names ${count} skills the skills vocabulary does not know; at most ${MAX_TEXT_SKILLS} are matched as text in one search`,
    );
  return { ...distinct(keys), ...(count > 0 ? { phrases: text } : {}) };
}

function location(body: NonNullable<SearchFilters['location']>, places: PlaceResolver): LocationFilter {
  if ('near' in body) {
    const place = places.resolvePlace(body.near);
    if (!place) throw new InvalidFilterError(`filters.location.near: the place ${quoted(body.near)} is not known to the gazetteer`);
    // A radius is measured from a city: a region's or country's centre is no place anyone lives near.
    if (place.kind !== 'city')
      throw new InvalidFilterError(
        `filters.location.near: ${quoted(body.near)} is a ${place.kind}, not a city; filter by {region} or {country} instead`,
      );
    return { kind: 'near', lat: place.lat, lon: place.lon, radiusKm: body.radiusKm };
  }
  const place = places.resolveParts(body);
  if (!place) {
    const named = [body.city, body.region, body.country].filter((p): p is string => p !== undefined).join(', ');
    throw new InvalidFilterError(`filters.location: the place ${quoted(named)} is not known to the gazetteer`);
  }
  return {
    kind: 'place',
    countryCode: place.countryCode,
    ...(body.region !== undefined && place.regionCode !== null ? { regionCode: place.regionCode } : {}),
    ...(body.city !== undefined && place.city !== null ? { city: foldName(place.city) } : {}),
  };
}

/**
 * The filters a client wrote, resolved for the stores: skills to vocabulary keys (or phrases of
 * the text, for skills the vocabulary does not know), domains and languages to lower case,
 * places through the gazetteer, dates to month indexes. Throws InvalidFilterError naming the
 * field for a name it cannot resolve.
 */
export function compileFilters(body: SearchFilters | null | undefined, vocabulary: FilterVocabulary): SearchFilter | null {
  if (!body) return null;
  const filter: SearchFilter = {};
  if (body.skills) filter.skills = skills(body.skills);
  if (body.experienceYears) filter.experienceYears = range(body.experienceYears, (y) => y);
  if (body.seniority) filter.seniority = [...new Set(body.seniority)];
  if (body.domain) {
    const known = new Map(vocabulary.domains.map((d) => [foldName(d), d]));
    filter.domain = [
      ...new Set(
        body.domain.map((d) => {
          if (!known.has(foldName(d)))
            throw new InvalidFilterError(
              `filters.domain: ${quoted(d)} is not a domain the profile reads; it reads ${vocabulary.domains.join(', ')}`,
            );
          return foldName(d);
        }),
      ),
    ];
  }
  if (body.degree) filter.degree = range(body.degree, (d) => DEGREE_LEVELS.indexOf(d));
  if (body.languages) {
    const languages = (field: string, names: readonly string[] | undefined) => [
      ...new Set(
        (names ?? []).map((name) => {
          const known = vocabulary.language(name);
          if (known === null) throw new InvalidFilterError(`${field}: ${quoted(name)} is not a spoken language the profile reads`);
          return foldName(known);
        }),
      ),
    ];
    filter.languages = {
      all: languages('filters.languages.all', body.languages.all),
      any: languages('filters.languages.any', body.languages.any),
    };
  }
  if (body.location) filter.location = location(body.location, vocabulary.places);
  if (body.documentDate) filter.documentDate = range(body.documentDate, monthIndex);
  if (body.documentIds) filter.documentIds = [...new Set(body.documentIds.map((id) => id.toLowerCase()))];
  if (body.excludeDocumentIds) filter.excludeDocumentIds = [...new Set(body.excludeDocumentIds.map((id) => id.toLowerCase()))];
  return filter;
}

function range<T>(body: { gte?: T; lte?: T }, value: (v: T) => number): Range {
  return { ...(body.gte !== undefined ? { gte: value(body.gte) } : {}), ...(body.lte !== undefined ? { lte: value(body.lte) } : {}) };
}
