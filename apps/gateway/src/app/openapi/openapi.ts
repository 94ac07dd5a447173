import { z } from 'zod';
import { http } from '@cs/contracts';

type Schema = Record<string, unknown>;
const json = (schema: z.ZodType): Schema => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const body = (schema: Schema) => ({ required: true, content: { 'application/json': { schema } } });
const answer = (description: string, schema: Schema = { type: 'object' }) => ({ description, content: { 'application/json': { schema } } });
const errors = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), s === 429 ? { $ref: '#/components/responses/RateLimited' } : answer(ERROR_TEXT[s] ?? 'Error', ref('Error'))]));
const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid request: the message names the field and the rule',
  401: 'Missing or invalid X-API-Key',
  404: 'Not found, or not your company’s',
  405: 'Method not allowed on this path; Allow lists the methods it serves',
  409: 'Conflict with the current state',
  410: 'Expired',
  413: 'Too large',
  415: 'Unsupported media type, or bytes that do not match it',
  422: 'Understood but unusable (for example a URL that serves HTML)',
  500: 'Server error; retry after a few seconds',
};
const pageParams = (maxLimit: number, defaultLimit: number, maxOffset: number, what: string) => [
  { name: 'limit', in: 'query', description: `${what} a page`, schema: { type: 'integer', minimum: 1, maximum: maxLimit, default: defaultLimit } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, maximum: maxOffset, default: 0 } },
  { name: 'include', in: 'query', description: 'extractedText: add each CV’s whole text to its result items', schema: { type: 'string', enum: ['extractedText'] } },
];
const uuidPath = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
const listParams = (statuses: string[]) => [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
  { name: 'status', in: 'query', schema: { type: 'string', enum: statuses } },
];

const searchCreate = (type: string) => ({
  post: {
    tags: ['Searches'],
    summary: `Start a ${type} search`,
    requestBody: body(json(http.createSearchBody)),
    responses: { '202': answer('Accepted; poll statusUrl', ref('SearchCreated')), ...errors(400, 401, 409, 413, 415, 429, 500) },
  },
});
const uploadAccepted = { '201': answer('New document, queued for processing', ref('UploadAccepted')), '200': answer('Same bytes as an existing document (duplicate: true)', ref('UploadAccepted')) };

