import { JobCriteria, MAX_POSTING_CHARS } from '@cs/job-criteria/criteria';
import { SearchFilters } from '@cs/search-filters/body';
import { FACET_FIELDS } from '@cs/search-filters/facets';
import { z } from 'zod';
import { DomainError } from './errors';

/** Request shapes of the public API. Unknown fields are refused, so typos never pass. */

const range = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be an integer between ${min} and ${max}` })
    .int({ error: `${field} must be an integer between ${min} and ${max}` })
    .min(min, { error: `${field} must be an integer between ${min} and ${max}` })
    .max(max, { error: `${field} must be an integer between ${min} and ${max}` });

export const uuidSchema = (field: string) => z.uuid({ error: `${field} must be a UUID` });

/** PostgreSQL text cannot hold U+0000: a NUL in a string we store is refused here, not as a 500. */
const hasNoNul = (s: string) => !s.includes('\u0000');
const noNul = (field: string) => ({ error: `${field} must not contain NUL characters`, abort: true });

/** What every search body may carry beside what it searches with. */
const searchOptions = {
  top_k: range('top_k', 1, 100).nullish(),
  searchGroupId: uuidSchema('searchGroupId').nullish(),
  filters: SearchFilters.nullish(),
  facets: z
    .array(z.enum(FACET_FIELDS, { error: `facets accepts ${FACET_FIELDS.join(', ')}` }), {
      error: `facets must be an array of ${FACET_FIELDS.join(', ')}`,
    })
    .max(FACET_FIELDS.length, { error: `facets must be an array of ${FACET_FIELDS.join(', ')}` })
    .refine((fields) => new Set(fields).size === fields.length, { error: 'facets must not name a field twice' })
    .nullish(),
};

const searchQuery = z
  .string({ error: 'query must be a string of 1 to 500 characters' })
  .min(1, { error: 'query must be a string of 1 to 500 characters' })
  .max(500, { error: 'query must be a string of 1 to 500 characters' })
  .refine((q) => q.length === 0 || q.trim().length > 0, { error: 'query must not be blank', abort: true })
  .refine(hasNoNul, noNul('query'));

export const createSearchBody = z
  .object({
    query: searchQuery,
    rerank_top_n: range('rerank_top_n', 1, 100).nullish(),
    ...searchOptions,
  })
  .strict();
export type CreateSearchBody = z.infer<typeof createSearchBody>;

/** `similar`: the CVs most like one of the company's CVs; no query, and no reranker to size. */
export const createSimilarSearchBody = z
  .object({ documentId: z.uuid({ error: 'documentId must be the id (a UUID) of one of your CVs' }), ...searchOptions })
  .strict();
export type CreateSimilarSearchBody = z.infer<typeof createSimilarSearchBody>;

const ONE_SUBJECT =
  'a match search takes one of jobDescription (the posting’s text), jobDescriptionDocumentId (a posting uploaded with kind job) or criteria (as a match search returns them)';
/** `match`: CVs ranked against a job posting's criteria, read from its text or given (edited) as they are. */
export const createMatchSearchBody = z
  .object({
    jobDescription: z
      .string({ error: `jobDescription must be a string of 1 to ${MAX_POSTING_CHARS} characters` })
      .min(1, { error: `jobDescription must be a string of 1 to ${MAX_POSTING_CHARS} characters` })
      .max(MAX_POSTING_CHARS, { error: `jobDescription must be a string of 1 to ${MAX_POSTING_CHARS} characters` })
      .refine((q) => q.trim().length > 0, { error: 'jobDescription must not be blank', abort: true })
      .refine(hasNoNul, noNul('jobDescription'))
      .nullish(),
    jobDescriptionDocumentId: uuidSchema('jobDescriptionDocumentId').nullish(),
    criteria: JobCriteria.nullish(),
    strict: z.boolean({ error: 'strict must be true or false' }).nullish(),
    ...searchOptions,
  })
  .strict()
  .refine((body) => [body.jobDescription, body.jobDescriptionDocumentId, body.criteria].filter((s) => s != null).length === 1, {
    error: ONE_SUBJECT,
  });
export type CreateMatchSearchBody = z.infer<typeof createMatchSearchBody>;

const queryInt = (field: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${field} must be an integer between ${min} and ${max}` })
    .transform(Number)
    .pipe(range(field, min, max))
    .optional()
    .transform((v) => v ?? fallback);

