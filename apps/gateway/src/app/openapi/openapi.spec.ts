import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { http } from '@cs/contracts';
import { SEARCH_TYPES } from '@cs/search-domain';
import { OpenApiCheck } from '@cs/test-services';
import capturedExamples from './captured-examples.json';
import { buildOpenApiDocument } from './openapi';

describe('the generated OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('names every operation and describes every success body with a schema (JSON, or the event stream’s text)', () => {
    const operations = Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
      Object.entries(
        item as Record<string, { operationId?: string; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>,
      ).map(([method, op]) => ({ template, method, op })),
    );
    expect(operations).toHaveLength(34);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    for (const { template, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        // 204: a stream whose client has every event; no body, by definition.
        if (!status.startsWith('2') || status === '204') continue;
        if (response.content?.['text/event-stream']) {
          expect(template).toMatch(/\/events$/);
          continue;
        }
        if (response.content?.['text/csv']) {
          expect(template).toMatch(/\/export$/);
          continue;
        }
        // A document's file: its bytes in the type the upload was accepted as.
        if (response.content?.['application/pdf']) {
          expect(template).toBe('/v1/public/documents/{documentId}/file');
          continue;
        }
        expect({ template, method, status, schema: response.content?.['application/json']?.schema ?? null }).toEqual({
          template,
          method,
          status,
          schema: expect.objectContaining({ $ref: expect.any(String) }),
        });
      }
    }
  });

  it('takes an Idempotency-Key on every POST, and says which answers can be replayed and what the key adds', () => {
    type Op = {
      operationId: string;
      parameters?: { in: string; name: string; required?: boolean }[];
      responses: Record<string, { description: string; headers?: Record<string, { required?: boolean }> }>;
    };
    const posts = Object.values(document.paths ?? {}).flatMap((item) =>
      (item as { post?: Op }).post ? [(item as { post: Op }).post] : [],
    );
    // At least these; a POST added later is covered by the same rule, and checked by the loop below.
    expect(posts.map((op) => op.operationId)).toEqual(
      expect.arrayContaining([
        'createBuiltinRerankSearch',
        'createDenseSearch',
        'createHybridSearch',
        'createPresignedUpload',
        'createSparseSearch',
        'finalizePresignedUpload',
        'uploadDocument',
        'uploadDocumentFromUrl',
      ]),
    );
    for (const op of posts) {
      const where = op.operationId;
      const key = op.parameters?.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect({ where, key: key !== undefined, required: key?.required === true }).toEqual({ where, key: true, required: false });
      expect({ where, statuses: Object.keys(op.responses) }).toEqual({ where, statuses: expect.arrayContaining(['409', '422']) });
      expect(op.responses['409'].description).toMatch(/idempotency_key_in_use/);
      expect(op.responses['422'].description).toMatch(/idempotency_key_reused/);
      expect(op.responses['409'].headers?.['Retry-After']).toBeDefined();
      expect(op.responses['409'].headers?.['Retry-After'].required).not.toBe(true);
      for (const [status, response] of Object.entries(op.responses)) {
        const replayable = /^(2|4)/.test(status) && !['401', '408', '429', '431'].includes(status);
        const replayed = response.headers?.['Idempotent-Replayed'];
        expect({ where, status, listed: replayed !== undefined, required: replayed?.required === true }).toEqual({
          where,
          status,
          listed: replayable,
          required: false,
        });
      }
    }
    const gets = Object.values(document.paths ?? {}).flatMap((item) => ((item as { get?: Op }).get ? [(item as { get: Op }).get] : []));
    expect(gets.some((op) => op.parameters?.some((p) => p.name === 'Idempotency-Key'))).toBe(false);
  });

  it('shows request bodies of every search creation, one with filters, each valid for the document and the gateway', () => {
    type Post = {
      operationId: string;
      requestBody: { content: { 'application/json': { examples?: Record<string, { value: unknown }> } } };
    };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, 'openapi');
    const creations = SEARCH_TYPES.map((type) => {
      const path = `/v1/public/searches/${type}`;
      const post = (document.paths?.[path] as { post: Post }).post;
      const pointer = `#/paths/${path.replace(/\//g, '~1')}/post/requestBody/content/application~1json/schema`;
      const body =
        type === 'similar' ? http.createSimilarSearchBody : type === 'match' ? http.createMatchSearchBody : http.createSearchBody;
      return { post, body, validate: ajv.compile({ $ref: `openapi${pointer}` }) };
    });
    for (const { post, body, validate } of creations) {
      const examples = Object.entries(post.requestBody.content['application/json'].examples ?? {});
      const where = post.operationId;
      expect({ where, filtered: examples.some(([, e]) => (e.value as { filters?: unknown }).filters !== undefined) }).toEqual({
        where,
        filtered: true,
      });
      for (const [name, { value }] of examples) {
        expect({ where, name, document: validate(value) ? [] : validate.errors }).toEqual({ where, name, document: [] });
        const parsed = body.safeParse(value);
        expect({ where, name, gateway: parsed.success ? [] : parsed.error.issues.map((i) => i.message) }).toEqual({
          where,
          name,
          gateway: [],
        });
      }
    }
  });

  describe('examples captured from a real service (npm run openapi:examples)', () => {
    type Media = { schema: unknown; examples?: Record<string, { value: unknown }> };
    const responses = Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
      Object.entries(
        item as Record<string, { operationId: string; responses: Record<string, { content?: Record<string, Media> }> }>,
      ).flatMap(([method, op]) =>
        Object.entries(op.responses).map(([status, response]) => ({
          where: `${op.operationId} ${status}`,
          pointer: `#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`,
          media: response.content?.['application/json'],
        })),
      ),
    );

    it('match the schema of the answer they illustrate', () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema(document, 'openapi');
      const problems: string[] = [];
      let checked = 0;
      for (const { where, pointer, media } of responses) {
        if (!media) continue; // a 304 or a 204 has no body
        const validate = ajv.compile({ $ref: `openapi${pointer}` });
        for (const [name, example] of Object.entries(media?.examples ?? {})) {
          checked++;
          if (!validate(example.value)) problems.push(`${where} ${name}: ${ajv.errorsText(validate.errors, { dataVar: 'example' })}`);
        }
      }
      expect(problems).toEqual([]);
      expect(checked).toBeGreaterThanOrEqual(30);
    });

    it('show every operation succeeding, and the common errors', () => {
      const withExamples = new Set(responses.filter(({ media }) => Object.keys(media?.examples ?? {}).length).map(({ where }) => where));
      // Operations whose successes have a JSON body: the event stream's is text, which no capture shows.
      const operations = new Set(
        responses.filter(({ where, media }) => media && where.includes(' 2')).map(({ where }) => where.split(' ')[0]),
      );
      const withoutSuccess = [...operations].filter((op) => ![...withExamples].some((w) => w.startsWith(`${op} 2`)));
      expect(withoutSuccess).toEqual([]);
      for (const where of [
        'getDocument 404',
        'createDenseSearch 400',
        'listDocuments 401',
        'createDenseSearch 429',
        'getSearchResults 409',
      ])
        expect(withExamples).toContain(where);
    });

    it('cannot name an answer the document does not have', () => {
      const examples: Record<string, unknown> = capturedExamples;
      examples.renamedOperation = { '200': { page: { summary: 'stale', value: {} } } };
      try {
        expect(() => buildOpenApiDocument()).toThrow(/captured examples of answers the document does not have: renamedOperation 200/);
      } finally {
        delete examples.renamedOperation;
      }
    });
  });

  describe('OpenApiCheck (what the e2e suites hold every answer to)', () => {
    const check = new OpenApiCheck(document as never);
    const limits = new Headers({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '9', 'RateLimit-Reset': '1' });
    const created = {
      searchId: '0b1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00',
      searchGroupId: '1b1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00',
      status: 'processing',
      searchType: 'dense',
      query: 'accountant',
      estimatedTime: 'under 1 second',
      statusUrl: '/v1/public/searches/0b1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00',
      resultsUrl: '/v1/public/searches/0b1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00/results',
    };

    it('accepts an answer the document describes', () => {
      const answered = new Headers([...limits, ['Vary', 'Prefer, Accept-Encoding']]);
      expect(check.problems('POST', '/v1/public/searches/dense', 202, answered, created)).toEqual([]);
    });

    it('requires the headers every answer carries, not those sent only sometimes (Preference-Applied)', () => {
      expect(check.problems('POST', '/v1/public/searches/dense', 202, limits, created).join()).toMatch(/header Vary missing/);
      expect(check.problems('POST', '/v1/public/searches/dense', 202, limits, created).join()).not.toMatch(/Preference-Applied/);
    });

    it('lets an optional header be absent (Idempotent-Replayed on a first answer)', () => {
      const first = new Headers([...limits, ['Vary', 'Prefer']]);
      expect(check.problems('POST', '/v1/public/searches/dense', 202, first, created)).toEqual([]);
      const replayed = new Headers([...first, ['Idempotent-Replayed', 'true']]);
      expect(check.problems('POST', '/v1/public/searches/dense', 202, replayed, created)).toEqual([]);
      const inUse = { error: 'idempotency_key_in_use', message: 'm' };
      expect(check.problems('POST', '/v1/public/searches/dense', 409, new Headers([...limits, ['Retry-After', '1']]), inUse)).toEqual([]);
    });

    it('refuses an unknown field, a wrong type, a missing header and an unlisted status', () => {
      expect(check.problems('POST', '/v1/public/searches/dense', 202, limits, { ...created, debug: true }).join()).toMatch(
        /additional properties/,
      );
      expect(check.problems('POST', '/v1/public/searches/dense', 202, limits, { ...created, query: 7 }).join()).toMatch(/must be string/);
      expect(check.problems('POST', '/v1/public/searches/dense', 202, new Headers(), created).join()).toMatch(
        /header RateLimit-Limit missing/,
      );
      expect(check.problems('POST', '/v1/public/searches/dense', 204, limits, null).join()).toMatch(/does not list status 204/);
    });

    it('holds requests no operation serves to x-unmatched-requests: 405 with the matching paths’ methods, else 404, and 404 where notFound says', () => {
      const error = (code: string) => ({ error: code, message: 'm' });
      const allow = (methods: string) => new Headers([...limits, ['Allow', methods]]);
      const documents = '/v1/public/documents';
      expect(check.problems('PUT', documents, 405, allow('GET, HEAD'), error('method_not_allowed'))).toEqual([]);
      expect(check.problems('PUT', documents, 405, allow('GET'), error('method_not_allowed')).join()).toMatch(/Allow is "GET"/);
      expect(check.problems('PUT', documents, 404, limits, error('not_found')).join()).toMatch(/expected 405/);
      // Two paths match: the upload's POST and the document's GET and DELETE.
      const direct = '/v1/public/documents/upload-direct';
      expect(check.problems('PUT', direct, 405, allow('DELETE, GET, HEAD, POST'), error('method_not_allowed'))).toEqual([]);
      expect(check.problems('GET', '/v1/public/nothing/here', 404, limits, error('not_found'))).toEqual([]);
      expect(check.problems('GET', '/v1/public/nothing/here', 405, allow('GET'), error('method_not_allowed')).join()).toMatch(
        /expected 404/,
      );
      expect(check.problems('GET', '/v1/public/nothing/here', 401, new Headers(), error('unauthorized')).join()).toMatch(
        /RateLimit-Limit missing/,
      );
      // A POST to a search type that does not exist is a 404, though GET serves /searches/{searchId}.
      expect(check.problems('POST', '/v1/public/searches/semantic', 404, limits, error('not_found'))).toEqual([]);
      expect(check.problems('POST', '/v1/public/searches/semantic', 405, allow('GET, HEAD'), error('method_not_allowed')).join()).toMatch(
        /notFound of \/v1\/public says 404/,
      );
      expect(check.problems('DELETE', '/v1/public/searches/semantic', 404, limits, error('not_found')).join()).toMatch(/expected 405/);
      // The groups' list is a path of its own: a POST there stays a 405.
      expect(check.problems('POST', '/v1/public/searches/groups', 405, allow('GET, HEAD'), error('method_not_allowed'))).toEqual([]);
      expect(check.problems('POST', '/v1/public/searches/x/results', 405, allow('GET, HEAD'), error('method_not_allowed'))).toEqual([]);
      expect(check.problems('GET', '/uploads/a/b', 404, new Headers(), error('not_found'))).toEqual([]);
      expect(check.problems('GET', '/uploads/x', 405, new Headers({ Allow: 'PUT' }), error('method_not_allowed'))).toEqual([]);
      expect(check.problems('GET', '/uploads/x', 429, new Headers(), error('rate_limit_exceeded')).join()).toMatch(/does not list 429/);
      expect(check.problems('GET', '/admin/v1/companies', 200, new Headers(), {}).join()).toMatch(/describes no operation/);
      expect(check.describes('/admin/v1/companies')).toBe(false);
      expect(check.describes('/V1/Public/x')).toBe(true);
    });

    it('routes as Express does: the raw path, any case; a HEAD as its GET without a body', () => {
      const page = { data: [], pagination: { limit: 20, offset: 0, total: 0, hasMore: false } };
      expect(check.problems('GET', '/V1/Public/Documents/', 200, limits, page)).toEqual([]);
      expect(check.problems('HEAD', '/v1/public/documents', 200, limits, null)).toEqual([]);
      expect(check.problems('HEAD', '/v1/public/documents', 409, limits, null).join()).toMatch(/does not list status 409/);
      // Not normalised to /v1/public/searches/dense, which Express does not route it to either.
      expect(check.problems('POST', '/v1/public/documents/../searches/dense', 404, limits, { error: 'not_found', message: 'm' })).toEqual(
        [],
      );
    });

    it('tells the groups list from a search id', () => {
      const page = { data: [], pagination: { limit: 20, offset: 0, total: 0, hasMore: false } };
      expect(check.problems('GET', '/v1/public/searches/groups?limit=20', 200, limits, page)).toEqual([]);
    });
  });
});
