/**
 * What a store keeps beside a CV's index entries so that a search can filter on its profile, in
 * the form filters compare: skills as vocabulary keys, names lower-cased, degrees as ranks, the
 * place as a point with its codes, the document date as a month index. Null or empty where the
 * CV does not say: such a CV never passes a filter on that field.
 */
export interface SearchAttributes {
  /** Vocabulary keys of every skill the CV names (`skillKey`). */
  skills: string[];
  experienceYears: number | null;
  seniority: string | null;
  /** Lower-cased. */
  domain: string | null;
  /** Index in DEGREE_LEVELS. */
  degree: number | null;
  /** Lower-cased. */
  languages: string[];
  location: GeoPoint | null;
  /** `monthIndex` of the document's MM-YYYY date. */
  documentDate: number | null;
}

export interface GeoPoint {
  /**
   * Whether `lat` and `lon` are the CV's city: a CV that names only its region or country has
   * that place's centre, which a radius filter never reads (it passes place filters only).
   */
  cityPoint: boolean;
  lat: number;
  lon: number;
  /** Lower-cased, accents kept. */
  city: string | null;
  /** ISO 3166-2 subdivision code without the country (`TX`). */
  regionCode: string | null;
  /** ISO 3166-1 alpha-2 (`US`). */
  countryCode: string;
}

/** An inclusive range; either end may be open. */
export interface Range {
  gte?: number;
  lte?: number;
}

/**
 * A search's filters as stores apply them: every name resolved (skills to vocabulary keys, places
 * to points and codes), every condition required. Plain JSON, so that it crosses gRPC as it is.
 */
export interface SearchFilter {
  skills?: SkillsFilter;
  experienceYears?: Range;
  seniority?: string[];
  domain?: string[];
  degree?: Range;
  languages?: { all: string[]; any: string[] };
  location?: LocationFilter;
  documentDate?: Range;
  documentIds?: string[];
  excludeDocumentIds?: string[];
}

/** Skills as vocabulary keys; those the vocabulary does not know, as phrases of the CV's text. */
export interface SkillsFilter {
  all: string[];
  any: string[];
  none: string[];
  /** The skills the vocabulary does not know, folded (`foldName`): absent when it knows them all. */
  phrases?: { all: string[]; any: string[]; none: string[] };
  /**
   * Each phrase with the company's CVs whose text holds it, which the keyword store finds before
   * the legs run (the vector stores keep no text): what the stores apply. The stored filter has
   * none; a filter with phrases but without their holders cannot be applied.
   */
  phraseHolders?: { phrase: string; documentIds: string[] }[];
}

/** The CVs that meet a filter's phrases, as the stores apply them. */
export interface PhraseHolderIds {
  /** The CVs holding every `all` phrase; null when there is none. */
  all: string[] | null;
  /** The CVs holding some `any` phrase, which pass `any` beside the CVs naming one of its skills; null when there is none. */
  any: string[] | null;
  /** The CVs holding some `none` phrase. */
  none: string[];
}

/** The CVs that meet the phrases of a filter's skills; null without phrases. Throws when a phrase's holders were not found. */
export function phraseHolderIds(skills: SkillsFilter | undefined): PhraseHolderIds | null {
  const phrases = skills?.phrases;
  if (!phrases) return null;
  const holders = new Map((skills.phraseHolders ?? []).map((h) => [h.phrase, h.documentIds]));
  const holding = (phrase: string) => {
    const ids = holders.get(phrase);
    if (!ids) throw new Error(`the CVs holding the skill ${JSON.stringify(phrase)} as text were not found before the search`);
    return ids;
  };
  const union = (list: string[]) => [...new Set(list.flatMap(holding))];
  const all =
    phrases.all.length === 0
      ? null
      : phrases.all.map(holding).reduce((kept, ids) => {
          const set = new Set(ids);
          return kept.filter((id) => set.has(id));
        });
  return { all: all && [...new Set(all)], any: phrases.any.length === 0 ? null : union(phrases.any), none: union(phrases.none) };
}

export type LocationFilter =
  { kind: 'near'; lat: number; lon: number; radiusKm: number } | { kind: 'place'; countryCode: string; regionCode?: string; city?: string };

/** What a CV from which nothing was read holds. */
export const NO_ATTRIBUTES: SearchAttributes = {
  skills: [],
  experienceYears: null,
  seniority: null,
  domain: null,
  degree: null,
  languages: [],
  location: null,
  documentDate: null,
};

export const EARTH_RADIUS_KM = 6371.0088;
const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance (haversine), as Qdrant's and Elasticsearch's geo filters measure it. */
export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  return arcKm(a.lat, a.lon, b.lat, b.lon);
}