export const listQuery = <const S extends readonly [string, ...string[]]>(statuses: S) =>
  z
    .object({
      limit: queryInt('limit', 1, 100, 20),
      offset: queryInt('offset', 0, 1_000_000_000, 0),
      status: z.enum(statuses, { error: `status must be one of ${statuses.join(', ')}` }).optional(),
    })
    .strict();

/** What a document is: a CV, searched as a candidate (the default), or a job posting, which match searches read. */
export const DOCUMENT_KINDS = ['cv', 'job'] as const;
const kind = z.enum(DOCUMENT_KINDS, { error: `kind must be one of ${DOCUMENT_KINDS.join(', ')}` });

/** The document list's orders: by when uploaded (newest first by default), by name, by status; `-` reverses. */
export const DOCUMENT_SORTS = ['-createdAt', 'createdAt', 'name', '-name', 'status', '-status'] as const;
export type DocumentSort = (typeof DOCUMENT_SORTS)[number];
const nameSearchRule = 'name must be 1 to 200 characters';

/** The document list's filters (a status, a kind, a name it contains) and its order. */
export const listDocumentsQuery = listQuery(['uploading', 'pending', 'completed', 'failed', 'invalid'])
  .extend({
    kind: kind.optional(),
    sort: z.enum(DOCUMENT_SORTS, { error: `sort must be one of ${DOCUMENT_SORTS.join(', ')}` }).default('-createdAt'),
    name: z
      .string({ error: nameSearchRule })
      .trim()
      .min(1, { error: nameSearchRule })
      .max(200, { error: nameSearchRule })
      .refine(hasNoNul, noNul('name'))
      .optional(),
  })
  .strict();

/** `include=extractedText`: result items carry the CV's whole text only when asked. */
const include = z
  .string()
  .regex(/^(extractedText)(,extractedText)*$/, { error: 'include must be extractedText' })
  .optional()
  .transform((v) => ({ extractedText: v !== undefined }));

/** A completed search's results, a page of them (all 100 at most by default). */
/** With CV texts (up to a million characters each) a page holds at most this many results. */
export const MAX_RESULTS_WITH_TEXT = 20;

/**
 * A completed search's results, a page of them: all 100 at most by default, or 20 with their
 * texts, so one answer stays within about 20 MB however long the CVs are.
 */
export const resultsQuery = z
  .object({
    limit: z
      .string()
      .regex(/^\d+$/, { error: 'limit must be an integer between 1 and 100' })
      .transform(Number)
      .pipe(range('limit', 1, 100))
      .optional(),
    offset: queryInt('offset', 0, 99, 0),
    include,
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.include.extractedText && q.limit !== undefined && q.limit > MAX_RESULTS_WITH_TEXT) {
      ctx.addIssue({
        code: 'custom',
        path: ['limit'],
        message: `limit must be at most ${MAX_RESULTS_WITH_TEXT} with include=extractedText`,
      });
    }
  })
  .transform((q) => ({ ...q, limit: q.limit ?? (q.include.extractedText ? MAX_RESULTS_WITH_TEXT : 100) }));
export type ResultsQuery = z.infer<typeof resultsQuery>;

/** The most searches one group holds: a comparison of the four types has room for many re-runs. */
export const MAX_GROUP_SEARCHES = 100;
/**
 * A group's results, a page of its searches (each with all its results, without CV texts: a page
 * holds up to 2,000 results; a search's results page gives texts).
 */
export const groupResultsQuery = z
  .object({ limit: queryInt('limit', 1, 20, 20), offset: queryInt('offset', 0, MAX_GROUP_SEARCHES, 0) })
  .strict();
