import { ApiClient } from './support/api-client';
import { TEXT, createCompany } from './support/fixtures';
import { MODES, describeMode, type ServiceUnderTest } from './support/service-under-test';

jest.setTimeout(600_000);

/** A text CV whose profile the service reads back: title, place, dated jobs, skills, degree and languages. */
interface Candidate {
  name: string;
  title: string;
  place: string;
  from: number;
  skills: string[];
  degree: string;
  languages: string[];
  documentDate: string;
}

const PEOPLE: Candidate[] = [
  [
    'Ana Torres',
    'Senior Software Engineer',
    'Austin, TX',
    2012,
    ['Java', 'Kubernetes', 'AWS'],
    'Bachelor of Science in Computer Science',
    ['English', 'Spanish'],
    '11-2025',
  ],
  [
    'Ben Carter',
    'Software Engineer',
    'Round Rock, TX',
    2019,
    ['Java', 'PHP', 'MySQL'],
    'Master of Science in Software Engineering',
    ['English'],
    '10-2025',
  ],
  [
    'Chen Wei',
    'Lead Data Engineer',
    'Berlin, Germany',
    2008,
    ['Python', 'Spark', 'Kubernetes'],
    'PhD in Computer Science',
    ['German', 'English'],
    '06-2024',
  ],
  [
    'Dana Brooks',
    'Junior Software Engineer',
    'Denver, CO',
    2023,
    ['Java', 'JavaScript'],
    'Associate of Applied Science in Programming',
    ['English'],
    '09-2025',
  ],
  [
    'Eli Novak',
    'Senior Software Engineer',
    'Seattle, WA',
    2010,
    ['Go', 'Kubernetes', 'PostgreSQL'],
    'Bachelor of Arts in Mathematics',
    ['English'],
    '01-2026',
  ],
  [
    'Fay Olsen',
    'Software Engineer',
    'Austin, TX',
    2017,
    ['PHP', 'Laravel', 'MySQL'],
    'Bachelor of Science in Information Systems',
    ['English', 'Spanish'],
    '03-2025',
  ],
  [
    'Gus Imai',
    'Principal Software Engineer',
    'San Jose, CA',
    2005,
    ['C++', 'Java', 'AWS'],
    'Master of Science in Electrical Engineering',
    ['English', 'Japanese'],
    '07-2025',
  ],
  [
    'Hana Ruiz',
    'QA Engineer',
    'Austin, TX',
    2020,
    ['Selenium', 'Java', 'Python'],
    'Bachelor of Science in Biology',
    ['Spanish', 'English'],
    '12-2025',
  ],
].map(([name, title, place, from, skills, degree, languages, documentDate]) => ({
  name,
  title,
  place,
  from,
  skills,
  degree,
  languages,
  documentDate,
})) as Candidate[];

/**
 * A skill the vocabulary does not know, written in a few CVs: Ana's names its words apart and out
 * of order, which is not the phrase.
 */
const TEXT_SKILL = 'Temenos T24';
const TEXT_SKILL_LINES: Record<string, string> = {
  'Ben Carter': 'Ported card payments to Temenos T24 for a retail bank.',
  'Eli Novak': 'Ran the TEMENOS T24 upgrade of a core banking platform.',
  'Hana Ruiz': 'Tested interfaces of Temenos   t24 releases.',
  'Ana Torres': 'Compared T24 licences before the Temenos review.',
};

const cvText = (c: Candidate, i: number) =>
  [
    c.name,
    c.title,
    `${c.place} | ${c.name.toLowerCase().replace(' ', '.')}@example.com | (512) 555-01${10 + i}`,
    '',
    'SUMMARY',
    `${c.title} building reliable software engineering systems with ${c.skills.join(', ')}.`,
    '',
    'EXPERIENCE',
    `${c.title}, Example Systems ${i}`,
    `01/${c.from} - 10/2025`,
    `Engineered services in ${c.skills.join(' and ')}; reviewed code and mentored engineers.`,
    ...(TEXT_SKILL_LINES[c.name] ? [TEXT_SKILL_LINES[c.name]] : []),
    '',
    'EDUCATION',
    c.degree,
    '',
    'SKILLS',
    c.skills.join(', '),
    '',
    'LANGUAGES',
    c.languages.join(', '),
  ].join('\n');

