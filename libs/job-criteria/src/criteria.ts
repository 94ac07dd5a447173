import { GeoPlace } from '@cs/cv-understanding/types';
import { Criterion } from '@cs/search-domain';
import { DEGREE_LEVELS, MAX_NAME_CHARS, MAX_RADIUS_KM, SENIORITY_LEVELS } from '@cs/search-filters/body';
import { SearchFilterSchema } from '@cs/search-filters/wire';
import { z } from 'zod';

/**
 * Also an entry point of its own (`@cs/job-criteria/criteria`): the records and the API's
 * contract read these shapes without the code that reads postings.
 *
 * The criteria read from a job posting, as a zod schema with its type inferred: what
 * `readJobCriteria` answers, and what a recruiter sends back after editing them, validated here.
 * Every list and string is bounded, so edited criteria cost bounded work before they are used.
 */

/** A posting's text is read up to here (the API refuses a longer one): the rest is not read. */
export const MAX_POSTING_CHARS = 20_000;
/** Most skills each list holds: read criteria keep the weightiest, edited ones are refused beyond it. */
export const MAX_SKILLS = 30;
/** Most spoken languages a posting's criteria name. */
export const MAX_LANGUAGES = 10;
/** A job title's length at most. */
export const MAX_TITLE_CHARS = 200;
/** The role's description as criteria hold it, at most: what a query holds. */
export const MAX_SUMMARY_CHARS = 500;
/** Most years of experience a posting may ask for (as filters allow). */
export const MAX_YEARS = 80;
/** A skill's weight is above 0 and at most this. */
export const MAX_WEIGHT = 10;
/** The radius around a posting's place when it states none. */
export const DEFAULT_RADIUS_KM = 50;

/** Half of a surrogate pair alone: no character, and what PostgreSQL's JSON refuses to store. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const text = (field: string, max: number) => {
  const rule = `${field} must be a text of 1 to ${max} characters, not blank, of valid Unicode and without NUL characters`;
  return z
    .string({ error: rule })
    .min(1, { error: rule })
    .max(max, { error: rule })
    .refine((s) => s.trim().length > 0 && !s.includes('\u0000') && !LONE_SURROGATE.test(s), { error: rule });
};

export const WeightedSkill = z.strictObject(
  {
    name: text('a skill name', MAX_NAME_CHARS).meta({
      description: 'The skill as the posting writes it, or as the skills vocabulary names it',
    }),
    weight: z
      .number({ error: `a skill weight must be a number above 0 and at most ${MAX_WEIGHT}` })
      .gt(0, { error: `a skill weight must be a number above 0 and at most ${MAX_WEIGHT}` })
      .max(MAX_WEIGHT, { error: `a skill weight must be a number above 0 and at most ${MAX_WEIGHT}` }),
  },
  { error: 'a skill must be an object with name and weight' },
);
export type WeightedSkill = z.infer<typeof WeightedSkill>;

const skills = (field: string) =>
  z
    .array(WeightedSkill, { error: `${field} must be an array of at most ${MAX_SKILLS} skills` })
    .max(MAX_SKILLS, { error: `${field} must be an array of at most ${MAX_SKILLS} skills` });

export const JobCriteria = z
  .strictObject(
    {
      title: text('title', MAX_TITLE_CHARS).nullable().meta({ description: "The posting's job title (its first line), or null" }),
      summary: text('summary', MAX_SUMMARY_CHARS)
        .nullable()
        .meta({
          description: `The work as the posting describes it (its description, up to ${MAX_SUMMARY_CHARS} characters), read for its meaning beside the title and the skills; null when it has none`,
        }),
      skills: z
        .strictObject(
          { required: skills('skills.required'), preferred: skills('skills.preferred') },
          { error: 'skills must be an object with required and preferred' },
        )
        .meta({ description: 'Skills the posting asks for and those it would like, each with its weight, weightiest first' }),
      experienceYears: z
        .strictObject(
          {
            min: z
              .number({ error: `experienceYears.min must be a number of years from 0 to ${MAX_YEARS}` })
              .min(0, { error: `experienceYears.min must be a number of years from 0 to ${MAX_YEARS}` })
              .max(MAX_YEARS, { error: `experienceYears.min must be a number of years from 0 to ${MAX_YEARS}` }),
          },
          { error: 'experienceYears must be an object with min, or null' },
        )
        .nullable(),
      seniority: z.enum(SENIORITY_LEVELS, { error: `seniority accepts ${SENIORITY_LEVELS.join(', ')}, or null` }).nullable(),
      location: z
        .union(
          [
            z.strictObject({
              place: text('location.place', MAX_NAME_CHARS),
              radiusKm: z
                .number({ error: `location.radiusKm must be a number of kilometres above 0 and at most ${MAX_RADIUS_KM}` })
                .gt(0, { error: `location.radiusKm must be a number of kilometres above 0 and at most ${MAX_RADIUS_KM}` })
                .max(MAX_RADIUS_KM, { error: `location.radiusKm must be a number of kilometres above 0 and at most ${MAX_RADIUS_KM}` }),
            }),
            z.strictObject({ remote: z.literal(true) }),
          ],
          { error: 'location must be {place, radiusKm}, {remote: true} or null' },
        )
        .nullable()
        .meta({ description: 'Where the work is (a place the gazetteer resolves, and a radius), remote work, or null' }),
      degree: z
        .strictObject(
          { min: z.enum(DEGREE_LEVELS, { error: `degree.min accepts ${DEGREE_LEVELS.join(', ')}` }) },
          { error: 'degree must be an object with min, or null' },
        )
        .nullable(),
      languages: z
        .array(text('a language', MAX_NAME_CHARS), { error: `languages must be an array of at most ${MAX_LANGUAGES} languages` })
        .max(MAX_LANGUAGES, { error: `languages must be an array of at most ${MAX_LANGUAGES} languages` })
        .meta({ description: 'Spoken languages the posting requires, capitalised ("Spanish")' }),
    },
    { error: 'criteria must be an object' },
  )
  .meta({
    id: 'JobCriteria',
    description: 'Criteria read from a job posting; what the posting does not say is null or empty, never guessed',
  });
export type JobCriteria = z.infer<typeof JobCriteria>;

/**
 * What a `match` search keeps of its criteria: the criteria, whether the hard ones filter
 * (`strict`), and their place as the gazetteer resolved it (null without one, or for remote work).
 */
export const SearchMatch = z.strictObject({
  /** The uploaded job posting the criteria were read from, when the search named one. */
  jobDescriptionDocumentId: z.uuid().optional(),
  criteria: JobCriteria,
  strict: z.boolean(),
  place: GeoPlace.nullable(),
  /**
   * What the requirements are counted by (`MatchOutcome.relaxations`): the client's own filters,
   * resolved, and each requirement a filter can apply, as the filter that applies it.
   */
  requirements: z
    .strictObject({
      base: SearchFilterSchema.nullable(),
      each: z.array(z.strictObject({ criterion: Criterion, filter: SearchFilterSchema })),
    })
    .optional(),
});
export type SearchMatch = z.infer<typeof SearchMatch>;