export type GroupResultsQuery = z.infer<typeof groupResultsQuery>;

const documentName = z
  .string({ error: 'documentName is required: a string of 1 to 255 characters' })
  .trim()
  .min(1, { error: 'documentName is required: a string of 1 to 255 characters' })
  .max(255, { error: 'documentName must be at most 255 characters' })
  .refine(hasNoNul, noNul('documentName'));
const documentDate = z
  .string({ error: 'documentDate is required, as MM-YYYY' })
  .regex(/^(0[1-9]|1[0-2])-(19|20)\d\d$/, { error: 'documentDate must be MM-YYYY, for example 03-2024' });
const documentType = z
  .string({ error: 'documentType must be a string' })
  .regex(/^[a-z][a-z0-9-]{0,31}$/, { error: 'documentType must be a lowercase word such as cv' })
  .default('cv');
const fileName = z
  .string({ error: 'fileName must be a string of 1 to 255 characters' })
  .trim()
  .min(1, { error: 'fileName must be a string of 1 to 255 characters' })
  .max(255, { error: 'fileName must be a string of 1 to 255 characters' })
  .refine((n) => !/[\u0000-\u001f/\\]/.test(n), { error: 'fileName must not contain slashes or control characters' });

const uploadKind = kind.default('cv');
export const directUploadQuery = z
  .object({ documentName, documentDate, documentType, kind: uploadKind, fileName: fileName.optional() })
  .strict();
export type DirectUploadQuery = z.infer<typeof directUploadQuery>;

export const presignedUploadBody = z
  .object({
    fileName,
    contentType: z.string({ error: 'contentType must be a string' }).min(1, { error: 'contentType is required' }),
    fileSize: range('fileSize', 1, 10 * 1024 * 1024),
  })
  .strict();
export type PresignedUploadBody = z.infer<typeof presignedUploadBody>;

export const finalizeUploadBody = z
  .object({ uploadId: uuidSchema('uploadId'), documentName, documentDate, documentType, kind: uploadKind })
  .strict();
export type FinalizeUploadBody = z.infer<typeof finalizeUploadBody>;

export const uploadFromUrlBody = z
  .object({
    url: z.string({ error: 'url must be a string' }).max(2048, { error: 'url must be at most 2048 characters' }),
    documentName,
    documentDate,
    documentType,
    kind: uploadKind,
    fileName: fileName.optional(),
  })
  .strict();
export type UploadFromUrlBody = z.infer<typeof uploadFromUrlBody>;

/** How many shortlists a company keeps, and how many CVs one holds: a list is read and exported whole. */
export const MAX_SHORTLISTS = 1_000;
export const MAX_SHORTLIST_ITEMS = 1_000;
export const MAX_SHORTLIST_NOTE_CHARS = 2_000;
const nameRule = 'name must be a string of 1 to 200 characters';
/** A name a person gives (a company, a shortlist): trimmed, 1 to 200 characters. */
const givenName = z
  .string({ error: nameRule })
  .trim()
  .min(1, { error: nameRule })
  .max(200, { error: nameRule })
  .refine(hasNoNul, noNul('name'));
export const createShortlistBody = z.object({ name: givenName }).strict();
const shortlistNote = `note must be a string of at most ${MAX_SHORTLIST_NOTE_CHARS} characters, or null`;
export const addShortlistItemBody = z
  .object({
    documentId: uuidSchema('documentId'),
    note: z
      .string({ error: shortlistNote })
      .max(MAX_SHORTLIST_NOTE_CHARS, { error: shortlistNote })
      .refine(hasNoNul, noNul('note'))
      .nullish()
      .meta({ description: 'What the recruiter writes of the candidate; blank or absent is none' }),
  })
  .strict();
