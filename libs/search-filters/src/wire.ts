import { z } from 'zod';
import { FACET_FIELDS, FacetCounts, type FacetField } from './facets';
import { MAX_COUNTED_REQUIREMENTS, type SearchAttributes, type SearchFilter } from './search-filter';

/**
 * Attributes and filters as JSON between services (the dense and sparse services' gRPC requests
 * carry them as strings): read back against these schemas, so a malformed one is refused at the
 * boundary, not half-applied by a store.
 */
const keys = z.array(z.string().max(200)).max(10_000);
const range = z.strictObject({ gte: z.number().optional(), lte: z.number().optional() });

export const SearchAttributesSchema = z.strictObject({
  skills: keys,
  experienceYears: z.number().nullable(),
  seniority: z.string().max(50).nullable(),
  domain: z.string().max(200).nullable(),
  degree: z.int().min(0).max(10).nullable(),
  languages: keys,
  location: z
    .strictObject({
      cityPoint: z.boolean(),
      lat: z.number().min(-90).max(90),
      lon: z.number().min(-180).max(180),
      city: z.string().max(200).nullable(),
      regionCode: z.string().max(20).nullable(),
      countryCode: z.string().max(3),
    })
    .nullable(),
  documentDate: z.int().nullable(),
}) satisfies z.ZodType<SearchAttributes>;

export const SearchFilterSchema = z.strictObject({
  skills: z
    .strictObject({
      all: keys,
      any: keys,
      none: keys,
      phrases: z.strictObject({ all: keys, any: keys, none: keys }).optional(),
      phraseHolders: z
        .array(z.strictObject({ phrase: z.string().max(200), documentIds: keys }))
        .max(1000)
        .optional(),
    })
    .optional(),
  experienceYears: range.optional(),
  seniority: keys.optional(),
  domain: keys.optional(),
  degree: range.optional(),
  languages: z.strictObject({ all: keys, any: keys }).optional(),
  location: z
    .discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('near'), lat: z.number(), lon: z.number(), radiusKm: z.number().positive() }),
      z.strictObject({
        kind: z.literal('place'),
        countryCode: z.string().max(3),
        regionCode: z.string().max(20).optional(),
        city: z.string().max(200).optional(),
      }),
    ])
    .optional(),
  documentDate: range.optional(),
  documentIds: keys.optional(),
  excludeDocumentIds: keys.optional(),
}) satisfies z.ZodType<SearchFilter>;

/** Empty for none, so that proto3's default string means "not given". */
export const attributesToJson = (attributes: SearchAttributes | undefined): string => (attributes ? JSON.stringify(attributes) : '');
export const filterToJson = (filter: SearchFilter | null | undefined): string => (filter ? JSON.stringify(filter) : '');

function read<T>(schema: z.ZodType<T>, json: string, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error(`${what} is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${what} does not fit: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Undefined for an empty string; throws naming what does not fit. */
export const attributesFromJson = (json: string): SearchAttributes | undefined =>
  json ? read(SearchAttributesSchema, json, 'attributes_json') : undefined;
export const filterFromJson = (json: string): SearchFilter | null => (json ? read(SearchFilterSchema, json, 'filter_json') : null);

/** A requirement count's filters, each required (an empty one would pass every CV), at most MAX_COUNTED_REQUIREMENTS. */
export function requirementsFromJson(json: readonly string[]): SearchFilter[] {
  if (json.length > MAX_COUNTED_REQUIREMENTS)
    throw new Error(`requirement_filters_json: ${json.length} requirements, at most ${MAX_COUNTED_REQUIREMENTS} are counted`);
  return json.map((one, i) => read(SearchFilterSchema, one, `requirement_filters_json[${i}]`));
}

/** The fields a facets request names, each one the API knows; throws naming one it does not. */
export function facetFieldsOf(fields: readonly string[]): FacetField[] {
  return fields.map((field) => {
    if (!(FACET_FIELDS as readonly string[]).includes(field)) throw new Error(`fields: ${field} is none of ${FACET_FIELDS.join(', ')}`);
    return field as FacetField;
  });
}

export const facetCountsToJson = (counts: FacetCounts): string => JSON.stringify(counts);
export const facetCountsFromJson = (json: string): FacetCounts => read(FacetCounts, json, 'counts_json');
