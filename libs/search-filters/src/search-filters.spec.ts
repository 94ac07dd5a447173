import { MAX_TEXT_SKILLS, SearchFilters } from './filters-body';
import { InvalidFilterError, compileFilters, type PlaceResolver } from './compile-filters';
import { NO_ATTRIBUTES, distanceKm, passesFilter, phraseHolderIds, type SearchAttributes, type SearchFilter } from './search-filter';
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

  it('keeps a skill the vocabulary does not know as a phrase of the text, folded, beside the known ones', () => {
    expect(
      compileFilters(
        { skills: { all: ['Java', '  Underwater   Basket Weaving '], any: ['blorp', 'BLORP', 'k8s'], none: ['Temenos T24'] } },
        vocabulary,
      )?.skills,
    ).toEqual({
      all: ['java'],
      any: ['kubernetes'],
      none: [],
      phrases: { all: ['underwater basket weaving'], any: ['blorp'], none: ['temenos t24'] },
    });
    expect(compileFilters({ skills: { all: ['java'] } }, vocabulary)?.skills).not.toHaveProperty('phrases');
  });

  it('refuses a skill of no searchable word, and more skills matched as text than a search may hold', () => {
    expect(() => compileFilters({ skills: { any: ['java', '???'] } }, vocabulary)).toThrow(
      new InvalidFilterError(
        'filters.skills.any: "???" is not in the skills vocabulary and holds no word CVs are searched by (stop words and punctuation are not indexed), so it cannot be matched as text',
      ),
    );
    expect(() => compileFilters({ skills: { none: ['to be or not to be'] } }, vocabulary)).toThrow(
      /filters\.skills\.none: "to be or not to be"/,
    );
    const phrases = (n: number) => Array.from({ length: n }, (_, i) => `blorp ${i}`);
    expect(compileFilters({ skills: { all: phrases(MAX_TEXT_SKILLS) } }, vocabulary)?.skills?.phrases?.all).toHaveLength(MAX_TEXT_SKILLS);
    expect(() => compileFilters({ skills: { all: phrases(6), none: phrases(MAX_TEXT_SKILLS + 1).slice(5) } }, vocabulary)).toThrow(
      new InvalidFilterError(
        `filters.skills names ${MAX_TEXT_SKILLS + 1} skills the skills vocabulary does not know; at most ${MAX_TEXT_SKILLS} are matched as text in one search`,
      ),
    );
  });

  it('names a domain or a place it cannot resolve', () => {
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

  describe('skills matched as text, by the CVs found holding them', () => {
    const withPhrases = (
      keys: Partial<Record<'all' | 'any' | 'none', string[]>>,
      phrases: Partial<Record<'all' | 'any' | 'none', string[]>>,
      holders: Record<string, string[]>,
    ): SearchFilter => ({
      skills: {
        all: keys.all ?? [],
        any: keys.any ?? [],
        none: keys.none ?? [],
        phrases: { all: phrases.all ?? [], any: phrases.any ?? [], none: phrases.none ?? [] },
        phraseHolders: Object.entries(holders).map(([phrase, documentIds]) => ({ phrase, documentIds })),
      },
    });
    const passing = (filter: SearchFilter, cvs: [string, SearchAttributes | null][]) =>
      cvs.filter(([id, a]) => passesFilter(id, a, filter)).map(([id]) => id);
    const java = { ...NO_ATTRIBUTES, skills: ['java'] };
    const cvs: [string, SearchAttributes | null][] = [
      ['d1', java],
      ['d2', java],
      ['d3', null],
      ['d4', NO_ATTRIBUTES],
    ];

    it('all: every phrase held, beside every skill named', () => {
      const holders = { 'web shops': ['d1', 'd3'], 'data mesh': ['d1', 'd3', 'd4'] };
      expect(passing(withPhrases({}, { all: ['web shops', 'data mesh'] }, holders), cvs)).toEqual(['d1', 'd3']);
      expect(passing(withPhrases({ all: ['java'] }, { all: ['web shops', 'data mesh'] }, holders), cvs)).toEqual(['d1']);
    });

    it('any: a skill named or a phrase held, a CV without a profile by its text', () => {
      const holders = { 'web shops': ['d3'], nowhere: [] };
      expect(passing(withPhrases({ any: ['java'] }, { any: ['web shops'] }, holders), cvs)).toEqual(['d1', 'd2', 'd3']);
      expect(passing(withPhrases({}, { any: ['web shops', 'nowhere'] }, holders), cvs)).toEqual(['d3']);
      expect(passing(withPhrases({}, { any: ['nowhere'] }, holders), cvs)).toEqual([]);
      expect(passing(withPhrases({ any: ['java'] }, { any: ['nowhere'] }, holders), cvs)).toEqual(['d1', 'd2']);
    });

    it('none: no phrase held, no skill named', () => {
      const holders = { 'web shops': ['d2', 'd3'], nowhere: [] };
      expect(passing(withPhrases({}, { none: ['web shops'] }, holders), cvs)).toEqual(['d1', 'd4']);
      expect(passing(withPhrases({ none: ['java'] }, { none: ['web shops'] }, holders), cvs)).toEqual(['d4']);
      expect(passing(withPhrases({}, { none: ['nowhere'] }, holders), cvs)).toEqual(['d1', 'd2', 'd3', 'd4']);
    });

    it('cannot be applied before the CVs holding each phrase are found', () => {
      const unresolved: SearchFilter = { skills: { all: [], any: [], none: [], phrases: { all: ['web shops'], any: [], none: [] } } };
      expect(() => passesFilter('d1', java, unresolved)).toThrow(/"web shops" as text were not found/);
      const filter = withPhrases({}, { all: ['a', 'b'], any: ['b'], none: ['c'] }, { a: ['d1', 'd2'], b: ['d2', 'd3'], c: [] });
      expect(phraseHolderIds(filter.skills)).toEqual({
        all: ['d2'],
        any: ['d2', 'd3'],
        none: [],
      });
      expect(phraseHolderIds({ all: ['java'], any: [], none: [] })).toBeNull();
    });
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
    const phrases: SearchFilter = {
      skills: {
        all: ['java'],
        any: [],
        none: [],
        phrases: { all: ['web shops'], any: [], none: [] },
        phraseHolders: [{ phrase: 'web shops', documentIds: ['d1', 'd2'] }],
      },
    };
    expect(filterFromJson(filterToJson(phrases))).toEqual(phrases);
    // A phrase's own name is data: a key like __proto__ is a phrase like any other.
    const proto = JSON.stringify({ skills: { all: [], any: [], none: [], phraseHolders: [{ phrase: '__proto__', documentIds: ['d1'] }] } });
    expect(filterFromJson(proto)?.skills?.phraseHolders).toEqual([{ phrase: '__proto__', documentIds: ['d1'] }]);
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
