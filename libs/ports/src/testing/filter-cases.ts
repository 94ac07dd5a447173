import { NO_ATTRIBUTES, type SearchAttributes, type SearchFilter, type SkillsFilter } from '@cs/search-filters';

/**
 * CVs with known attributes, and filters with the CVs each must return, for every store's
 * contract: a store applies a filter before its top K, so a search returns exactly the CVs that
 * pass. Every CV's text holds "engineer" and every vector is near the contracts' query.
 */
const attributes = (a: Partial<SearchAttributes>): SearchAttributes => ({ ...NO_ATTRIBUTES, ...a });

const AUSTIN = { cityPoint: true, lat: 30.26715, lon: -97.74306, city: 'austin', regionCode: 'TX', countryCode: 'US' };
const ROUND_ROCK = { cityPoint: true, lat: 30.50826, lon: -97.6789, city: 'round rock', regionCode: 'TX', countryCode: 'US' };
const BERLIN = { cityPoint: true, lat: 52.52437, lon: 13.41053, city: 'berlin', regionCode: 'BE', countryCode: 'DE' };

export const FILTER_CVS: { id: string; text: string; attributes: SearchAttributes | undefined }[] = [
  {
    id: 'java-senior-austin',
    text: 'Senior engineer writing Java services on Kubernetes in Austin.',
    attributes: attributes({
      skills: ['java', 'kubernetes', 'aws'],
      experienceYears: 9,
      seniority: 'senior',
      domain: 'software engineering',
      degree: 3,
      languages: ['english', 'spanish'],
      location: AUSTIN,
      documentDate: 2025 * 12 + 2,
    }),
  },
  {
    id: 'java-php-roundrock',
    text: 'Engineer building Java and PHP web shops.',
    attributes: attributes({
      skills: ['java', 'php', 'gcp'],
      experienceYears: 5,
      seniority: 'mid',
      domain: 'software engineering',
      degree: 4,
      languages: ['english'],
      location: ROUND_ROCK,
      documentDate: 2023 * 12 + 5,
    }),
  },
  {
    id: 'python-lead-berlin',
    text: 'Lead data engineer, Python and Spark, in Berlin.',
    attributes: attributes({
      skills: ['python', 'spark'],
      experienceYears: 14,
      seniority: 'lead',
      domain: 'data and analytics',
      degree: 5,
      languages: ['german', 'english'],
      location: BERLIN,
      documentDate: 2026 * 12 + 0,
    }),
  },
  {
    id: 'junior-no-place',
    text: 'Junior engineer who learnt Java at school.',
    attributes: attributes({ skills: ['java'], experienceYears: 1, seniority: 'junior', degree: 1, documentDate: 2024 * 12 + 8 }),
  },
  // Indexed without attributes (as before profiles were kept): passes only what needs no profile.
  { id: 'no-attributes', text: 'Engineer of unknown profile.', attributes: undefined },
];

/**
 * Skills matched as text, each with the CVs of FILTER_CVS whose text holds it: what a keyword
 * store's documentsWithPhrase finds in company f1, and what the cases below give the stores.
 */
export const PHRASE_HOLDERS: Record<string, string[]> = {
  'web shops': ['java-php-roundrock'],
  'unknown profile': ['no-attributes'],
  'data engineer': ['python-lead-berlin'],
  'java services': ['java-senior-austin'],
  // A stop word inside: the embedded index drops it, Elasticsearch keeps its place, and both find it.
  'java at school': ['junior-no-place'],
  'quantum knitting': [],
};

type SkillLists = { all: string[]; any: string[]; none: string[] };
/** Skills of the vocabulary and skills matched as text, the latter with their holders as the orchestrator finds them. */
function skillsWithPhrases(keys: Partial<SkillLists>, phrases: Partial<SkillLists>): SkillsFilter {
  const lists = (l: Partial<SkillLists>): SkillLists => ({ all: l.all ?? [], any: l.any ?? [], none: l.none ?? [] });
  const named = [...new Set(Object.values(phrases).flat())];
  return {
    ...lists(keys),
    phrases: lists(phrases),
    phraseHolders: named.map((phrase) => ({ phrase, documentIds: PHRASE_HOLDERS[phrase] })),
  };
}

