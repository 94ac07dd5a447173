import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { api, http } from '@cs/contracts';
import { ACCEPTED_TYPES } from '@cs/document-parsing';
import { isReplayable } from '../idempotency/idempotency-key';
// Real answers of a standalone service by operationId and status, written by `npm run openapi:examples`
// (scripts/capture-openapi-examples.ts): data, captured again rather than edited by hand.
import captured from './captured-examples.json';

/**
 * The OpenAPI 3.1 document of the public API, served at /openapi.json and /docs, generated from
 * the zod schemas in `libs/contracts` (requests in http.ts, answers in api.ts): the same schemas
 * the gateway validates requests with and types its answers by.
 */

const rateLimitHeaders = z.object({
  'RateLimit-Limit': z.int().meta({ description: 'Requests allowed in the window of the limit closest to exhaustion' }),
  'RateLimit-Remaining': z.int().meta({ description: 'Requests left in that window' }),
  'RateLimit-Reset': z.int().meta({ description: 'Unix time (seconds) when that window resets' }),
});
const retryAfterHeaders = rateLimitHeaders.extend({ 'Retry-After': z.int().meta({ description: 'Seconds until a retry can succeed' }) });

/** `Prefer: wait` (RFC 7240) on the search POSTs and the status GETs. */
const preferParam = z.object({
  Prefer: z.string().optional().meta({
    description:
      'wait=N (RFC 7240): hold the answer up to N seconds (0 to 30; more is read as 30) until the search (every search of a group) ends, instead of polling. A malformed wait (negative, fractional, not a number) is ignored, as RFC 7240 requires: the answer comes at once, without Preference-Applied. Past the server’s bound on waiting requests, the answer also comes at once without Preference-Applied.',
    example: 'wait=10',
  }),
});
const waitHeaders = {
  'Preference-Applied': z
    .string()
    .optional()
    .meta({ description: 'wait=N when the wait was honoured (N after capping at 30)', example: 'wait=10' }),
  Vary: z.string().meta({ description: 'Prefer (and Accept-Encoding): the answer depends on them', example: 'Prefer' }),
};
const ifNoneMatchParam = {
  'If-None-Match': z.string().optional().meta({
    description: 'The ETag of an answer you have: 304 without a body while the answer is the same',
    example: 'W/"2jmj7l5rSw0yVb_vlWAYkK_YBwk"',
  }),
};
const validatorHeaders = {
  ETag: z
    .string()
    .meta({ description: 'A weak validator of this answer’s body (send it as If-None-Match)', example: 'W/"2jmj7l5rSw0yVb_vlWAYkK_YBwk"' }),
  'Cache-Control': z.string().meta({
    description: 'private, no-cache: keep it if you like, but revalidate (If-None-Match) before using it',
    example: 'private, no-cache',
  }),
};
const notModified = (headers: Record<string, z.ZodType> = {}): ZodOpenApiResponseObject => ({
  description: 'Not modified: If-None-Match names the current ETag (no body)',
  headers: z.object({ ETag: validatorHeaders.ETag, ...headers }),
});

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request: the message names the field, parameter or header and the rule it broke',
  401: 'Missing or invalid X-API-Key (or, on the presigned PUT, a bad signature)',
  404: 'Not found, or another company’s',
  406: 'The Accept header excludes the only type this answers (text/event-stream)',
  408: 'The request headers did not arrive in time (the connection is closed)',
  409: 'Conflict with the current state',
  410: 'Expired, or its document deleted',
  413: 'Too large (from Content-Length, before reading)',
  415: 'Unsupported media type or encoding, or bytes that do not match the declared type',
  422: 'Understood but unusable (for example a URL that serves HTML)',
  431: 'Request headers over 16 KB',
  500: 'Server error; retry after a few seconds, quoting the request id',
};

/** Refused by Node's HTTP parser before any route or key is known: no RateLimit-*. */
const BEFORE_ROUTING = [408, 431];

const json = (schema: z.ZodType, examples: { examples?: Examples } = {}) => ({ 'application/json': { schema, ...examples } });

type Status = `${1 | 2 | 3 | 4 | 5}${string}`;
type Examples = Record<string, { summary: string; value: unknown }>;
const CAPTURED_EXAMPLES: Record<string, Record<string, Examples>> = captured;

/** The captured examples the build placed, so one of an operation or status the document no longer has fails it. */
const examplesUsed = new Set<string>();
function capturedExamples(operationId: string, status: string): { examples?: Examples } {
  const examples = (CAPTURED_EXAMPLES as Record<string, Record<string, Examples> | undefined>)[operationId]?.[status];
  if (!examples) return {};
  examplesUsed.add(`${operationId} ${status}`);
  return { examples };
}

/**
 * An operation's answers: its successes and errors, with their captured examples. Public answers
 * carry RateLimit-*; the presigned PUT (no API key) does not.
 */