/** distanceKm of two points given as numbers, for loops that keep points in columns. */
export function arcKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = radians(lat2 - lat1);
  const dLon = radians(lon2 - lon1);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(lat1)) * Math.cos(radians(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

const inRange = (value: number | null, range: Range | undefined) =>
  !range || (value !== null && (range.gte === undefined || value >= range.gte) && (range.lte === undefined || value <= range.lte));

function locationPasses(point: GeoPoint | null, filter: LocationFilter | undefined): boolean {
  if (!filter) return true;
  if (!point) return false;
  if (filter.kind === 'near') return point.cityPoint && distanceKm(point, filter) <= filter.radiusKm;
  return (
    point.countryCode === filter.countryCode &&
    (filter.regionCode === undefined || point.regionCode === filter.regionCode) &&
    (filter.city === undefined || point.city === filter.city)
  );
}

interface IdSets {
  only?: Set<string>;
  excluded?: Set<string>;
  /** The CVs that meet the phrases (phraseHolderIds), where the filter has them. */
  phrases?: { all: Set<string> | null; any: Set<string> | null; none: Set<string> };
}

/** The filter's id lists as sets, made once per filter object: a search checks every CV against them. */
const ID_SETS = new WeakMap<SearchFilter, IdSets>();
function idSetsOf(filter: SearchFilter): IdSets {
  let sets = ID_SETS.get(filter);
  if (!sets) {
    const phrases = phraseHolderIds(filter.skills);
    const setOf = (ids: string[] | null) => (ids === null ? null : new Set(ids));
    sets = {
      ...(filter.documentIds ? { only: new Set(filter.documentIds) } : {}),
      ...(filter.excludeDocumentIds ? { excluded: new Set(filter.excludeDocumentIds) } : {}),
      ...(phrases ? { phrases: { all: setOf(phrases.all), any: setOf(phrases.any), none: new Set(phrases.none) } } : {}),
    };
    ID_SETS.set(filter, sets);
  }
  return sets;
}

/** Whether a CV with these attributes (and id) passes every condition of the filter. */
export function passesFilter(documentId: string, attributes: SearchAttributes | null, filter: SearchFilter): boolean {
  const ids = idSetsOf(filter);
  if (ids.only && !ids.only.has(documentId)) return false;
  if (ids.excluded?.has(documentId)) return false;
  // A CV with no profile names nothing: it passes only `none` conditions.
  const a = attributes ?? NO_ATTRIBUTES;
  if (filter.skills) {
    const { all, any, none } = filter.skills;
    const phrases = ids.phrases;
    if (!all.every((s) => a.skills.includes(s)) || (phrases?.all && !phrases.all.has(documentId))) return false;
    // `any` holds by a skill of the profile or by a phrase of the text.
    if ((any.length > 0 || phrases?.any) && !any.some((s) => a.skills.includes(s)) && !phrases?.any?.has(documentId)) return false;
    if (none.some((s) => a.skills.includes(s)) || phrases?.none.has(documentId)) return false;
  }
  if (filter.languages) {
    const { all, any } = filter.languages;
    if (!all.every((l) => a.languages.includes(l))) return false;
    if (any.length > 0 && !any.some((l) => a.languages.includes(l))) return false;
  }
  if (filter.seniority && (a.seniority === null || !filter.seniority.includes(a.seniority))) return false;
  if (filter.domain && (a.domain === null || !filter.domain.includes(a.domain))) return false;
  return (
    inRange(a.experienceYears, filter.experienceYears) &&
    inRange(a.degree, filter.degree) &&
    inRange(a.documentDate, filter.documentDate) &&
    locationPasses(a.location, filter.location)
  );
}

/** The filter, and these CVs kept out besides (a similar search's own CV). */
export function excludingDocuments(filter: SearchFilter | null, ids: readonly string[]): SearchFilter {
  return { ...filter, excludeDocumentIds: [...new Set([...(filter?.excludeDocumentIds ?? []), ...ids])] };
}

/** Whether the filter excludes nothing: a search with it is a search without it. */
export function isEmptyFilter(filter: SearchFilter | null | undefined): boolean {
  return !filter || Object.keys(filter).length === 0;
}

/** Most requirements one count reads: a match search's required criteria are at most this many. */
export const MAX_COUNTED_REQUIREMENTS = 64;

/**
 * Of the CVs that pass a base filter, how many pass every requirement, and for each requirement
 * how many fail it alone (pass every other one): what dropping that requirement would add.
 */
export interface RequirementCounts {
  meetingAll: number;
  failingOnly: number[];
}

/**
 * Counts requirements over CVs one by one, as a store that keeps every CV's attributes does: a
 * CV is done with as soon as it fails two requirements, so most cost a check or two.
 */
export function countRequirements(
  cvs: Iterable<{ id: string; attributes: SearchAttributes | null }>,
  base: SearchFilter | null,
  requirements: readonly SearchFilter[],
): RequirementCounts {
  const counts: RequirementCounts = { meetingAll: 0, failingOnly: requirements.map(() => 0) };
  for (const cv of cvs) {
    if (base && !passesFilter(cv.id, cv.attributes, base)) continue;
    let failed = -1;
    let failures = 0;
    for (let i = 0; i < requirements.length && failures < 2; i++)
      if (!passesFilter(cv.id, cv.attributes, requirements[i])) {
        failed = i;
        failures++;
      }
    if (failures === 0) counts.meetingAll++;
    else if (failures === 1) counts.failingOnly[failed]++;
  }
  return counts;
}