export const FILTER_CASES: { name: string; filter: SearchFilter; expected: string[] }[] = [
  { name: 'skills all', filter: { skills: { all: ['java', 'kubernetes'], any: [], none: [] } }, expected: ['java-senior-austin'] },
  {
    name: 'skills any',
    filter: { skills: { all: [], any: ['aws', 'gcp'], none: [] } },
    expected: ['java-php-roundrock', 'java-senior-austin'],
  },
  {
    name: 'skills none excludes, and keeps CVs that name nothing',
    filter: { skills: { all: [], any: [], none: ['php', 'python'] } },
    expected: ['java-senior-austin', 'junior-no-place', 'no-attributes'],
  },
  {
    name: 'years range',
    filter: { experienceYears: { gte: 5, lte: 10 } },
    expected: ['java-php-roundrock', 'java-senior-austin'],
  },
  { name: 'seniority', filter: { seniority: ['lead', 'junior'] }, expected: ['junior-no-place', 'python-lead-berlin'] },
  { name: 'domain', filter: { domain: ['data and analytics'] }, expected: ['python-lead-berlin'] },
  { name: 'degree at least master', filter: { degree: { gte: 4 } }, expected: ['java-php-roundrock', 'python-lead-berlin'] },
  { name: 'languages all', filter: { languages: { all: ['spanish', 'english'], any: [] } }, expected: ['java-senior-austin'] },
  {
    name: 'near a point within a radius',
    filter: { location: { kind: 'near', lat: 30.26715, lon: -97.74306, radiusKm: 50 } },
    expected: ['java-php-roundrock', 'java-senior-austin'],
  },
  {
    name: 'near a point, a radius too small for the next town',
    filter: { location: { kind: 'near', lat: 30.26715, lon: -97.74306, radiusKm: 10 } },
    expected: ['java-senior-austin'],
  },
  { name: 'country', filter: { location: { kind: 'place', countryCode: 'DE' } }, expected: ['python-lead-berlin'] },
  {
    name: 'region and city',
    filter: { location: { kind: 'place', countryCode: 'US', regionCode: 'TX', city: 'round rock' } },
    expected: ['java-php-roundrock'],
  },
  {
    name: 'document date range',
    filter: { documentDate: { gte: 2024 * 12 + 0, lte: 2025 * 12 + 11 } },
    expected: ['java-senior-austin', 'junior-no-place'],
  },
  {
    name: 'document ids and exclusions',
    filter: { documentIds: ['java-senior-austin', 'no-attributes', 'python-lead-berlin'], excludeDocumentIds: ['python-lead-berlin'] },
    expected: ['java-senior-austin', 'no-attributes'],
  },
  {
    name: 'every condition at once',
    filter: {
      skills: { all: ['java'], any: [], none: ['php'] },
      experienceYears: { gte: 5 },
      seniority: ['senior', 'lead'],
      location: { kind: 'near', lat: 30.26715, lon: -97.74306, radiusKm: 50 },
    },
    expected: ['java-senior-austin'],
  },
  { name: 'a filter no CV passes', filter: { skills: { all: ['cobol'], any: [], none: [] } }, expected: [] },
  { name: 'a skill matched as text', filter: { skills: skillsWithPhrases({}, { all: ['web shops'] }) }, expected: ['java-php-roundrock'] },
  {
    name: 'skills all: a skill of the profile and a phrase of the text',
    filter: { skills: skillsWithPhrases({ all: ['java'] }, { all: ['java services'] }) },
    expected: ['java-senior-austin'],
  },
  {
    name: 'skills any: a skill of the profile or a phrase of the text',
    filter: { skills: skillsWithPhrases({ any: ['aws'] }, { any: ['unknown profile', 'data engineer'] }) },
    expected: ['java-senior-austin', 'no-attributes', 'python-lead-berlin'],
  },
  {
    name: 'skills none: a phrase of the text excludes, a skill of the profile too',
    filter: { skills: skillsWithPhrases({ none: ['python'] }, { none: ['web shops', 'unknown profile'] }) },
    expected: ['java-senior-austin', 'junior-no-place'],
  },
  {
    name: 'skills matched as text beside other conditions',
    filter: { skills: skillsWithPhrases({ all: ['java'] }, { any: ['java at school', 'java services'] }), seniority: ['junior'] },
    expected: ['junior-no-place'],
  },
];

/**
 * Filters at the edges of passesFilter's semantics (empty lists, open ranges, inclusive bounds,
 * partial places), over FILTER_CVS: for the specs that compare a store's translation of a filter
 * with passesFilter, beside FILTER_CASES.
 */
export const FILTER_EDGE_CASES: { name: string; filter: SearchFilter }[] = [
  { name: 'an empty list of document ids passes nothing', filter: { documentIds: [] } },
  { name: 'an empty list of seniorities passes nothing', filter: { seniority: [] } },
  { name: 'skills with every list empty pass every CV', filter: { skills: { all: [], any: [], none: [] } } },
  { name: 'skills all and none on one CV', filter: { skills: { all: ['java'], any: [], none: ['kubernetes'] } } },
  { name: 'languages any', filter: { languages: { all: [], any: ['german', 'spanish'] } } },
  { name: 'a range open at both ends passes the CVs that say', filter: { experienceYears: {} } },
  { name: 'a range open below, its bound included', filter: { documentDate: { lte: 2024 * 12 + 8 } } },
  { name: 'a range with both bounds included', filter: { degree: { gte: 3, lte: 4 } } },
  { name: 'a region without a city', filter: { location: { kind: 'place', countryCode: 'US', regionCode: 'TX' } } },
  { name: 'a city in another country', filter: { location: { kind: 'place', countryCode: 'DE', city: 'austin' } } },
  {
    name: 'near a point, a radius of a thousand kilometres',
    filter: { location: { kind: 'near', lat: 52.52437, lon: 13.41053, radiusKm: 1000 } },
  },
  { name: 'exclusions alone keep the CVs without attributes', filter: { excludeDocumentIds: ['java-senior-austin'] } },
  { name: 'an empty list of exclusions excludes nothing', filter: { excludeDocumentIds: [], seniority: ['junior'] } },
  { name: 'a phrase no CV holds passes nothing in all', filter: { skills: skillsWithPhrases({}, { all: ['quantum knitting'] }) } },
  { name: 'a phrase no CV holds passes nothing in any', filter: { skills: skillsWithPhrases({}, { any: ['quantum knitting'] }) } },
  {
    name: 'a phrase no CV holds leaves any to its skills',
    filter: { skills: skillsWithPhrases({ any: ['python', 'php'] }, { any: ['quantum knitting'] }) },
  },
  { name: 'a phrase no CV holds excludes nothing in none', filter: { skills: skillsWithPhrases({}, { none: ['quantum knitting'] }) } },
  {
    name: 'two phrases in all that no CV holds together',
    filter: { skills: skillsWithPhrases({}, { all: ['web shops', 'java services'] }) },
  },
  {
    name: 'one phrase in all and in none',
    filter: { skills: skillsWithPhrases({}, { all: ['data engineer'], none: ['data engineer'] }) },
  },
];