/** An error answer of an operation, with its captured examples; RateLimit-* on public ones, except before routing. */
function errorAnswer(operationId: string, status: number, publicApi: boolean): ZodOpenApiResponseObject {
  return {
    description: ERROR_TEXT[status] ?? 'Error',
    content: json(api.ErrorBody, capturedExamples(operationId, `${status}`)),
    ...(publicApi && !BEFORE_ROUTING.includes(status) ? { headers: rateLimitHeaders } : {}),
  };
}

function answers(
  operationId: string,
  success: Record<string, ZodOpenApiResponseObject>,
  errors: number[],
  publicApi = true,
): ZodOpenApiResponsesObject {
  const headers = publicApi ? rateLimitHeaders : undefined;
  const withExamples = (status: string, response: ZodOpenApiResponseObject): ZodOpenApiResponseObject => {
    const media = response.content?.['application/json'];
    if (!media) return response;
    return { ...response, content: { 'application/json': { ...media, ...capturedExamples(operationId, status) } } };
  };
  const out: ZodOpenApiResponsesObject = {};
  for (const [status, response] of Object.entries(success)) {
    const own = response.headers instanceof z.ZodObject ? response.headers.shape : {};
    out[status as Status] = withExamples(status, { ...response, ...(headers ? { headers: headers.extend(own) } : {}) });
  }
  for (const status of [...errors, ...BEFORE_ROUTING, 500]) out[`${status}` as Status] = errorAnswer(operationId, status, publicApi);
  if (publicApi)
    out['429'] = withExamples('429', {
      description: 'A rate limit is spent: retry after Retry-After seconds',
      headers: retryAfterHeaders,
      content: json(api.RateLimitErrorBody),
    });
  return out;
}

const uuidPath = (name: string) => z.object({ [name]: z.uuid() });
const pageQuery = (maxLimit: number, defaultLimit: number, maxOffset: number) => ({
  limit: z
    .int()
    .min(1)
    .max(maxLimit)
    .default(defaultLimit)
    .meta({ description: `Items a page (1 to ${maxLimit})` }),
  offset: z.int().min(0).max(maxOffset).default(0),
});
const includeParam = z
  .literal('extractedText')
  .optional()
  .meta({ description: 'extractedText: add each CV’s whole text to its result items' });
const listQuery = (statuses: readonly [string, ...string[]]) =>
  z.object({ ...pageQuery(100, 20, 1_000_000_000), status: z.enum(statuses).optional() });
const CV_TYPES = [
  'application/pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/msword',
  'text/plain',
];
const fileBody = {
  required: true,
  content: Object.fromEntries(CV_TYPES.map((t) => [t, { schema: z.string().meta({ format: 'binary' }) }])),
};
const uploadAccepted = {
  '201': { description: 'A new document, queued for processing', content: json(api.UploadAccepted) },
  '200': {
    description: 'These exact bytes were uploaded before: the existing document (duplicate: true)',
    content: json(api.UploadAccepted),
  },
};

const idempotencyKeyParam = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional()
    .meta({
      description:
        'Makes a retry of this POST safe: 1 to 255 visible ASCII characters (a UUID, say), new for each request. For 24 hours, a request with the same key and the same method, path, query, Content-Type and body gets the first one’s answer again (with Idempotent-Replayed: true) and creates nothing; another request with the key is a 422 idempotency_key_reused, and the same one while the first is still running a 409 idempotency_key_in_use with Retry-After: 1. 2xx and 4xx answers are kept, except 401, 408 and 429; after a 5xx the key is free again. Keys are per company.',
      example: '8e03978e-40d5-43e8-bc93-6894a57f9324',
    }),
});
const replayedHeader = {
  'Idempotent-Replayed': z.literal('true').optional().meta({
    description: 'Sent (true) when this is the stored answer to an earlier request with the same Idempotency-Key: nothing ran again',
  }),
};
const IDEMPOTENCY_ERRORS: Record<number, string> = {
  409: 'or idempotency_key_in_use: a request with the same Idempotency-Key is still running (retry after Retry-After: 1 second)',
  422: 'or idempotency_key_reused: the Idempotency-Key was used for another request (another path, query or body)',
};

/**
 * Every POST takes an Idempotency-Key: its parameter, the Idempotent-Replayed header on the
 * answers a retry may get again, and the 409 and 422 the key adds. Applied to the paths as a
 * whole, so a POST added later is covered without being told.
 */