/** The OpenAPI 3.1 document of the public API, served at /openapi.json and /docs. */
export function buildOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Candidate Search API',
      version: '1.0.0',
      description: 'Search a company’s CVs four ways (dense, sparse, hybrid, builtin-rerank) as asynchronous jobs, and compare them in search groups.',
    },
    servers: [{ url: '/' }],
    security: [{ ApiKey: [] }],
    tags: [{ name: 'Searches' }, { name: 'Search groups' }, { name: 'Documents' }],
    paths: {
      '/v1/public/searches/dense': searchCreate('dense'),
      '/v1/public/searches/sparse': searchCreate('sparse'),
      '/v1/public/searches/hybrid': searchCreate('hybrid'),
      '/v1/public/searches/builtin-rerank': searchCreate('builtin-rerank'),
      '/v1/public/searches/{searchId}': {
        get: { tags: ['Searches'], summary: 'Search status', parameters: [uuidPath('searchId')], responses: { '200': answer('Current state', ref('SearchStatus')), ...errors(400, 401, 404, 429, 500) } },
      },
      '/v1/public/searches/{searchId}/results': {
        get: { tags: ['Searches'], summary: 'Results of a completed search', parameters: [uuidPath('searchId'), ...pageParams(100, 100, 99, 'Results')], responses: { '200': answer('Ranked CVs', ref('SearchResults')), ...errors(400, 401, 404, 409, 429) } },
      },
      '/v1/public/searches/groups': {
        get: { tags: ['Search groups'], summary: 'List search groups, newest first', parameters: listParams(['initiated', 'processing', 'completed', 'failed']), responses: { '200': answer('A page of groups'), ...errors(400, 401, 429) } },
      },
      '/v1/public/searches/groups/{searchGroupId}': {
        get: { tags: ['Search groups'], summary: 'Group status', parameters: [uuidPath('searchGroupId')], responses: { '200': answer('Group and its searches'), ...errors(400, 401, 404, 429) } },
      },
      '/v1/public/searches/groups/{searchGroupId}/results': {
        get: {
          tags: ['Search groups'],
          summary: 'Results of every search in a group, with a comparison',
          parameters: [uuidPath('searchGroupId'), ...pageParams(20, 20, 100, 'Searches (each with all its results)')],
          responses: { '200': answer('All searches finished'), '202': answer('Some searches still run; results so far'), ...errors(400, 401, 404, 429) },
        },
      },
      '/v1/public/documents/upload-direct': {
        post: {
          tags: ['Documents'],
          summary: 'Upload a CV file as the raw request body',
          parameters: [
            { name: 'documentName', in: 'query', required: true, schema: { type: 'string' } },
            { name: 'documentDate', in: 'query', required: true, schema: { type: 'string', pattern: '^(0[1-9]|1[0-2])-\\d{4}$' } },
            { name: 'documentType', in: 'query', schema: { type: 'string', default: 'cv' } },
            { name: 'fileName', in: 'query', schema: { type: 'string' } },
          ],
          requestBody: {
            required: true,
            content: Object.fromEntries(['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/msword', 'text/plain'].map((t) => [t, { schema: { type: 'string', format: 'binary' } }])),
          },
          responses: { ...uploadAccepted, ...errors(400, 401, 413, 415, 429) },
        },
      },
      '/v1/public/documents/upload-presigned': {
        post: { tags: ['Documents'], summary: 'Get a presigned PUT URL (valid one hour)', requestBody: body(json(http.presignedUploadBody)), responses: { '200': answer('Where to PUT the bytes'), ...errors(400, 401, 413, 415, 429) } },
      },
      '/v1/public/documents/upload-presigned/{uploadId}': {
        get: { tags: ['Documents'], summary: 'Verify an upload', parameters: [uuidPath('uploadId')], responses: { '200': answer('pending, uploaded, finalized or expired'), ...errors(400, 401, 404, 429) } },
      },
      '/v1/public/documents/upload-presigned-finalize': {
        post: { tags: ['Documents'], summary: 'Turn an uploaded file into a document', requestBody: body(json(http.finalizeUploadBody)), responses: { ...uploadAccepted, ...errors(400, 401, 404, 409, 410, 415, 422, 429) } },
      },
      '/v1/public/documents/upload-from-url': {
        post: { tags: ['Documents'], summary: 'Fetch a CV from a public URL', requestBody: body(json(http.uploadFromUrlBody)), responses: { ...uploadAccepted, ...errors(400, 401, 422, 429) } },
      },
      '/v1/public/documents': {
        get: { tags: ['Documents'], summary: 'List documents, newest first', parameters: listParams(['uploading', 'pending', 'completed', 'failed', 'invalid']), responses: { '200': answer('A page of documents'), ...errors(400, 401, 429) } },
      },
      '/v1/public/documents/{documentId}': {
        get: { tags: ['Documents'], summary: 'Document details and extracted text', parameters: [uuidPath('documentId')], responses: { '200': answer('The document'), ...errors(400, 401, 404, 429) } },
        delete: { tags: ['Documents'], summary: 'Delete a document, its file and its index entries', parameters: [uuidPath('documentId')], responses: { '200': answer('What was deleted'), ...errors(400, 401, 404, 429) } },
      },
    },
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      headers: {
        'RateLimit-Limit': { schema: { type: 'integer' }, description: 'Requests allowed in the window' },
        'RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Requests left in the window' },
        'RateLimit-Reset': { schema: { type: 'integer' }, description: 'Unix time (s) when the window resets' },
        'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait' },
      },
      responses: {
        RateLimited: {
          description: 'Rate limit exceeded',
          headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
          content: { 'application/json': { schema: ref('RateLimitError') } },
        },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error', 'message'],
          properties: {
            error: { type: 'string' },
            message: { type: 'string' },
            status: { type: 'string', description: '409 on results: the search’s status' },
            searchError: { type: 'string', description: '409 on results of a failed search: why it failed' },
            errorRetryable: { type: 'boolean', description: '409 on results of a failed search: whether a new search may succeed' },
          },
        },
        RateLimitError: {
          type: 'object',
          required: ['error', 'message', 'limit', 'window', 'retryAfter'],
          properties: { error: { type: 'string' }, message: { type: 'string' }, limit: { type: 'integer' }, window: { type: 'string' }, retryAfter: { type: 'string' }, hint: { type: 'string' } },
        },
        SearchCreated: {
          type: 'object',
          properties: {
            searchId: { type: 'string', format: 'uuid' },
            searchGroupId: { type: 'string', format: 'uuid' },
            status: { const: 'processing' },
            searchType: { enum: ['dense', 'sparse', 'hybrid', 'builtin-rerank'] },
            query: { type: 'string' },
            estimatedTime: { type: 'string' },
            statusUrl: { type: 'string' },
            resultsUrl: { type: 'string' },
          },
        },
        SearchStatus: {
          type: 'object',
          properties: {
            searchId: { type: 'string', format: 'uuid' },
            searchGroupId: { type: 'string', format: 'uuid' },
            status: { enum: ['initiated', 'processing', 'completed', 'failed'] },
            query: { type: 'string' },
            searchType: { type: 'string' },
            createdAt: { type: 'string', format: 'date-time' },
            resultsCount: { type: 'integer' },
            processingTimeMs: { type: 'integer' },
            completedAt: { type: 'string', format: 'date-time' },
            resultsUrl: { type: 'string' },
            error: { type: 'string' },
            errorRetryable: { type: 'boolean' },
            estimatedCompletion: { type: 'string' },
          },
        },
        SearchResults: {
          type: 'object',
          properties: {
            searchId: { type: 'string' },
            searchGroupId: { type: 'string' },
            query: { type: 'string' },
            searchType: { type: 'string' },
            status: { type: 'string' },
            totalResults: { type: 'integer' },
            results: { type: 'array', items: ref('ResultItem') },
            pagination: ref('Pagination'),
            metadata: { type: 'object' },
          },
        },
        ResultItem: {
          type: 'object',
          properties: {
            rank: { type: 'integer' },
            documentId: { type: 'string', format: 'uuid' },
            documentName: { type: ['string', 'null'], description: 'null once the CV is deleted' },
            documentDate: { type: ['string', 'null'] },
            documentDeleted: { type: 'boolean', description: 'present (true) once the CV is deleted' },
            score: { type: 'number', minimum: 0, maximum: 1 },
            scores: { type: 'object', properties: { dense: { type: 'number' }, sparse: { type: 'number' }, fused: { type: 'number' }, rerank: { type: 'number' } } },
            highlights: { type: 'array', items: { type: 'object', properties: { text: { type: 'string' }, start: { type: 'integer' }, end: { type: 'integer' }, matches: { type: 'array' } } } },
            matchedTerms: { type: 'array', items: { type: 'string' } },
            summary: { type: ['string', 'null'] },
            contact: { type: ['object', 'null'] },
            profile: { type: ['object', 'null'] },
            extractedText: { type: ['string', 'null'], description: 'only with include=extractedText' },
          },
        },
        Pagination: {
          type: 'object',
          required: ['limit', 'offset', 'total', 'hasMore'],
          properties: { limit: { type: 'integer' }, offset: { type: 'integer' }, total: { type: 'integer' }, hasMore: { type: 'boolean' } },
        },
        UploadAccepted: {
          type: 'object',
          properties: {
            documentId: { type: 'string', format: 'uuid' },
            status: { type: 'string' },
            message: { type: 'string' },
            duplicate: { type: 'boolean' },
            file: { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer' }, sizeFormatted: { type: 'string' }, contentType: { type: 'string' } } },
            estimatedProcessingTime: { type: 'string' },
            statusEndpoint: { type: 'string' },
          },
        },
      },
    },
  };
}
