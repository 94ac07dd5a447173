import { SearchFilters } from './filters-body';
import { InvalidFilterError, compileFilters, type PlaceResolver } from './compile-filters';
import { NO_ATTRIBUTES, distanceKm, passesFilter } from './search-filter';
import { searchAttributesOf } from './search-attributes';
import { attributesFromJson, filterFromJson, filterToJson } from './wire';

const AUSTIN = { kind: 'city' as const, city: 'Austin', regionCode: 'TX', countryCode: 'US', lat: 30.26715, lon: -97.74306 };
const TEXAS = { kind: 'region' as const, city: null, regionCode: 'TX', countryCode: 'US', lat: 31, lon: -100 };
const places: PlaceResolver = {
  resolvePlace: (text) => (text.startsWith('Austin') ? AUSTIN : null),
  resolveParts: (p) => (p.city === 'Austin' ? AUSTIN : p.region === 'Texas' ? TEXAS : null),
};
const LANGUAGES = new Map([
  ['spanish', 'Spanish'],
  ['farsi', 'Persian'],
  ['persian', 'Persian'],
]);
const vocabulary = {
  places,
  domains: ['Software engineering', 'Healthcare'],
  language: (n: string) => LANGUAGES.get(n.toLowerCase()) ?? null,
};
const messagesOf = (value: unknown) => {
  const parsed = SearchFilters.safeParse(value);
  // As the API words them (libs/contracts' describeIssue): unknown keys by name.
  return parsed.success
    ? []
    : parsed.error.issues.map((i) =>
        i.code === 'unrecognized_keys' ? `unknown field ${i.keys.join(', ')}` : `${i.path.join('.')}: ${i.message}`,
      );
};

describe('the filters of a search body', () => {
  it('takes the shape the API documents', () => {
    expect(
      messagesOf({
        skills: { all: ['java', 'kubernetes'], any: ['aws', 'gcp'], none: ['php'] },
        experienceYears: { gte: 5, lte: 15 },
        seniority: ['senior', 'lead'],
        domain: ['Software engineering'],
        location: { near: 'Austin, TX', radiusKm: 50 },
        degree: { gte: 'bachelor' },
        languages: { all: ['spanish'] },
        documentDate: { gte: '01-2024', lte: '12-2026' },
        documentIds: ['6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11'],
        excludeDocumentIds: [],
      }),
    ).toEqual([]);
  });

  it.each([
    [{ skills: {} }, /skills must name at least one of all, any, none/],
    [{ skills: { all: Array.from({ length: 51 }, (_, i) => `s${i}`) } }, /filters\.skills\.all must be an array of 1 to 50 names/],
    [{ skills: { all: [' '] } }, /skills\.all\.0: must be a name/],
    [{ experienceYears: { gte: 9, lte: 3 } }, /experienceYears\.gte must not be above filters\.experienceYears\.lte/],
    [{ degree: { gte: 'master', lte: 'bachelor' } }, /degree\.gte must not be above/],
    [{ documentDate: { gte: '2024-01' } }, /documentDate must be a date as MM-YYYY/],
    [{ location: { near: 'Austin', radiusKm: 0 } }, /location must be \{near, radiusKm\} or \{city, region, country\}/],
    [{ location: {} }, /location/],
    [{ seniority: ['boss'] }, /seniority accepts executive, director/],
    [{ salary: 1 }, /salary/],
  ])('refuses %j naming the field', (filters, message) => {
    expect(messagesOf(filters).join('; ')).toMatch(message);
  });
});

