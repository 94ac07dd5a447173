import { z } from 'zod';

/**
 * The `filters` of a search-creation body, as the client writes them: names, not yet resolved
 * (skills through the vocabulary, places through the gazetteer). Zod only, so the browser console
 * and the contracts load it without the code that resolves names. Every list and string is
 * bounded, and unknown keys are refused: a filter costs bounded work before it is read.
 */

/** Seniority levels the profile reads, most senior first (`mid` from years alone). */
export const SENIORITY_LEVELS = ['executive', 'director', 'manager', 'lead', 'senior', 'mid', 'junior', 'intern'] as const;
/** Degrees in order, lowest first: `gte: "bachelor"` passes master and doctorate too. */
export const DEGREE_LEVELS = ['none', 'high-school', 'associate', 'bachelor', 'master', 'doctorate'] as const;
export type DegreeLevel = (typeof DEGREE_LEVELS)[number];

/** Most names a list may hold; skills and languages of a real search are a handful. */
export const MAX_FILTER_NAMES = 50;
/** Most document ids either id list may hold. */
export const MAX_FILTER_DOCUMENT_IDS = 1000;
export const MAX_NAME_CHARS = 100;
/** Most skills of one search the vocabulary does not know, each matched as a phrase of the CVs' text. */
export const MAX_TEXT_SKILLS = 10;
/**
 * Most CVs of the company one skill matched as text may be found in: the legs receive the ids of
 * those CVs, so a phrase most CVs hold is refused (a vocabulary skill or a query keyword does it).
 */
export const MAX_TEXT_SKILL_CVS = 2000;
export const MAX_RADIUS_KM = 1000;

/** An element's message: the path that names it ("filters.skills.all.3") is put before it. */
const NAME_RULE = `must be a name of 1 to ${MAX_NAME_CHARS} characters, not blank and without NUL characters`;
const name = () =>
  z
    .string({ error: NAME_RULE })
    .min(1, { error: NAME_RULE })
    .max(MAX_NAME_CHARS, { error: NAME_RULE })
    .refine((s) => s.trim().length > 0 && !s.includes('\u0000'), { error: NAME_RULE });

const names = (field: string) =>
  z
    .array(name(), { error: `${field} must be an array of 1 to ${MAX_FILTER_NAMES} names` })
    .min(1, { error: `${field} must be an array of 1 to ${MAX_FILTER_NAMES} names` })
    .max(MAX_FILTER_NAMES, { error: `${field} must be an array of 1 to ${MAX_FILTER_NAMES} names` });

const years = (field: string) =>
  z
    .number({ error: `${field} must be a number of years from 0 to 80` })
    .min(0, { error: `${field} must be a number of years from 0 to 80` })
    .max(80, { error: `${field} must be a number of years from 0 to 80` });

const MONTH_YEAR = /^(0[1-9]|1[0-2])-\d{4}$/;
const monthYear = (field: string) =>
  z.string({ error: `${field} must be a date as MM-YYYY` }).regex(MONTH_YEAR, { error: `${field} must be a date as MM-YYYY` });

const documentIds = (field: string) =>
  z
    .array(z.uuid({ error: `${field} must hold document ids (UUIDs)` }), {
      error: `${field} must be an array of at most ${MAX_FILTER_DOCUMENT_IDS} document ids`,
    })
    .max(MAX_FILTER_DOCUMENT_IDS, { error: `${field} must be an array of at most ${MAX_FILTER_DOCUMENT_IDS} document ids` });

const atLeastOne = (field: string, keys: string) => ({ error: `${field} must name at least one of ${keys}` });

/** `{gte, lte}` with gte <= lte when both are given, for ordered values compared by `rank`. */
function ordered<T extends z.ZodType>(field: string, bound: T, rank: (v: z.infer<T>) => number) {
  return z
    .strictObject({ gte: bound.optional(), lte: bound.optional() }, { error: `${field} must be an object with gte and/or lte` })
    .refine((r) => r.gte !== undefined || r.lte !== undefined, atLeastOne(field, 'gte, lte'))
    .refine((r) => r.gte === undefined || r.lte === undefined || rank(r.gte) <= rank(r.lte), {
      error: `${field}.gte must not be above ${field}.lte`,
    });
}

const monthsOf = (mmYyyy: string) => Number(mmYyyy.slice(3)) * 12 + Number(mmYyyy.slice(0, 2)) - 1;

