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
  industries: z.array(z.string()),
  recentExpertise: z.array(z.string()),
  hasManagement: z.boolean().nullable(),
  /** Where the CV's own header places the candidate, resolved by the gazetteer; null when it states no place it knows. */
  location: GeoPlace.nullable(),
});
export type ProfileInfo = z.infer<typeof ProfileInfo>;
