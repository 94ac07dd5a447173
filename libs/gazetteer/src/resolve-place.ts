import { codeOf, foldName } from './fold-name';
import { loadGazetteer, type GazetteerData } from './gazetteer-data';

/** A place the gazetteer knows: a city, or a region or country when nothing smaller was named. */
export interface Place {
  kind: 'city' | 'region' | 'country';
  /** GeoNames' name ("Austin", "Bengaluru"); null for a region or a country. */
  city: string | null;
  /** The region's name ("Texas"); null for a country, or a city the data places in no region. */
  region: string | null;
  /** The region's ISO 3166-2 subdivision code without its country ("TX"). */
  regionCode: string | null;
  country: string;
  /** ISO 3166-1 alpha-2 ("US"). */
  countryCode: string;
  /** The city's point, or the region's or country's centre as country-state-city gives it. */
  lat: number;
  lon: number;
}

/** Longer texts are no place name: refused before any work. */
const MAX_CHARS = 200;
/**
 * A city named alone must have this many people: GeoNames lists every town of 1,000, many of
 * them words ("Date", Japan: 35,301; "Police", Poland: 34,350; "Best", Netherlands: 29,074). With
 * a region or country beside it, any city of the data counts.
 */
export const BARE_CITY_MIN_POPULATION = 50_000;

let data: GazetteerData | undefined;
const gazetteer = (): GazetteerData => (data ??= loadGazetteer());

/** Loads the data now rather than on the first lookup (about a second; 23 MB of heap kept, see README). */
export function preloadGazetteer(): void {
  gazetteer();
}

/** What a part of a place text may name: countries and regions by name (or code, where codes are read), cities by name. */
interface Reading {
  countries: number[];
  regions: number[];
  cities: number[];
}

function countriesNamed(g: GazetteerData, text: string, codes: boolean): number[] {
  const byName = g.countryByName.get(foldName(text));
  if (byName !== undefined) return [byName];
  const code = codes ? codeOf(text) : null;
  const byCode = code?.length === 2 ? g.countryByCode.get(code) : undefined;
  return byCode === undefined ? [] : [byCode];
}

function regionsNamed(g: GazetteerData, text: string, codes: boolean): number[] {
  const key = foldName(text);
  const found = [...(g.regionsByName.get(key) ?? g.regionsByName.get(key.replace(/\s(?:state|province)$/, '')) ?? [])];
  const code = codes ? codeOf(text) : null;
  for (const r of code ? (g.regionsByCode.get(code) ?? []) : []) if (!found.includes(r)) found.push(r);
  return found;
}

const read = (g: GazetteerData, text: string, codes: boolean): Reading => ({
  countries: countriesNamed(g, text, codes),
  regions: regionsNamed(g, text, codes),
  cities: g.citiesByName.get(foldName(text)) ?? [],
});

/** Whether city `i` lies in one of `regions` (or, where the data gives it no region, in their country) and in one of `countries`. */
function cityWithin(g: GazetteerData, i: number, regions: readonly number[] | null, countries: readonly number[] | null): boolean {
  if (countries && !countries.includes(g.cityCountry[i])) return false;
  if (!regions) return true;
  const r = g.cityRegion[i];
  return r >= 0 ? regions.includes(r) : regions.some((x) => g.regions[x].country === g.cityCountry[i]);
}

function cityPlace(g: GazetteerData, i: number): Place {
  const country = g.countries[g.cityCountry[i]];
  const region = g.cityRegion[i] >= 0 ? g.regions[g.cityRegion[i]] : null;
  return {
    kind: 'city',
    city: g.cityName[i],
    region: region?.name ?? null,
    regionCode: region?.code ?? null,
    country: country.name,
    countryCode: country.code,
    lat: g.cityLat[i],
    lon: g.cityLon[i],
  };
}

function regionPlace(g: GazetteerData, r: number): Place | null {
  const region = g.regions[r];
  const country = g.countries[region.country];
  if (!Number.isFinite(region.lat) || !Number.isFinite(region.lon)) return null;
  return {
    kind: 'region',
    city: null,
    region: region.name,
    regionCode: region.code,
    country: country.name,
    countryCode: country.code,
    lat: region.lat,
    lon: region.lon,
  };
}

function countryPlace(g: GazetteerData, c: number): Place {
  const country = g.countries[c];
  return {
    kind: 'country',
    city: null,
    region: null,
    regionCode: null,
    country: country.name,
    countryCode: country.code,
    lat: country.lat,
    lon: country.lon,
  };
}

/**
 * A name that is a region and a city: the city where it lies in that region ("New York",
 * "Berlin", "Delhi"), or where the region holds none of the data's cities (a district
 * country-state-city lists beside the regions GeoNames uses: "Paris", "Dublin"); otherwise the
 * region ("Washington", "Victoria"). Of regions of one name, the most populous ("Punjab").
 */
function regionOrItsCity(g: GazetteerData, regions: readonly number[], cities: readonly number[]): Place | null {
  const r = regions.reduce((best, x) => (g.regions[x].population > g.regions[best].population ? x : best));
  const region = g.regions[r];
  const city = cities.find((i) => (region.population > 0 ? g.cityRegion[i] === r : g.cityCountry[i] === region.country));
  return city !== undefined ? cityPlace(g, city) : regionPlace(g, r);
}

/** A text that is one name: a country, else a region (by name), else a city of at least BARE_CITY_MIN_POPULATION. */
function resolveName(g: GazetteerData, text: string): Place | null {
  const { countries, regions, cities } = read(g, text, false);
  if (countries.length) return countryPlace(g, countries[0]);
  if (regions.length) return regionOrItsCity(g, regions, cities);
  const city = cities[0];
  return city !== undefined && g.cityPopulation[city] >= BARE_CITY_MIN_POPULATION ? cityPlace(g, city) : null;
}

