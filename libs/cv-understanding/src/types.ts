import { z } from 'zod';

/**
 * What CV understanding reads from a CV, as zod schemas with their types inferred: the records
 * read a document's stored contact and profile back against them, and libs/contracts serves them.
 * Also an entry point of its own (`@cs/cv-understanding/types`): those import the shapes without
 * the code that reads CVs, its lexicons and its Node-only stemmer, which neither the services
 * that only store or serve them nor the browser console typed from libs/contracts should load.
 */

/** Who the CV is about and how to reach them; each field null when the CV does not say. */
export const ContactInfo = z.strictObject({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  linkedin: z.string().nullable(),
  location: z.strictObject({ city: z.string().nullable(), country: z.string().nullable() }).nullable(),
});
export type ContactInfo = z.infer<typeof ContactInfo>;

/** Degree levels, lowest first: the highest one a CV states as obtained is its `degree`. */
export const DEGREES = ['none', 'high-school', 'associate', 'bachelor', 'master', 'doctorate'] as const;
export type Degree = (typeof DEGREES)[number];

/**
 * A place as libs/gazetteer resolves it (its `Place`; the shape is repeated here, not imported,
 * so that the browser console typed from these schemas loads no gazetteer data).
 */
export const GeoPlace = z.strictObject({
  kind: z.enum(['city', 'region', 'country']),
  /** GeoNames' name of the city ("Austin"); null for a region or a country. */
  city: z.string().nullable(),
  region: z.string().nullable(),
  /** ISO 3166-2 subdivision code without its country ("TX"). */
  regionCode: z.string().nullable(),
  country: z.string(),
  /** ISO 3166-1 alpha-2 ("US"). */
  countryCode: z.string(),
  /** The city's point, or the region's or country's centre. */
  lat: z.number(),
  lon: z.number(),
});
export type GeoPlace = z.infer<typeof GeoPlace>;

/** What the CV says about the candidate's work; null or empty when it does not say. */
export const ProfileInfo = z.strictObject({
  domain: z.string().nullable(),
  specialization: z.string().nullable(),
  seniorityLevel: z.string().nullable(),
  experienceYears: z.number().nullable(),
  technicalStack: z.array(z.string()),
  skills: z.array(z.string()).meta({
    description:
      'Every skill of the skills vocabulary whose name (or a synonym) the CV writes, most mentioned first, as the vocabulary writes it',
  }),
  degree: z.enum(DEGREES).nullable().meta({
    description:
      "The highest degree the CV states as obtained (not one in progress); null when it states none, 'none' only where it says so",
  }),
  languages: z.array(z.string()).meta({
    description: 'Spoken languages the CV claims, English included, capitalised ("Spanish"), in the order the CV names them',
  }),
  industries: z.array(z.string()),
  recentExpertise: z.array(z.string()),
  hasManagement: z.boolean().nullable(),
  /** Where the CV's own header places the candidate, resolved by the gazetteer; null when it states no place it knows. */
  location: GeoPlace.nullable(),
});
export type ProfileInfo = z.infer<typeof ProfileInfo>;