function withIdempotencyKeys(paths: ZodOpenApiPathsObject): ZodOpenApiPathsObject {
  const idempotent = (op: ZodOpenApiOperationObject): ZodOpenApiOperationObject => {
    const responses: ZodOpenApiResponsesObject = { ...op.responses };
    for (const status of [409, 422])
      if (!responses[`${status}` as Status]) responses[`${status}` as Status] = errorAnswer(op.operationId ?? '', status, true);
    for (const [status, response] of Object.entries(responses)) {
      const code = Number(status);
      if (!Number.isInteger(code) || !isReplayable(code) || BEFORE_ROUTING.includes(code)) continue;
      const answer = response as ZodOpenApiResponseObject;
      const headers = answer.headers instanceof z.ZodObject ? answer.headers : z.object({});
      const extra = IDEMPOTENCY_ERRORS[code];
      responses[status as Status] = {
        ...answer,
        description: extra ? `${answer.description}; ${extra}` : answer.description,
        headers: headers.extend({
          ...replayedHeader,
          ...(code === 409 ? { 'Retry-After': z.int().optional().meta({ description: 'On idempotency_key_in_use: 1 (second)' }) } : {}),
        }),
      };
    }
    return { ...op, requestParams: { ...op.requestParams, header: idempotencyKeyParam }, responses };
  };
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [path, item.post ? { ...item, post: idempotent(item.post) } : item]),
  );
}

/**
 * Request bodies of the four search creations, written here (requests are not captured): a plain
 * query, one joining a group, and one with every kind of filter (docs/api.md, Filters). A unit
 * test parses each with the schema the gateway validates bodies with.
 */
export const SEARCH_BODY_EXAMPLES: Examples = {
  query: { summary: 'A query and how many results', value: { query: 'accountant with general ledger and month-end close', top_k: 20 } },
  inGroup: {
    summary: 'Joining the group of an earlier search, to compare their results',
    value: {
      query: 'accountant with general ledger and month-end close',
      top_k: 20,
      searchGroupId: '0b1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00',
    },
  },
  filtered: {
    summary: 'Only CVs that pass filters: skills, experience, seniority, domain, place, degree, languages, date and ids',
    value: {
      query: 'backend engineer, distributed systems',
      top_k: 20,
      filters: {
        skills: { all: ['java', 'k8s'], any: ['aws', 'gcp'], none: ['php'] },
        experienceYears: { gte: 5, lte: 15 },
        seniority: ['senior', 'lead'],
        domain: ['Software engineering'],
        location: { near: 'Austin, TX', radiusKm: 50 },
        degree: { gte: 'bachelor' },
        languages: { all: ['spanish'] },
        documentDate: { gte: '01-2024', lte: '12-2026' },
        excludeDocumentIds: ['6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11'],
      },
    },
  },
  filteredByPlace: {
    summary: 'CVs in a region of a country, with some years of experience',
    value: {
      query: 'registered nurse, intensive care',
      filters: { location: { region: 'Texas', country: 'United States' }, experienceYears: { gte: 3 } },
    },
  },
};

export const SIMILAR_BODY_EXAMPLES: Examples = {
  plain: { summary: 'The 20 CVs most like one of yours', value: { documentId: '6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11' } },
  filtered: {
    summary: 'More like this, among senior CVs near Austin, with facets',
    value: {
      documentId: '6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11',
      top_k: 10,
      filters: { seniority: ['senior', 'lead'], location: { near: 'Austin, TX', radiusKm: 50 } },
      facets: ['skills', 'seniority'],
    },
  },
};

export const MATCH_BODY_EXAMPLES: Examples = {
  posting: {
    summary: 'A job posting’s text: its criteria are read from it, and returned',
    value: {
      jobDescription:
        'Staff Accountant\n\nRequirements\n- Bachelor’s degree in accounting\n- 2+ years of general ledger accounting and month-end close\n- Journal entries and balance sheet reconciliations\n\nNice to have\n- CPA\n- QuickBooks',
      top_k: 10,
    },
  },
  uploadedPosting: {
    summary: 'A job posting uploaded with kind "job" (PDF, DOCX, DOC or text), read as a posting’s text is',
    value: { jobDescriptionDocumentId: '0c3e8a52-7d1f-4b9e-a5c4-2e6f9d1b3a77', top_k: 10 },
  },
  editedCriteria: {
    summary: 'Criteria as a match search returned them, edited, with the requirements as filters',
    value: {
      criteria: {
        title: 'Staff Accountant',
        summary: 'Own part of the month-end close for three operating entities.',
        skills: {
          required: [
            { name: 'general ledger', weight: 1 },
            { name: 'reconciliations', weight: 1 },
          ],
          preferred: [{ name: 'CPA', weight: 0.5 }],
        },
        experienceYears: { min: 2 },
        seniority: null,
        location: { place: 'Austin, Texas, United States', radiusKm: 50 },
        degree: { min: 'bachelor' },
        languages: [],
      },
      strict: true,
      filters: { excludeDocumentIds: ['6f1c2c6e-0d1b-4c57-9a8e-2f1e7c1b8a11'] },
      facets: ['skills'],
    },
  },
};