/**
 * `name` within `tail` ("Austin" in "TX", "London" in "UK", "Karnataka" in "India"): the most
 * populous city of that name in what the tail names, whether a country or a region ("Georgia"
 * is both: "Atlanta, Georgia" is in the state); or, when `name` is itself a region of the
 * tail's country, that region (or its city of the same name).
 */
function resolveWithin(g: GazetteerData, name: string, tail: Reading): Place | null {
  const named = read(g, name, true);
  const inCountry = tail.countries.length ? named.cities.filter((i) => cityWithin(g, i, null, tail.countries)) : [];
  const inRegion = tail.regions.length ? named.cities.filter((i) => cityWithin(g, i, tail.regions, null)) : [];
  const city = [...inCountry, ...inRegion].sort((a, b) => g.cityPopulation[b] - g.cityPopulation[a])[0];
  const regions = named.regions.filter((r) => tail.countries.includes(g.regions[r].country));
  if (regions.length) return regionOrItsCity(g, regions, inCountry);
  return city === undefined ? null : cityPlace(g, city);
}

/** Parts of a place text: split at commas, with ZIP and postal codes (any word with a digit) left out. */
function partsOf(text: string): string[] {
  return text
    .split(/[,;]/)
    .map((p) =>
      p
        .split(/\s+/)
        .filter((w) => !/\d/.test(w))
        .join(' ')
        .trim(),
    )
    .filter((p) => /[\p{L}]/u.test(p));
}

/**
 * Resolves a place as people write it: "Austin, TX", "Austin, Texas", "London, UK",
 * "Bangalore, Karnataka, India", "New York, NY 10001", "Texas", "United States", "Berlin".
 * The last parts name the country and region, the part before them the city (earlier parts, a
 * street or a district, are not read). The whole text resolves or nothing does: a city it does
 * not know makes the answer null, never its region. A bare two-letter code is not read ("CA" is
 * California and Canada alike), but "US" and "UK" are; codes are read after a city ("Austin, TX",
 * "Paris, FR"). Null for unknown places and for texts over 200 characters.
 */
export function resolvePlace(text: string): Place | null {
  if (typeof text !== 'string' || text.length > MAX_CHARS) return null;
  const parts = partsOf(text);
  if (parts.length === 0) return null;
  const g = gazetteer();
  if (parts.length === 1) {
    const whole = resolveName(g, parts[0]);
    if (whole) return whole;
    // "Austin TX", "San Jose Costa Rica": the last words as the region or country.
    const words = parts[0].split(' ');
    for (let k = Math.min(3, words.length - 1); k >= 1; k--) {
      const place = resolveWithin(g, words.slice(0, -k).join(' '), read(g, words.slice(-k).join(' '), true));
      if (place) return place;
    }
    return null;
  }
  const last = parts[parts.length - 1];
  const beforeLast = parts[parts.length - 2];
  if (parts.length >= 3) {
    const city = resolveParts({ city: parts[parts.length - 3], region: beforeLast, country: last });
    if (city) return city;
  }
  const place = resolveWithin(g, beforeLast, read(g, last, true));
  // With more parts, the one before the tail must be a city: "Brooklyn, New York, NY", not "Smalltown, Texas, USA".
  return parts.length >= 3 && place?.kind !== 'city' ? null : place;
}

/**
 * The structured form: the city (most populous of its name) in the region in the country, each
 * optional. Regions and countries are read by name or code ("TX", "US"). Null when a part
 * is unknown or they do not agree ("Austin", "Ontario"); a city alone as in `resolvePlace`.
 */
const ISO_REGION = /^([A-Za-z]{2})-([A-Za-z0-9]{1,3})$/;

export function resolveParts(p: { city?: string | null; region?: string | null; country?: string | null }): Place | null {
  const fields = [p.city, p.region, p.country];
  if (fields.some((f) => f !== null && f !== undefined && (typeof f !== 'string' || f.length > MAX_CHARS))) return null;
  const [city, named, country] = fields.map((f) => (f && /\p{L}/u.test(f) ? f.trim() : null));
  // A region as its ISO 3166-2 code, as the location facet counts regions ("US-TX"): the code names its country too.
  const iso = named ? ISO_REGION.exec(named) : null;
  const region = iso ? iso[2] : named;
  if (!city && !region && !country) return null;
  const g = gazetteer();
  const byName = country ? countriesNamed(g, country, true) : null;
  const byCode = iso ? countriesNamed(g, iso[1], true) : null;
  const countries = byName && byCode ? byName.filter((c) => byCode.includes(c)) : (byName ?? byCode);
  if (countries?.length === 0) return null;
  const regions = region ? regionsNamed(g, region, true).filter((r) => !countries || countries.includes(g.regions[r].country)) : null;
  if (regions?.length === 0) return null;
  if (city) {
    if (!regions && !countries) {
      const largest = g.citiesByName.get(foldName(city))?.[0];
      return largest !== undefined && g.cityPopulation[largest] >= BARE_CITY_MIN_POPULATION ? cityPlace(g, largest) : null;
    }
    const found = (g.citiesByName.get(foldName(city)) ?? []).find((i) => cityWithin(g, i, regions, countries));
    return found === undefined ? null : cityPlace(g, found);
  }
  if (regions) return regionOrItsCity(g, regions, []);
  return countries ? countryPlace(g, countries[0]) : null;
}