export const SearchFilters = z
  .strictObject(
    {
      skills: z
        .strictObject(
          {
            all: names('filters.skills.all').optional(),
            any: names('filters.skills.any').optional(),
            none: names('filters.skills.none').optional(),
          },
          { error: 'filters.skills must be an object with all, any and/or none' },
        )
        .refine((s) => s.all ?? s.any ?? s.none, atLeastOne('filters.skills', 'all, any, none'))
        .optional()
        .meta({
          description: `Skills the CV names (through the skills vocabulary and its synonyms, case aside): all of \`all\`, at least one of \`any\`, none of \`none\`. A skill the vocabulary does not know is matched as a phrase of the CV’s text (at most ${MAX_TEXT_SKILLS} such skills a search, each found in at most ${MAX_TEXT_SKILL_CVS} CVs), and the results’ \`metadata.skillsMatchedAsText\` names it; one that holds no searchable word is a 400.`,
        }),
      experienceYears: ordered('filters.experienceYears', years('filters.experienceYears'), (y) => y)
        .optional()
        .meta({ description: 'Years of experience read from the CV’s dated jobs (0 to 80), inclusive' }),
      seniority: z
        .array(z.enum(SENIORITY_LEVELS, { error: `filters.seniority accepts ${SENIORITY_LEVELS.join(', ')}` }), {
          error: `filters.seniority must be an array of ${SENIORITY_LEVELS.join(', ')}`,
        })
        .min(1, { error: `filters.seniority must be an array of ${SENIORITY_LEVELS.join(', ')}` })
        .max(SENIORITY_LEVELS.length, { error: `filters.seniority must be an array of ${SENIORITY_LEVELS.join(', ')}` })
        .optional()
        .meta({ description: 'Any of these seniority levels' }),
      domain: names('filters.domain')
        .optional()
        .meta({ description: 'Any of these domains, as the profile names them; another name is a 400 listing them' }),
      location: z
        .union(
          [
            z.strictObject({
              near: name(),
              radiusKm: z
                .number({ error: `filters.location.radiusKm must be a number of kilometres above 0 and at most ${MAX_RADIUS_KM}` })
                .gt(0, { error: `filters.location.radiusKm must be a number of kilometres above 0 and at most ${MAX_RADIUS_KM}` })
                .max(MAX_RADIUS_KM, {
                  error: `filters.location.radiusKm must be a number of kilometres above 0 and at most ${MAX_RADIUS_KM}`,
                }),
            }),
            z
              .strictObject({
                city: name().optional(),
                region: name().optional(),
                country: name().optional(),
              })
              .refine((l) => l.city ?? l.region ?? l.country, atLeastOne('filters.location', 'city, region, country')),
          ],
          { error: 'filters.location must be {near, radiusKm} or {city, region, country}' },
        )
        .optional()
        .meta({
          description: `Within radiusKm (up to ${MAX_RADIUS_KM}) of the place \`near\` names, or in that country (and region, city when named); places resolved by the gazetteer, an unknown one a 400`,
        }),
      degree: ordered('filters.degree', z.enum(DEGREE_LEVELS, { error: `filters.degree accepts ${DEGREE_LEVELS.join(', ')}` }), (d) =>
        DEGREE_LEVELS.indexOf(d),
      )
        .optional()
        .meta({ description: `The highest degree, in the order ${DEGREE_LEVELS.join(' < ')}` }),
      languages: z
        .strictObject(
          { all: names('filters.languages.all').optional(), any: names('filters.languages.any').optional() },
          { error: 'filters.languages must be an object with all and/or any' },
        )
        .refine((l) => l.all ?? l.any, atLeastOne('filters.languages', 'all, any'))
        .optional()
        .meta({ description: 'Languages the CV names, case aside: all of `all`, at least one of `any`' }),
      documentDate: ordered('filters.documentDate', monthYear('filters.documentDate'), monthsOf)
        .optional()
        .meta({ description: 'MM-YYYY bounds on the date given at upload, inclusive' }),
      documentIds: documentIds('filters.documentIds')
        .optional()
        .meta({ description: `Only these documents (at most ${MAX_FILTER_DOCUMENT_IDS} ids)` }),
      excludeDocumentIds: documentIds('filters.excludeDocumentIds')
        .optional()
        .meta({ description: `Not these documents (at most ${MAX_FILTER_DOCUMENT_IDS} ids)` }),
    },
    { error: 'filters must be an object' },
  )
  .meta({ id: 'SearchFilters', description: 'Conditions every result meets, applied inside each retrieval before its top_k' });
export type SearchFilters = z.infer<typeof SearchFilters>;

/** A `MM-YYYY` date as months since year 0, the order documentDate filters compare in. */
export const monthIndex = monthsOf;