function searchCreation(
  type: string,
  operationId: string,
  body: { schema: z.ZodType; examples: Examples; notFound?: boolean } = { schema: http.createSearchBody, examples: SEARCH_BODY_EXAMPLES },
): ZodOpenApiOperationObject {
  return {
    operationId,
    tags: ['Searches'],
    summary: `Start a ${type} search`,
    requestParams: { header: preferParam },
    requestBody: { required: true, content: json(body.schema, { examples: body.examples }) },
    responses: answers(
      operationId,
      {
        '202': {
          description:
            'Accepted: poll statusUrl (or wait on it, or stream its events), then fetch resultsUrl. With Prefer: wait, the search did not end within the wait.',
          content: json(api.SearchCreated),
          headers: z.object(waitHeaders),
        },
        '200': {
          description: 'With Prefer: wait, the search ended within the wait: its status (completed or failed), as GET statusUrl answers',
          content: json(api.SearchStatus),
          headers: z.object(waitHeaders),
        },
      },
      body.notFound ? [400, 401, 404, 409, 413, 415] : [400, 401, 409, 413, 415],
    ),
  };
}

export function buildOpenApiDocument(): ReturnType<typeof createDocument> {
  examplesUsed.clear();
  const document = createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Candidate Search API',
      version: '1.0.0',
      description:
        'Search a company’s CVs four ways (dense, sparse, hybrid, builtin-rerank), or for the CVs most like one of them (similar), or against a job posting’s criteria (match), as asynchronous jobs, and compare them in search groups. Errors are `{error, message}` with a stable code; every /v1/public answer carries RateLimit-*. What requests no operation serves get (404, 405 with Allow) is under x-unmatched-requests. The examples are real answers.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This service' }],
    security: [{ ApiKey: [] }],
    tags: [
      { name: 'Searches', description: 'Start searches and read their status and results' },
      { name: 'Search groups', description: 'Searches that share a searchGroupId, side by side' },
      { name: 'Documents', description: 'Upload, read, list and delete CVs' },
      { name: 'Shortlists', description: 'Named lists of a company’s CVs, each with a note, exported as CSV' },
      { name: 'Saved searches', description: 'Searches kept by name and run again as CVs are read, with the CVs new to their first page' },
    ],
    components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
    paths: withIdempotencyKeys({
      '/v1/public/searches/dense': { post: searchCreation('dense (meaning)', 'createDenseSearch') },
      '/v1/public/searches/sparse': { post: searchCreation('sparse (BM25 keywords)', 'createSparseSearch') },
      '/v1/public/searches/hybrid': { post: searchCreation('hybrid (both, fused and reranked)', 'createHybridSearch') },
      '/v1/public/searches/builtin-rerank': {
        post: searchCreation('builtin-rerank (dense, rescored by our reranker)', 'createBuiltinRerankSearch'),
      },
      '/v1/public/searches/similar': {
        post: searchCreation(
          'similar (more like one of your CVs: 404 for a document that is not yours, 409 for one not yet read)',
          'createSimilarSearch',
          {
            schema: http.createSimilarSearchBody,
            examples: SIMILAR_BODY_EXAMPLES,
            notFound: true,
          },
        ),
      },
      '/v1/public/searches/match': {
        post: searchCreation(
          'match (CVs ranked against a job posting’s criteria, with the criteria each meets and misses; for jobDescriptionDocumentId, 404 for a document that is not yours, 409 for a posting not yet read)',
          'createMatchSearch',
          {
            schema: http.createMatchSearchBody,
            examples: MATCH_BODY_EXAMPLES,
            notFound: true,
          },
        ),
      },
      '/v1/public/searches/{searchId}': {
        get: {
          operationId: 'getSearch',
          tags: ['Searches'],
          summary: 'A search’s status',
          requestParams: { path: uuidPath('searchId'), header: preferParam.extend(ifNoneMatchParam) },
          responses: answers(
            'getSearch',
            {
              '200': {
                description: 'The fields that apply to its status (with Prefer: wait, once it ended or the wait is over)',
                content: json(api.SearchStatus),
                headers: z.object({ ...validatorHeaders, ...waitHeaders }),
              },
              '304': notModified(waitHeaders),
            },
            [400, 401, 404],
          ),
        },
      },
      '/v1/public/searches/{searchId}/events': {
        get: {
          operationId: 'streamSearchEvents',
          tags: ['Searches'],
          summary: 'Server-sent events of a search’s status, until it ends',
          description:
            'A text/event-stream: `retry:` first, then an event `status` (id: the state’s ordinal, 1 initiated, 2 processing, 3 completed or failed; data: the status as GET /v1/public/searches/{searchId} answers it) for the current state unless Last-Event-ID says the client has it, then one per change. The server closes the stream after the final state, after 10 minutes (reconnect with Last-Event-ID), or when it shuts down. A comment line every 15 s keeps it alive. An Accept that excludes text/event-stream is a 406; too many streams open is a 429 (window `open at once`).',
          requestParams: {
            path: uuidPath('searchId'),
            header: z.object({
              'Last-Event-ID': z
                .string()
                .optional()
                .meta({ description: 'The id of the last event received (1, 2 or 3); any other value is read as none', example: '2' }),
            }),
          },
          responses: answers(
            'streamSearchEvents',
            {
              '200': {
                description: 'The stream of status events',
                content: {
                  'text/event-stream': {
                    schema: z.string().meta({
                      example:
                        'retry: 3000\n\nid: 2\nevent: status\ndata: {"searchId":"…","status":"processing",…}\n\nid: 3\nevent: status\ndata: {"searchId":"…","status":"completed",…}\n\n',
                    }),
                  },
                },
              },
              '204': {
                description: 'Last-Event-ID names the search’s final state: nothing more will come (an EventSource stops reconnecting)',
              },
            },
            [400, 401, 404, 406],
          ),
        },
      },
      '/v1/public/searches/{searchId}/results': {
        get: {
          operationId: 'getSearchResults',
          tags: ['Searches'],
          summary: 'A page of a completed search’s results, best first',
          requestParams: {
            path: uuidPath('searchId'),
            query: z.object({
              limit: z
                .int()
                .min(1)
                .max(100)
                .optional()
                .meta({
                  description: `Results a page: up to 100 (the default), or up to ${http.MAX_RESULTS_WITH_TEXT} (the default) with include=extractedText`,
                }),
              offset: z.int().min(0).max(99).default(0),
              include: includeParam,
            }),
            header: z.object(ifNoneMatchParam),
          },
          responses: answers(
            'getSearchResults',
            {
              '200': { description: 'Ranked CVs', content: json(api.SearchResults), headers: z.object(validatorHeaders) },
              '304': notModified(),
            },
            [400, 401, 404, 409],
          ),
        },
      },
      '/v1/public/searches/groups': {
        get: {
          operationId: 'listSearchGroups',
          tags: ['Search groups'],
          summary: 'Search groups, newest first',
          requestParams: { query: listQuery(['initiated', 'processing', 'completed', 'failed']) },
          responses: answers('listSearchGroups', { '200': { description: 'A page of groups', content: json(api.GroupList) } }, [400, 401]),
        },
      },
      '/v1/public/searches/groups/{searchGroupId}': {
        get: {
          operationId: 'getSearchGroup',
          tags: ['Search groups'],
          summary: 'A group and its searches',
          requestParams: { path: uuidPath('searchGroupId'), header: preferParam.extend(ifNoneMatchParam) },
          responses: answers(
            'getSearchGroup',
            {
              '200': {
                description: 'The group (with Prefer: wait, once no search of it runs or the wait is over)',
                content: json(api.GroupStatus),
                headers: z.object({ ...validatorHeaders, ...waitHeaders }),
              },
              '304': notModified(waitHeaders),
            },
            [400, 401, 404],
          ),
        },
      },
      '/v1/public/searches/groups/{searchGroupId}/results': {
        get: {
          operationId: 'getSearchGroupResults',
          tags: ['Search groups'],
          summary: 'A page of a group’s searches with their results, and their comparison',
          requestParams: {
            path: uuidPath('searchGroupId'),
            query: z.object(pageQuery(20, 20, http.MAX_GROUP_SEARCHES)),
            header: z.object(ifNoneMatchParam),
          },
          responses: answers(
            'getSearchGroupResults',
            {
              '200': {
                description: 'No search of the group is still running',
                content: json(api.GroupResults),
                headers: z.object(validatorHeaders),
              },
              '202': {
                description: 'Some still run: the results so far',
                content: json(api.GroupResults),
                headers: z.object(validatorHeaders),
              },
              '304': notModified(),
            },
            [400, 401, 404],
          ),
        },
      },
      '/v1/public/documents/upload-direct': {
        post: {
          operationId: 'uploadDocument',
          tags: ['Documents'],
          summary: 'Upload a CV file as the raw request body (at most 10 MB)',
          requestParams: {
            query: z.object({
              documentName: z.string().min(1).max(255),
              documentDate: z
                .string()
                .regex(/^(0[1-9]|1[0-2])-(19|20)\d\d$/)
                .meta({ example: '03-2024' }),
              documentType: z
                .string()
                .regex(/^[a-z][a-z0-9-]{0,31}$/)
                .default('cv')
                .meta({ description: 'A label of the client’s, kept and shown as given' }),
              kind: api.DocumentKind.default('cv'),
              fileName: z.string().min(1).max(255).optional(),
            }),
          },
          requestBody: fileBody,
          responses: answers('uploadDocument', uploadAccepted, [400, 401, 413, 415]),
        },
      },
      '/v1/public/documents/upload-presigned': {
        post: {
          operationId: 'createPresignedUpload',
          tags: ['Documents'],
          summary: 'A URL to PUT a file to (valid one hour)',
          requestBody: { required: true, content: json(http.presignedUploadBody) },
          responses: answers(
            'createPresignedUpload',
            { '200': { description: 'Where and how to PUT the bytes', content: json(api.PresignedUpload) } },
            [400, 401, 413, 415],
          ),
        },
      },
      '/v1/public/documents/upload-presigned/{uploadId}': {
        get: {
          operationId: 'getPresignedUpload',
          tags: ['Documents'],
          summary: 'Whether the bytes of a presigned upload arrived',
          requestParams: { path: uuidPath('uploadId') },
          responses: answers(
            'getPresignedUpload',
            { '200': { description: 'pending, uploaded, finalized or expired', content: json(api.UploadVerification) } },
            [400, 401, 404],
          ),
        },
      },
      '/v1/public/documents/upload-presigned-finalize': {
        post: {
          operationId: 'finalizePresignedUpload',
          tags: ['Documents'],
          summary: 'Turn a presigned upload’s file into a document',
          requestBody: { required: true, content: json(http.finalizeUploadBody) },
          responses: answers('finalizePresignedUpload', uploadAccepted, [400, 401, 404, 409, 410, 413, 415, 422]),
        },
      },
      '/v1/public/documents/upload-from-url': {
        post: {
          operationId: 'uploadDocumentFromUrl',
          tags: ['Documents'],
          summary: 'Fetch a CV from a public http(s) URL (10 MB, 15 s, 3 redirects at most)',
          requestBody: { required: true, content: json(http.uploadFromUrlBody) },
          responses: answers('uploadDocumentFromUrl', uploadAccepted, [400, 401, 413, 415, 422]),
        },
      },
      '/v1/public/documents': {
        get: {
          operationId: 'listDocuments',
          tags: ['Documents'],
          summary: 'Documents, newest first (or by name or status), without their text',
          requestParams: {
            query: listQuery(['uploading', 'pending', 'completed', 'failed', 'invalid']).extend({
              kind: api.DocumentKind.optional().meta({ description: 'Only CVs, or only job postings' }),
              sort: z
                .enum(http.DOCUMENT_SORTS)
                .default('-createdAt')
                .meta({ description: 'By upload time, name or status; `-` first reverses (newest, Z to A). Ties: newest first' }),
              name: z
                .string()
                .min(1)
                .max(200)
                .optional()
                .meta({ description: 'Only documents whose name, or the candidate’s name read from them, holds this (any case)' }),
            }),
          },
          responses: answers(
            'listDocuments',
            { '200': { description: 'A page of documents', content: json(api.DocumentList) } },
            [400, 401],
          ),
        },
      },
      '/v1/public/documents/{documentId}': {
        get: {
          operationId: 'getDocument',
          tags: ['Documents'],
          summary: 'A document, what was read from it, and its text',
          requestParams: { path: uuidPath('documentId') },
          responses: answers('getDocument', { '200': { description: 'The document', content: json(api.Document) } }, [400, 401, 404]),
        },
        delete: {
          operationId: 'deleteDocument',
          tags: ['Documents'],
          summary: 'Delete a document, its file and its index entries (before answering)',
          requestParams: { path: uuidPath('documentId') },
          responses: answers(
            'deleteDocument',
            { '200': { description: 'What was deleted', content: json(api.DocumentDeleted) } },
            [400, 401, 404],
          ),
        },
      },
      '/v1/public/documents/{documentId}/file': {
        get: {
          operationId: 'getDocumentFile',
          tags: ['Documents'],
          summary: 'The document’s file as uploaded, to show in a page',
          requestParams: { path: uuidPath('documentId'), header: z.object(ifNoneMatchParam) },
          responses: answers(
            'getDocumentFile',
            {
              '200': {
                description:
                  'The bytes as uploaded, typed as the upload was accepted (`Content-Disposition: inline` with the file’s name; never sniffed, and sandboxed by `Content-Security-Policy`). The ETag is the file’s content hash.',
                headers: z.object({
                  ...validatorHeaders,
                  'Content-Disposition': z.string().meta({ example: 'inline; filename="cv.pdf"' }),
                }),
                content: Object.fromEntries(
                  Object.values(ACCEPTED_TYPES).map((type) => [type, { schema: z.string().meta({ format: 'binary' }) }]),
                ),
              },
              '304': notModified(),
            },
            [400, 401, 404],
          ),
        },
      },
      '/v1/public/shortlists': {
        post: {
          operationId: 'createShortlist',
          tags: ['Shortlists'],
          summary: `A new empty shortlist (a company keeps at most ${http.MAX_SHORTLISTS}; names are unique in it)`,
          requestBody: { required: true, content: json(http.createShortlistBody) },
          responses: answers(
            'createShortlist',
            {
              '201': {
                description: 'Created',
                headers: z.object({ Location: z.string().meta({ description: 'The shortlist’s URL' }) }),
                content: json(api.Shortlist),
              },
            },
            [400, 401, 409, 413, 415],
          ),
        },
        get: {
          operationId: 'listShortlists',
          tags: ['Shortlists'],
          summary: 'Shortlists, newest first, without their CVs',
          requestParams: { query: z.object(pageQuery(100, 20, 1_000_000_000)) },
          responses: answers(
            'listShortlists',
            { '200': { description: 'A page of shortlists', content: json(api.ShortlistList) } },
            [400, 401],
          ),
        },
      },
      '/v1/public/shortlists/{shortlistId}': {
        get: {
          operationId: 'getShortlist',
          tags: ['Shortlists'],
          summary: `A shortlist with its CVs (at most ${http.MAX_SHORTLIST_ITEMS}) and their notes`,
          requestParams: { path: uuidPath('shortlistId') },
          responses: answers('getShortlist', { '200': { description: 'The shortlist', content: json(api.Shortlist) } }, [400, 401, 404]),
        },
        delete: {
          operationId: 'deleteShortlist',
          tags: ['Shortlists'],
          summary: 'Delete a shortlist (its CVs stay)',
          requestParams: { path: uuidPath('shortlistId') },
          responses: answers('deleteShortlist', { '204': { description: 'Deleted' } }, [400, 401, 404]),
        },
      },
      '/v1/public/shortlists/{shortlistId}/items': {
        post: {
          operationId: 'addShortlistItem',
          tags: ['Shortlists'],
          summary: `Put a CV on the shortlist with a note (up to ${http.MAX_SHORTLIST_NOTE_CHARS} characters); a CV already on it takes the new note`,
          requestParams: { path: uuidPath('shortlistId') },
          requestBody: { required: true, content: json(http.addShortlistItemBody) },
          responses: answers(
            'addShortlistItem',
            {
              '201': { description: 'Added', content: json(api.ShortlistItem) },
              '200': { description: 'Already on the list: its note replaced', content: json(api.ShortlistItem) },
            },
            [400, 401, 404, 409, 413, 415],
          ),
        },
      },
      '/v1/public/shortlists/{shortlistId}/items/{documentId}': {
        delete: {
          operationId: 'removeShortlistItem',
          tags: ['Shortlists'],
          summary: 'Take a CV off the shortlist (the CV stays)',
          requestParams: { path: z.object({ shortlistId: z.uuid(), documentId: z.uuid() }) },
          responses: answers('removeShortlistItem', { '204': { description: 'Removed' } }, [400, 401, 404]),
        },
      },
      '/v1/public/shortlists/{shortlistId}/export': {
        get: {
          operationId: 'exportShortlist',
          tags: ['Shortlists'],
          summary:
            'The shortlist as CSV (a row a CV with its contact, profile and note), or as a ZIP of its CVs’ original files with that CSV',
          requestParams: {
            path: uuidPath('shortlistId'),
            query: z.object({ format: z.enum(http.SHORTLIST_EXPORT_FORMATS).default('csv') }),
          },
          responses: answers(
            'exportShortlist',
            {
              '200': {
                description:
                  'RFC 4180 CSV with a header row; a cell that a spreadsheet would read as a formula (=, +, -, @ first) starts with a quote',
                headers: z.object({ 'Content-Disposition': z.string().meta({ example: 'attachment; filename="Backend.csv"' }) }),
                content: {
                  'text/csv': { schema: z.string() },
                  'application/zip': {
                    schema: z.string().meta({
                      format: 'binary',
                      description:
                        '`shortlist.csv` first, then each CV’s file as uploaded, named with its place on the list (`0001 cv.pdf`)',
                    }),
                  },
                },
              },
            },
            [400, 401, 404],
          ),
        },
      },
      '/v1/public/saved-searches': {
        post: {
          operationId: 'createSavedSearch',
          tags: ['Saved searches'],
          summary: `Save a search (a company keeps at most ${http.MAX_SAVED_SEARCHES}; names are unique in it): it runs again as CVs are read, at no search quota`,
          requestBody: { required: true, content: json(http.createSavedSearchBody) },
          responses: answers(
            'createSavedSearch',
            {
              '201': {
                description: 'Saved',
                headers: z.object({ Location: z.string().meta({ description: 'The saved search’s URL' }) }),
                content: json(api.SavedSearch),
              },
            },
            [400, 401, 409, 413, 415],
          ),
        },
        get: {
          operationId: 'listSavedSearches',
          tags: ['Saved searches'],
          summary: 'Saved searches, newest first, each with how many new matches it has',
          requestParams: { query: z.object(pageQuery(100, 20, 1_000_000_000)) },
          responses: answers(
            'listSavedSearches',
            { '200': { description: 'A page of saved searches', content: json(api.SavedSearchList) } },
            [400, 401],
          ),
        },
      },
      '/v1/public/saved-searches/{savedSearchId}': {
        get: {
          operationId: 'getSavedSearch',
          tags: ['Saved searches'],
          summary: 'A saved search',
          requestParams: { path: uuidPath('savedSearchId') },
          responses: answers(
            'getSavedSearch',
            { '200': { description: 'The saved search', content: json(api.SavedSearch) } },
            [400, 401, 404],
          ),
        },
        delete: {
          operationId: 'deleteSavedSearch',
          tags: ['Saved searches'],
          summary: 'Delete a saved search and its new matches (the CVs stay)',
          requestParams: { path: uuidPath('savedSearchId') },
          responses: answers('deleteSavedSearch', { '204': { description: 'Deleted' } }, [400, 401, 404]),
        },
      },
      '/v1/public/saved-searches/{savedSearchId}/new': {
        get: {
          operationId: 'listSavedSearchNewMatches',
          tags: ['Saved searches'],
          summary:
            'The CVs read since the search was saved that entered its first page, the newest finding first; with `since`, those found after it',
          requestParams: {
            path: uuidPath('savedSearchId'),
            query: z.object({ since: z.iso.datetime({ offset: true }).optional(), ...pageQuery(100, 20, 1_000_000_000) }),
          },
          responses: answers(
            'listSavedSearchNewMatches',
            { '200': { description: 'A page of new matches', content: json(api.SavedSearchNewMatches) } },
            [400, 401, 404],
          ),
        },
      },
      '/uploads/{uploadId}': {
        put: {
          operationId: 'putPresignedUpload',
          tags: ['Documents'],
          summary: 'The presigned URL’s target in standalone mode (S3 plays it in a cluster): the file’s bytes, no API key',
          security: [],
          requestParams: {
            path: uuidPath('uploadId'),
            query: z.object({
              expires: z.string().meta({ description: 'From presignedUrl' }),
              signature: z.string().meta({ description: 'From presignedUrl' }),
            }),
          },
          requestBody: fileBody,
          responses: answers(
            'putPresignedUpload',
            { '200': { description: 'Stored: finalize the upload next', content: json(api.PresignedPutDone) } },
            [400, 401, 404, 409, 410, 413, 415],
            false,
          ),
        },
      },
    }),
  });
  const unused = Object.entries(CAPTURED_EXAMPLES).flatMap(([operationId, byStatus]) =>
    Object.keys(byStatus)
      .map((status) => `${operationId} ${status}`)
      .filter((key) => !examplesUsed.has(key)),
  );
  if (unused.length) throw new Error(`captured examples of answers the document does not have: ${unused.join(', ')}`);
  return { ...document, 'x-unmatched-requests': unmatchedRequests(document) };
}