describe('compileFilters', () => {
  it('resolves skills through the vocabulary and its synonyms, case aside', () => {
    expect(compileFilters({ skills: { all: ['K8s', 'Java'], none: ['PHP'] } }, vocabulary)?.skills).toEqual({
      all: ['kubernetes', 'java'],
      any: [],
      none: ['php'],
    });
    expect(compileFilters({ skills: { any: ['Machine Learning', 'ML'] } }, vocabulary)?.skills?.any).toEqual(['ml']);
  });

  it('names a skill, a domain or a place it cannot resolve', () => {
    expect(() => compileFilters({ skills: { all: ['blorp'] } }, vocabulary)).toThrow(
      new InvalidFilterError('filters.skills.all: "blorp" is not in the skills vocabulary (docs/api.md lists how skills are read)'),
    );
    expect(() => compileFilters({ domain: ['Astrology'] }, vocabulary)).toThrow(/filters\.domain: "Astrology" is not a domain.*Healthcare/);
    expect(() => compileFilters({ location: { near: 'Nowhere', radiusKm: 5 } }, vocabulary)).toThrow(
      /filters\.location\.near: the place "Nowhere"/,
    );
    expect(() => compileFilters({ location: { city: 'Nowhere' } }, vocabulary)).toThrow(/filters\.location: the place "Nowhere"/);
  });

  it('refuses a radius around a region, and a language the profile never reads; reads a language by its other names', () => {
    expect(() =>
      compileFilters({ location: { near: 'Texas', radiusKm: 5 } }, { ...vocabulary, places: { ...places, resolvePlace: () => TEXAS } }),
    ).toThrow(/filters\.location\.near: "Texas" is a region, not a city/);
    expect(() => compileFilters({ languages: { all: ['Klingon'] } }, vocabulary)).toThrow(
      /filters\.languages\.all: "Klingon" is not a spoken language/,
    );
    expect(compileFilters({ languages: { any: ['Farsi', 'persian'] } }, vocabulary)?.languages).toEqual({ all: [], any: ['persian'] });
  });

  it('resolves places to a point and radius, or to codes', () => {
    expect(compileFilters({ location: { near: 'Austin, TX', radiusKm: 50 } }, vocabulary)?.location).toEqual({
      kind: 'near',
      lat: AUSTIN.lat,
      lon: AUSTIN.lon,
      radiusKm: 50,
    });
    expect(compileFilters({ location: { region: 'Texas' } }, vocabulary)?.location).toEqual({
      kind: 'place',
      countryCode: 'US',
      regionCode: 'TX',
    });
    expect(compileFilters({ location: { city: 'Austin' } }, vocabulary)?.location).toEqual({
      kind: 'place',
      countryCode: 'US',
      city: 'austin',
    });
  });

  it('ranks degrees and dates, and keeps no filter as none', () => {
    expect(compileFilters({ degree: { gte: 'bachelor' }, documentDate: { lte: '02-2025' } }, vocabulary)).toEqual({
      degree: { gte: 3 },
      documentDate: { lte: 2025 * 12 + 1 },
    });
    expect(compileFilters(null, vocabulary)).toBeNull();
  });
});

describe('passesFilter', () => {
  const profile = {
    skills: ['Java', 'Kubernetes'],
    experienceYears: 7,
    seniorityLevel: 'senior',
    domain: 'Software engineering',
    degree: 'master' as const,
    languages: ['Spanish'],
    location: { kind: 'city' as const, lat: 30.5, lon: -97.7, city: 'Round Rock', regionCode: 'TX', countryCode: 'US' },
  };
  const cv = searchAttributesOf(profile, '03-2025');

  it('holds every condition at once', () => {
    const filter = compileFilters(
      {
        skills: { all: ['k8s'], none: ['php'] },
        experienceYears: { gte: 5 },
        seniority: ['senior'],
        domain: ['software engineering'],
        degree: { gte: 'bachelor' },
        languages: { all: ['spanish'] },
        location: { near: 'Austin', radiusKm: 50 },
        documentDate: { gte: '01-2025' },
      },
      vocabulary,
    )!;
    expect(passesFilter('d1', cv, filter)).toBe(true);
    expect(passesFilter('d1', { ...cv, skills: ['kubernetes', 'php'] }, filter)).toBe(false);
    expect(passesFilter('d1', { ...cv, location: null }, filter)).toBe(false);
    expect(passesFilter('d1', { ...cv, experienceYears: null }, filter)).toBe(false);
  });

  it('lets a CV with no profile pass only exclusions', () => {
    expect(passesFilter('d1', null, { skills: { all: [], any: [], none: ['php'] } })).toBe(true);
    expect(passesFilter('d1', null, { excludeDocumentIds: ['d2'] })).toBe(true);
    expect(passesFilter('d1', null, { seniority: ['senior'] })).toBe(false);
    expect(passesFilter('d1', NO_ATTRIBUTES, { documentIds: ['d2'] })).toBe(false);
  });

  it('measures distance on the sphere', () => {
    // Austin to Round Rock is about 28 km by great circle.
    expect(distanceKm(AUSTIN, { lat: 30.50826, lon: -97.6789 })).toBeCloseTo(27.5, 0);
  });
});

describe('filters and attributes between services', () => {
  it('cross as JSON and come back the same; a malformed one is named', () => {
    const filter = compileFilters({ skills: { all: ['java'] }, location: { near: 'Austin', radiusKm: 5 } }, vocabulary);
    expect(filterFromJson(filterToJson(filter))).toEqual(filter);
    expect(filterFromJson('')).toBeNull();
    expect(attributesFromJson('')).toBeUndefined();
    expect(() => filterFromJson('{"skills": 1}')).toThrow(/filter_json does not fit/);
    expect(() => attributesFromJson('[')).toThrow(/attributes_json is not JSON/);
  });
});

describe('a CV that names only its region or country', () => {
  const cv = searchAttributesOf(
    {
      skills: [],
      experienceYears: null,
      seniorityLevel: null,
      domain: null,
      degree: null,
      languages: [],
      location: { kind: 'region', lat: 31, lon: -100, city: null, regionCode: 'TX', countryCode: 'US' },
    },
    '01-2025',
  );

  it('passes a place filter on its region, never a radius around the region’s centre', () => {
    expect(passesFilter('d1', cv, { location: { kind: 'place', countryCode: 'US', regionCode: 'TX' } })).toBe(true);
    expect(passesFilter('d1', cv, { location: { kind: 'near', lat: 31, lon: -100, radiusKm: 100 } })).toBe(false);
  });
});