const AUSTIN = { lat: 30.26715, lon: -97.74306 };
const km = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => {
  const r = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(r(b.lat - a.lat) / 2) ** 2 + Math.cos(r(a.lat)) * Math.cos(r(b.lat)) * Math.sin(r(b.lon - a.lon) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
};

interface Stored {
  id: string;
  documentDate: string;
  profile: {
    skills: string[];
    experienceYears: number | null;
    seniorityLevel: string | null;
    degree: string | null;
    languages: string[];
    location: { lat: number; lon: number; regionCode: string | null; countryCode: string } | null;
  } | null;
}

const has = (list: string[] | undefined, name: string) => (list ?? []).some((s) => s.toLowerCase() === name);
const DEGREES = ['none', 'high-school', 'associate', 'bachelor', 'master', 'doctorate'];
const month = (mmYyyy: string) => Number(mmYyyy.slice(3)) * 12 + Number(mmYyyy.slice(0, 2));

/** Each filter, and the CVs that pass it as read from the profiles the service stored (not by the service's own filter code). */
const CASES: { name: string; filters: Record<string, unknown>; passes: (cv: Stored) => boolean }[] = [
  {
    name: 'skills all',
    filters: { skills: { all: ['java', 'k8s'] } },
    passes: (cv) => has(cv.profile?.skills, 'java') && has(cv.profile?.skills, 'kubernetes'),
  },
  { name: 'skills none', filters: { skills: { none: ['php'] } }, passes: (cv) => !has(cv.profile?.skills, 'php') },
  { name: 'years', filters: { experienceYears: { gte: 8 } }, passes: (cv) => (cv.profile?.experienceYears ?? -1) >= 8 },
  {
    name: 'seniority',
    filters: { seniority: ['senior', 'lead'] },
    passes: (cv) => ['senior', 'lead'].includes(cv.profile?.seniorityLevel ?? ''),
  },
  {
    name: 'near Austin',
    filters: { location: { near: 'Austin, TX', radiusKm: 50 } },
    passes: (cv) => cv.profile?.location != null && km(cv.profile.location, AUSTIN) <= 50,
  },
  {
    name: 'region',
    filters: { location: { region: 'Texas', country: 'United States' } },
    passes: (cv) => cv.profile?.location?.regionCode === 'TX',
  },
  { name: 'degree', filters: { degree: { gte: 'master' } }, passes: (cv) => DEGREES.indexOf(cv.profile?.degree ?? 'x') >= 4 },
  { name: 'languages', filters: { languages: { all: ['Spanish'] } }, passes: (cv) => has(cv.profile?.languages, 'spanish') },
  {
    name: 'document date',
    filters: { documentDate: { gte: '06-2025', lte: '12-2025' } },
    passes: (cv) => month(cv.documentDate) >= month('06-2025') && month(cv.documentDate) <= month('12-2025'),
  },
];

const TYPES = [
  { type: 'sparse', query: 'engineer, software' },
  { type: 'dense', query: 'software engineer building services' },
  { type: 'hybrid', query: 'software engineer, services' },
  { type: 'builtin-rerank', query: 'software engineer building services' },
] as const;

for (const mode of MODES)
  describeMode(mode)(`filters in every search type (${mode.name} mode)`, () => {
    let service: ServiceUnderTest;
    let client: ApiClient;
    let stored: Stored[] = [];
    /** The CVs whose text holds TEXT_SKILL, its words side by side, case and spacing aside: read from the texts uploaded. */
    const textSkillHolders: string[] = [];

    beforeAll(async () => {
      service = await mode.start();
      const { apiKey } = await createCompany(service, 'filters', 100_000);
      client = new ApiClient(service.baseUrl, apiKey);
      const ids: string[] = [];
      for (const [i, c] of PEOPLE.entries()) {
        const text = cvText(c, i);
        ids.push((await client.upload(Buffer.from(text), TEXT, { documentName: c.name, documentDate: c.documentDate })).body.documentId);
        if (/temenos\s+t24/i.test(text)) textSkillHolders.push(ids[i]);
      }
      const done = await client.waitForDocuments(ids);
      stored = [...done.values()].map((d) => ({ id: d.documentId, documentDate: d.documentDate, profile: d.profile }));
      expect(stored.every((d) => done.get(d.id)?.status === 'completed')).toBe(true);
    });
    afterAll(() => service?.destroy());

    const search = async (type: string, body: Record<string, unknown>) => {
      const created = await client.post(`/v1/public/searches/${type}`, { top_k: 100, rerank_top_n: 100, ...body });
      expect(created.status).toBe(202);
      const status = await client.waitForSearch(created.body.searchId);
      expect(status.status).toBe('completed');
      const results = await client.get(`/v1/public/searches/${created.body.searchId}/results?limit=20`);
      return { status, results: results.body };
    };

    it('reads the profile the filters need from every CV', () => {
      // The cases below are only as strong as the profiles they are checked against.
      expect(stored.filter((cv) => cv.profile?.location).length).toBeGreaterThanOrEqual(6);
      expect(stored.filter((cv) => (cv.profile?.skills.length ?? 0) >= 2).length).toBe(PEOPLE.length);
    });

    for (const { type, query } of TYPES) {
      it.each(CASES)(`${type}: returns exactly the CVs that pass ($name), and echoes the filters`, async ({ filters, passes }) => {
        const unfiltered = await search(type, { query });
        const found = new Set(unfiltered.results.results.map((r: { documentId: string }) => r.documentId));
        const { status, results } = await search(type, { query, filters });
        expect(status.filters).toEqual(filters);
        expect(results.filters).toEqual(filters);
        const expected = stored.filter((cv) => passes(cv) && found.has(cv.id)).map((cv) => cv.id);
        // Selective: some CVs the query finds pass, and some do not.
        expect(expected.length).toBeGreaterThan(0);
        expect(expected.length).toBeLessThan(found.size);
        expect(results.results.map((r: { documentId: string }) => r.documentId).sort()).toEqual(expected.sort());
      });
    }

    it('fills a small top K from the CVs that pass, however many rank above them', async () => {
      const passing = stored.filter((cv) => has(cv.profile?.skills, 'php')).map((cv) => cv.id);
      for (const { type, query } of TYPES) {
        const { results } = await search(type, {
          query,
          top_k: passing.length,
          rerank_top_n: passing.length,
          filters: { skills: { any: ['PHP'] } },
        });
        expect(results.results.map((r: { documentId: string }) => r.documentId).sort()).toEqual([...passing].sort());
      }
    });

    it('counts facets over the CVs that pass and over the results, as the stored profiles say', async () => {
      const filters = { seniority: ['senior', 'lead'] };
      const passing = stored.filter((cv) => ['senior', 'lead'].includes(cv.profile?.seniorityLevel ?? ''));
      const { results } = await search('dense', {
        query: 'software engineer building services',
        top_k: 3,
        filters,
        facets: ['seniority', 'degree', 'location'],
      });
      const tally = (cvs: Stored[], value: (cv: Stored) => string | null) => {
        const counts = new Map<string, number>();
        for (const cv of cvs) {
          const v = value(cv);
          if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
        }
        return Object.fromEntries(counts);
      };
      const asMap = (list: { value: string; count: number }[]) => Object.fromEntries(list.map((c) => [c.value, c.count]));
      expect(results.facets.passing.cvs).toBe(passing.length);
      expect(asMap(results.facets.passing.fields.seniority)).toEqual(tally(passing, (cv) => cv.profile?.seniorityLevel ?? null));
      expect(asMap(results.facets.passing.fields.degree)).toEqual(tally(passing, (cv) => cv.profile?.degree ?? null));
      const region = (cv: Stored) =>
        cv.profile?.location ? [cv.profile.location.countryCode, cv.profile.location.regionCode].filter(Boolean).join('-') : null;
      expect(asMap(results.facets.passing.fields.location)).toEqual(tally(passing, region));
      const shown = stored.filter((cv) => results.results.some((r: { documentId: string }) => r.documentId === cv.id));
      expect(results.facets.results.cvs).toBe(shown.length);
      expect(asMap(results.facets.results.fields.seniority)).toEqual(tally(shown, (cv) => cv.profile?.seniorityLevel ?? null));
    });

    describe('a skill the vocabulary does not know, matched as a phrase of the text', () => {
      const ids = (results: Record<string, any>) => (results.results as { documentId: string }[]).map((r) => r.documentId).sort();
      const phpOrHolders = () =>
        stored.filter((cv) => has(cv.profile?.skills, 'php') || textSkillHolders.includes(cv.id)).map((cv) => cv.id);

      it('holds in a few CVs, and the vocabulary does not know it', async () => {
        expect(textSkillHolders).toHaveLength(3);
        expect(stored.some((cv) => has(cv.profile?.skills, 'temenos t24'))).toBe(false);
      });

      for (const { type, query } of TYPES)
        it(`${type}: keeps to the CVs holding it (all, any beside a known skill), keeps them out (none), and says so`, async () => {
          const unfiltered = ids((await search(type, { query })).results);
          expect(unfiltered).toEqual(expect.arrayContaining(textSkillHolders));

          const all = await search(type, { query, filters: { skills: { all: [TEXT_SKILL] } } });
          expect(all.status.filters).toEqual({ skills: { all: [TEXT_SKILL] } });
          expect(ids(all.results)).toEqual([...textSkillHolders].sort());
          expect(all.results.metadata.skillsMatchedAsText).toEqual(['temenos t24']);

          const any = await search(type, { query, filters: { skills: { any: ['PHP', ` ${TEXT_SKILL.toUpperCase()} `] } } });
          expect(ids(any.results)).toEqual(
            phpOrHolders()
              .filter((id) => unfiltered.includes(id))
              .sort(),
          );
          expect(any.results.metadata.skillsMatchedAsText).toEqual(['temenos t24']);

          const none = await search(type, { query, filters: { skills: { none: [TEXT_SKILL] } } });
          expect(ids(none.results)).toEqual(unfiltered.filter((id) => !textSkillHolders.includes(id)));
          expect(none.results.metadata.skillsMatchedAsText).toEqual(['temenos t24']);

          // A search whose skills are all known says nothing of text.
          const known = await search(type, { query, filters: { skills: { any: ['PHP'] } } });
          expect(known.results.metadata).not.toHaveProperty('skillsMatchedAsText');
        });

      it('fills a top K as small as the CVs holding it, however many rank above them', async () => {
        for (const { type, query } of TYPES) {
          const { results } = await search(type, {
            query,
            top_k: textSkillHolders.length,
            rerank_top_n: textSkillHolders.length,
            filters: { skills: { all: [TEXT_SKILL] } },
          });
          expect(ids(results)).toEqual([...textSkillHolders].sort());
        }
      });
    });

    it('refuses a filter it cannot resolve with a 400 naming the field', async () => {
      const place = await client.post('/v1/public/searches/dense', {
        query: 'engineer',
        filters: { location: { near: 'Xqzzyville', radiusKm: 10 } },
      });
      expect(place.status).toBe(400);
      expect(place.body.message).toMatch(/filters\.location\.near.*Xqzzyville/);
      const skill = await client.post('/v1/public/searches/sparse', { query: 'engineer', filters: { skills: { all: ['java', '???'] } } });
      expect(skill.status).toBe(400);
      expect(skill.body.message).toMatch(/filters\.skills\.all: "\?\?\?" is not in the skills vocabulary and holds no word/);
      const many = Array.from({ length: 11 }, (_, i) => `blorptastic ${i}`);
      const tooMany = await client.post('/v1/public/searches/dense', { query: 'engineer', filters: { skills: { any: many } } });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.message).toMatch(/filters\.skills names 11 skills .* at most 10/);
      const key = await client.post('/v1/public/searches/hybrid', { query: 'engineer', filters: { salary: 3 } });
      expect(key.status).toBe(400);
      expect(key.body.message).toMatch(/salary/);
    });
  });
