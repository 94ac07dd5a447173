import { AttributeIndex } from './attribute-index';
import { FACET_FIELDS, countFacets } from './facets';
import { NO_ATTRIBUTES, countRequirements, passesFilter, type SearchAttributes, type SearchFilter } from './search-filter';

/** A small deterministic generator (mulberry32), so that a failure repeats. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SKILLS = ['java', 'python', 'kubernetes', 'php', 'aws', 'gcp', 'spark', 'sql'];
const LANGUAGES = ['english', 'spanish', 'german'];
const SENIORITIES = ['junior', 'mid', 'senior', 'lead'];
const DOMAINS = ['software engineering', 'healthcare', 'finance'];
const PLACES = [
  { cityPoint: true, lat: 30.26715, lon: -97.74306, city: 'austin', regionCode: 'TX', countryCode: 'US' },
  { cityPoint: true, lat: 30.50826, lon: -97.6789, city: 'round rock', regionCode: 'TX', countryCode: 'US' },
  { cityPoint: false, lat: 31, lon: -100, city: null, regionCode: 'TX', countryCode: 'US' },
  { cityPoint: true, lat: 52.52437, lon: 13.41053, city: 'berlin', regionCode: 'BE', countryCode: 'DE' },
  { cityPoint: false, lat: 51, lon: 10, city: null, regionCode: null, countryCode: 'DE' },
];

function cases(next: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const some = <T>(list: readonly T[], most: number): T[] => [
    ...new Set(Array.from({ length: Math.floor(next() * (most + 1)) }, () => pick(list))),
  ];
  const maybe = <T>(make: () => T): T | null => (next() < 0.25 ? null : make());
  const attributes = (): SearchAttributes | null =>
    next() < 0.1
      ? null
      : {
          skills: some(SKILLS, 4),
          experienceYears: maybe(() => Math.floor(next() * 25)),
          seniority: maybe(() => pick(SENIORITIES)),
          domain: maybe(() => pick(DOMAINS)),
          degree: maybe(() => Math.floor(next() * 6)),
          languages: some(LANGUAGES, 2),
          location: maybe(() => ({ ...pick(PLACES) })),
          documentDate: maybe(() => 24_000 + Math.floor(next() * 40)),
        };
  const range = (low: number, span: number) => {
    const gte = low + Math.floor(next() * span);
    const r = next();
    return r < 0.3 ? { gte } : r < 0.6 ? { lte: gte } : r < 0.9 ? { gte, lte: gte + Math.floor(next() * span) } : {};
  };
  const filter = (ids: readonly string[]): SearchFilter => {
    const f: SearchFilter = {};
    const on = () => next() < 0.3;
    if (on()) {
      const phrase = next() < 0.3;
      f.skills = { all: some([...SKILLS, 'cobol'], 2), any: some([...SKILLS, 'cobol'], 2), none: some([...SKILLS, 'cobol'], 1) };
      if (phrase) {
        const phrases = { all: some(['web shops'], 1), any: some(['java at school', 'data work'], 2), none: some(['php shops'], 1) };
        f.skills.phrases = phrases;
        f.skills.phraseHolders = [...new Set([...phrases.all, ...phrases.any, ...phrases.none])].map((phrase) => ({
          phrase,
          documentIds: some(ids, 6),
        }));
      }
    }
    if (on()) f.experienceYears = range(0, 20);
    if (on()) f.seniority = some(SENIORITIES, 2);
    if (on()) f.domain = some([...DOMAINS, 'law'], 2);
    if (on()) f.degree = range(0, 6);
    if (on()) f.languages = { all: some([...LANGUAGES, 'farsi'], 1), any: some(LANGUAGES, 2) };
    if (on())
      f.location =
        next() < 0.5
          ? { kind: 'near', lat: 30.3, lon: -97.7, radiusKm: pick([1, 10, 50, 2000, 9000]) }
          : {
              kind: 'place',
              countryCode: pick(['US', 'DE', 'FR']),
              ...(next() < 0.5 ? { regionCode: pick(['TX', 'BE', 'CA']) } : {}),
              ...(next() < 0.3 ? { city: pick(['austin', 'berlin', 'paris']) } : {}),
            };
    if (on()) f.documentDate = range(24_000, 40);
    if (next() < 0.1) f.documentIds = some([...ids, 'gone'], 10);
    if (next() < 0.1) f.excludeDocumentIds = some([...ids, 'gone'], 10);
    return f;
  };
  return { attributes, filter, pick };
}

describe('AttributeIndex', () => {
  it.each([1, 2, 3])(
    'answers as passesFilter, countFacets and countRequirements do, through puts, replacements, moves and removals (seed %i)',
    (seed) => {
      const next = random(seed);
      const { attributes, filter, pick } = cases(next);
      // A dense store's rows: removing a CV moves the last one into its place.
      const rows: string[] = [];
      const held = new Map<string, SearchAttributes | null>();
      const index = new AttributeIndex((id) => {
        const row = rows.indexOf(id);
        return row < 0 ? undefined : row;
      });
      for (let step = 0; step < 400; step++) {
        const r = next();
        if (r < 0.6 || rows.length === 0) {
          const id = `cv-${step}`;
          const a = attributes();
          rows.push(id);
          held.set(id, a);
          index.set(rows.length - 1, a);
        } else if (r < 0.8) {
          const id = pick(rows);
          const a = attributes();
          held.set(id, a);
          index.set(rows.indexOf(id), a);
        } else {
          const id = pick(rows);
          const row = rows.indexOf(id);
          const last = rows.length - 1;
          index.move(last, row);
          rows[row] = rows[last];
          rows.pop();
          held.delete(id);
        }
      }
      const cvs = rows.map((id) => ({ id, attributes: held.get(id) ?? null }));
      for (let round = 0; round < 200; round++) {
        const f = filter(rows);
        const passes = index.passing(f);
        const expected = cvs.filter((cv) => passesFilter(cv.id, cv.attributes, f));
        expect(rows.filter((_, row) => passes[row] === 1)).toEqual(expected.map((cv) => cv.id));
        expect(index.facets(passes, FACET_FIELDS)).toEqual(
          countFacets(
            expected.map((cv) => cv.attributes),
            FACET_FIELDS,
          ),
        );
        const requirements = Array.from({ length: 1 + Math.floor(next() * 4) }, () => filter(rows));
        const base = next() < 0.5 ? null : filter(rows);
        expect(index.requirementCounts(base, requirements)).toEqual(countRequirements(cvs, base, requirements));
      }
      expect(index.facets(null, FACET_FIELDS)).toEqual(
        countFacets(
          cvs.map((cv) => cv.attributes),
          FACET_FIELDS,
        ),
      );
    },
  );

  it('keeps a freed slot out of every answer, and gives masks the length a store asks for', () => {
    const index = new AttributeIndex(() => undefined);
    const java = { ...NO_ATTRIBUTES, skills: ['java'], experienceYears: 3 };
    index.set(0, java);
    index.set(1, java);
    index.clear(0);
    expect([...index.passing({ skills: { all: ['java'], any: [], none: [] } }, 4)]).toEqual([0, 1, 0, 0]);
    expect([...index.holding('java')]).toEqual([0, 1]);
    expect(index.facets(null, ['skills'])).toEqual({ cvs: 1, fields: { skills: [{ value: 'java', count: 1 }] } });
    expect(index.attributesAt(0)).toBeNull();
  });
});