type Document = ReturnType<typeof createDocument>;
type ResponseObject = { description: string; headers?: Record<string, unknown>; content?: unknown };

/** Requests answered 404 although some operation's path matches them (so not 405). */
type NotFound = { method: string; path: string; description: string };

/**
 * What the server answers to requests no operation serves, per prefix it routes: a path no
 * operation has is a 404; a method a path does not take is a 405 whose `Allow` names the methods
 * of every operation whose path matches (HEAD with GET), except the requests under `notFound`.
 * Both after authentication and the read limit under /v1/public, so 401 and 429 too. OpenAPI has
 * no place for these, hence an extension; its answers are copies of the operations' own, so
 * headers and bodies cannot differ.
 */
function unmatchedRequests(
  document: Document,
): Record<string, { description: string; responses: Record<string, ResponseObject>; notFound?: NotFound[] }> {
  const op = (path: string, method: 'get' | 'put') =>
    (document.paths?.[path] as Record<string, { responses: Record<string, ResponseObject> }>)[method].responses;
  const publicAnswers = op('/v1/public/documents', 'get');
  const putAnswers = op('/uploads/{uploadId}', 'put');
  const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  const allow = {
    Allow: {
      required: true,
      description: 'The methods of every operation whose path matches, comma-separated and sorted (HEAD with GET)',
      schema: { type: 'string', examples: ['GET, HEAD'] },
    },
  };
  const notServed = (headers: Record<string, unknown> | undefined) => ({
    '404': { description: 'No operation has this path', content: errorBody, ...(headers ? { headers } : {}) },
    '405': { description: 'An operation has this path, not with this method', content: errorBody, headers: { ...headers, ...allow } },
  });
  const pick = (from: Record<string, ResponseObject>, statuses: string[]) => Object.fromEntries(statuses.map((s) => [s, from[s]]));
  return {
    '/v1/public': {
      description: 'Requests under /v1/public that no operation serves (authenticated and counted against the read limit first)',
      responses: { ...pick(publicAnswers, ['400', '401', '408', '429', '431', '500']), ...notServed(publicAnswers['200'].headers) },
      notFound: [
        {
          method: 'POST',
          path: '/v1/public/searches/{searchType}',
          description:
            'A search type that does not exist: 404 naming the search types, not 405 (GET serves /v1/public/searches/{searchId}); /v1/public/searches/groups, a path of its own, keeps its 405',
        },
      ],
    },
    '/uploads': {
      description: 'Requests under /uploads that the presigned PUT does not serve',
      responses: { ...pick(putAnswers, ['400', '408', '431', '500']), ...notServed(undefined) },
    },
  };
}