export type CreateShortlistBody = z.infer<typeof createShortlistBody>;
export type AddShortlistItemBody = z.infer<typeof addShortlistItemBody>;
export const listShortlistsQuery = z
  .object({ limit: queryInt('limit', 1, 100, 20), offset: queryInt('offset', 0, 1_000_000_000, 0) })
  .strict();
export const SHORTLIST_EXPORT_FORMATS = ['csv', 'zip'] as const;
export const exportShortlistQuery = z
  .object({
    format: z.enum(SHORTLIST_EXPORT_FORMATS, { error: `format must be one of ${SHORTLIST_EXPORT_FORMATS.join(', ')}` }).default('csv'),
  })
  .strict();

/** How many saved searches a company keeps (each runs again whenever its CVs arrive), and new matches each keeps, newest first. */
export const MAX_SAVED_SEARCHES = 100;
export const MAX_SAVED_SEARCH_MATCHES = 1_000;
/** A saved search's first page when it names none: a CV that arrives and ranks within it is new. */
export const DEFAULT_SAVED_SEARCH_TOP_K = 10;
export const SAVED_SEARCH_TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank'] as const;
export const createSavedSearchBody = z
  .object({
    name: givenName,
    searchType: z.enum(SAVED_SEARCH_TYPES, { error: `searchType must be one of ${SAVED_SEARCH_TYPES.join(', ')}` }),
    query: searchQuery,
    filters: SearchFilters.nullish(),
    top_k: range('top_k', 1, 100)
      .nullish()
      .meta({ description: `Its first page (default ${DEFAULT_SAVED_SEARCH_TOP_K}): a CV read later that ranks within it is a new match` }),
  })
  .strict();
export type CreateSavedSearchBody = z.infer<typeof createSavedSearchBody>;
export const listSavedSearchesQuery = listShortlistsQuery;
const sinceRule = 'since must be a date and time in ISO 8601 with its offset, as 2026-11-30T09:00:00Z';
export const savedSearchNewQuery = z
  .object({
    since: z.iso
      .datetime({ offset: true, error: sinceRule })
      .transform((value) => new Date(value))
      .optional()
      .meta({ description: 'Only the new matches found after this time: pass the newest `foundAt` seen, and none is missed' }),
    limit: queryInt('limit', 1, 100, 20),
    offset: queryInt('offset', 0, 1_000_000_000, 0),
  })
  .strict();

export const createCompanyBody = z.object({ name: givenName }).strict();
const keyPrefix = 'keyPrefix must be the first 4 to 8 characters of a key';
export const revokeKeysBody = z
  .object({
    keyPrefix: z
      .string({ error: keyPrefix })
      .min(4, { error: keyPrefix })
      .max(8, { error: keyPrefix })
      .refine(hasNoNul, noNul('keyPrefix')),
  })
  .strict();
export const setLimitBody = z.object({ limit: range('limit', 1, 1_000_000).nullable() }).strict();
/** `admin reindex --dense`: every company's CVs, or one company's. */
export const denseReindexBody = z.object({ companyId: uuidSchema('companyId').optional() }).strict();

/** One readable sentence per problem, naming the field and the rule it broke. */
function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => `unknown field "${k}"`).join('; ');
  const field = issue.path.join('.');
  if (issue.code === 'invalid_type') {
    let value: unknown = input;
    for (const key of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
    if (value === undefined && field) return `${field} is required`;
  }
  return issue.message.startsWith(field) || !field ? issue.message : `${field}: ${issue.message}`;
}

/** Parses input with a schema or throws `invalid_request` naming every problem. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what = 'request body'): z.infer<S> {
  if (input === undefined || input === null || (typeof input !== 'object' && schema instanceof z.ZodObject)) {
    throw new DomainError('invalid_request', `${what} must be a JSON object`);
  }
  if (Array.isArray(input) && schema instanceof z.ZodObject) {
    throw new DomainError('invalid_request', `${what} must be a JSON object, not an array`);
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const messages = [...new Set(result.error.issues.map((i) => describeIssue(i, input)))];
  throw new DomainError('invalid_request', messages.join('; '));
}
