import { DomainError, JobFailure, healthV1, sparseV1 } from '@cs/contracts';
import { EncoderUnavailableError, textsFrom, type DenseClient, type RerankerClient, type SparseClient } from '@cs/ports';
import { FILTER_CASES, FILTER_CVS } from '@cs/ports/testing';
import { skillKey, type SearchFilter } from '@cs/search-filters';
import { parseKeywordQuery, parseQuery } from '@cs/text-analysis';
import { observeGrpc } from './grpc-observer';
import { addService, createClient, startGrpcServer } from './grpc-transport';
import { GrpcDenseClient, GrpcRerankerClient, GrpcSparseClient } from './service-clients';
import { addDenseService, addHealthService, addRerankerService, addSparseService } from './service-servers';

const MODEL = { id: 'onnx:tiny@0123456789ab', dimensions: 2 };
/** What the servers' ports were given last: attributes and filters must cross as they were sent. */
const received: { attributes: unknown[]; filters: unknown[]; queries: unknown[] } = { attributes: [], filters: [], queries: [] };
const ATTRIBUTES = FILTER_CVS[0].attributes!;
const FILTER = FILTER_CASES.find((c) => c.name === 'every condition at once')!.filter;
const PHRASE_FILTER = FILTER_CASES.find((c) => c.name === 'skills any: a skill of the profile or a phrase of the text')!.filter;
const dense: DenseClient & { embedMany(texts: string[]): Promise<Float32Array[]> } = {
  upsert: async (_c, _d, _t, chunks, attributes) => {
    received.attributes.push(attributes);
    return chunks.length + 1;
  },
  setAttributes: async (_c, documentId, attributes) => {
    received.attributes.push(attributes);
    return documentId === 'd1';
  },
  delete: async (companyId) => {
    if (companyId === 'missing') throw new DomainError('not_found', 'no such company');
    return 3;
  },
  search: async (companyId, query, topK, wordContexts, filter) => {
    received.filters.push(filter);
    if (query === 'slow') await new Promise((r) => setTimeout(r, 500));
    if (query === 'provider down') throw new EncoderUnavailableError('the embeddings API answered 503 three times');
    if (query === 'key refused') throw Object.assign(new Error('the embeddings API refused the key (401)'), { retryable: false });
    if (query === 'xqzzy' && !wordContexts?.has('xqzzy')) return { hits: [], noKnownWords: true, unknownWords: ['xqzzy'], model: MODEL };
    return {
      hits: [{ documentId: `${companyId}-doc`, score: 0.5, chunkIndex: -1 }].slice(0, topK),
      noKnownWords: false,
      unknownWords: [],
      model: MODEL,
    };
  },
  similar: async (companyId, documentId, topK, filter) => {
    received.filters.push(filter);
    if (documentId === 'no-vector') return { hits: [], noKnownWords: true, unknownWords: [], model: MODEL };
    return {
      hits: [{ documentId: `${companyId}-like-${documentId}`, score: 0.75, chunkIndex: -1 }].slice(0, topK),
      noKnownWords: false,
      unknownWords: [],
      model: MODEL,
    };
  },
  count: async () => 7,
  models: async () => ({ active: MODEL, next: null }),
  reindex: async (_c, _d, _t, chunks, modelId) => (modelId === MODEL.id ? chunks.length + 2 : -1),
  activateNext: async (modelId) => {
    if (modelId === MODEL.id) return MODEL;
    throw new DomainError('conflict', 'no DENSE_MODEL_NEXT is set: there is no model to switch to');
  },
  embedMany: async (texts) => texts.map(() => Float32Array.from([0.6, 0.8])),
};
const sparse: SparseClient = {
  upsert: async (_c, _d, _t, attributes) => {
    received.attributes.push(attributes);
  },
  setAttributes: async (_c, documentId, attributes) => {
    received.attributes.push(attributes);
    return documentId === 'd1';
  },
  delete: async () => 1,
  distinctiveTerms: async (_c, documentId, limit) => (documentId === 'd1' ? ['kubernet', 'terraform', 'ansibl'].slice(0, limit) : []),
  facets: async (_c, filter, fields) => {
    received.filters.push(filter);
    return { cvs: 3, fields: Object.fromEntries(fields.map((f) => [f, [{ value: `${f}-value`, count: 2 }]])) };
  },
  // The counts follow what was sent: the base's presence, then each requirement's count of skills.
  requirementCounts: async (_c, base, requirements) => ({
    meetingAll: base ? 1 : 0,
    failingOnly: requirements.map((r) => r.skills?.all.length ?? 0),
  }),
  documentsWithPhrase: async (companyId, phrase, limit) => [`${companyId}/${phrase}/${limit}`],
  search: async (_c, query, _topK, filter) => {
    received.filters.push(filter);
    received.queries.push(query);
    return [{ documentId: 'd1', score: 2.5, maxScore: 5, matchedTerms: query.parts.map((p) => p.text) }];
  },
};
// Scores follow the texts the server was sent, so a lost or reordered text shows.
const reranker: RerankerClient = {
  rerankBuiltin: async (_q, candidates, texts) => {
    const known = await texts(candidates.map((c) => c.id));
    return { provider: 'builtin', results: candidates.map((c) => ({ id: c.id, score: known.get(c.id)?.length ?? 0 })) };
  },
  // The provider names the word contexts it was sent, so a lost map shows.
  rerankExternal: async (_q, candidates, _texts, _topN, wordContexts) => ({
    provider: [...(wordContexts ?? new Map())].map(([word, context]) => `${word}=${context}`).join(',') || 'builtin',
    results: candidates.map((c) => ({ id: c.id, score: 0.5 })),
    degraded: { reason: 'provider down' },
  }),
};

describe('gRPC transport (grpc-js with protobuf-es)', () => {
  let stop: (graceMs: number) => Promise<void>;
  let address: string;
  beforeAll(async () => {
    const started = await startGrpcServer('127.0.0.1:0', (server) => {
      addDenseService(server, dense);
      addSparseService(server, sparse);
      addRerankerService(server, reranker);
      addHealthService(server, () => true);
    });
    stop = started.stop;
    address = `127.0.0.1:${started.port}`;
  });
  afterAll(() => stop(100));

  it('tells the observer of each call on both sides, with the status code, as go-grpc-prometheus counts them', async () => {
    const seen: string[] = [];
    observeGrpc({
      serverHandled: (service, method, code, seconds) => seen.push(`server ${service}/${method} ${code} ${seconds >= 0 ? 'timed' : ''}`),
      clientHandled: (service, method, code) => seen.push(`client ${service}/${method} ${code}`),
    });
    const d = new GrpcDenseClient(address, 20_000);
    try {
      await d.count('c-1');
      await d.delete('missing', 'x').catch(() => undefined);
    } finally {
      d.close();
      observeGrpc({ serverHandled: () => undefined, clientHandled: () => undefined });
    }
    const service = seen[0]?.split(' ')[1]?.split('/')[0] ?? '';
    expect(service).toMatch(/Dense/);
    expect(seen).toEqual([
      `server ${service}/Count OK timed`,
      `client ${service}/Count OK`,
      `server ${service}/Delete NOT_FOUND timed`,
      `client ${service}/Delete NOT_FOUND`,
    ]);
  });

  it('carries attributes and filters through as they were sent, and none as none', async () => {
    const d = new GrpcDenseClient(address, 20_000);
    const s = new GrpcSparseClient(address, 20_000);
    received.attributes = [];
    received.filters = [];
    try {
      await d.upsert('c1', 'd1', 'text', [], ATTRIBUTES);
      await d.upsert('c1', 'd1', 'text', []);
      expect(await d.setAttributes('c1', 'd1', ATTRIBUTES)).toBe(true);
      expect(await d.setAttributes('c1', 'd2', ATTRIBUTES)).toBe(false);
      await s.upsert('c1', 'd1', 'text', ATTRIBUTES);
      expect(await s.setAttributes('c1', 'd1', ATTRIBUTES)).toBe(true);
      await d.search('c1', 'java', 5, undefined, FILTER);
      await d.search('c1', 'java', 5);
      await d.similar('c1', 'd1', 5, FILTER);
      await s.search('c1', parseQuery('java'), 5, FILTER);
      await s.search('c1', parseQuery('java'), 5, null);
      await s.search('c1', parseQuery('java'), 5, PHRASE_FILTER);
      expect(await s.facets('c1', FILTER, ['skills', 'location'])).toEqual({
        cvs: 3,
        fields: { skills: [{ value: 'skills-value', count: 2 }], location: [{ value: 'location-value', count: 2 }] },
      });
      expect(received.attributes).toEqual([ATTRIBUTES, undefined, ATTRIBUTES, ATTRIBUTES, ATTRIBUTES, ATTRIBUTES]);
      expect(received.filters).toEqual([FILTER, null, FILTER, FILTER, null, PHRASE_FILTER, FILTER]);
      await expect(s.facets('c1', null, ['salary' as never])).rejects.toThrow(/INVALID_ARGUMENT.*salary is none of/);
      const twoSkills: SearchFilter = { skills: { all: ['go', 'rust'], any: [], none: [] } };
      expect(await s.requirementCounts('c1', FILTER, [twoSkills, { degree: { gte: 3 } }])).toEqual({ meetingAll: 1, failingOnly: [2, 0] });
      expect(await s.requirementCounts('c1', null, [])).toEqual({ meetingAll: 0, failingOnly: [] });
      await expect(
        s.requirementCounts(
          'c1',
          null,
          Array.from({ length: 65 }, () => twoSkills),
        ),
      ).rejects.toThrow(/INVALID_ARGUMENT.*at most 64 are counted/);
    } finally {
      d.close();
      s.close();
    }
  });

  it('refuses a filter that does not fit its schema as an invalid argument', async () => {
    const rpc = createClient(sparseV1.SparseService, { address, defaultTimeoutMs: 5000 });
    try {
      await expect(rpc.client.search({ companyId: 'c1', raw: 'java', parts: [], topK: 5, filterJson: '{"seniority": 3}' })).rejects.toThrow(
        /INVALID_ARGUMENT.*filter_json/,
      );
      await expect(rpc.client.search({ companyId: 'c1', raw: 'java', parts: [], topK: 5, filterJson: '{' })).rejects.toThrow(
        /INVALID_ARGUMENT.*not JSON/,
      );
    } finally {
      rpc.close();
    }
  });

  it('carries every port call through, field by field', async () => {
    const d = new GrpcDenseClient(address, 20_000);
    const s = new GrpcSparseClient(address, 20_000);
    const r = new GrpcRerankerClient(address, 20_000);
    try {
      expect(await d.upsert('c1', 'd1', 'text', [{ index: 0, text: 'text', start: 0, end: 4 }])).toBe(2);
      expect(await d.search('c1', 'java', 5)).toEqual({
        hits: [{ documentId: 'c1-doc', score: 0.5, chunkIndex: -1 }],
        noKnownWords: false,
        unknownWords: [],
        model: MODEL,
      });
      expect(await d.search('c1', 'xqzzy', 5)).toEqual({ hits: [], noKnownWords: true, unknownWords: ['xqzzy'], model: MODEL });
      expect((await d.search('c1', 'xqzzy', 5, new Map([['xqzzy', 'context words']]))).noKnownWords).toBe(false);
      expect(await d.similar('c1', 'd1', 5)).toEqual({
        hits: [{ documentId: 'c1-like-d1', score: 0.75, chunkIndex: -1 }],
        noKnownWords: false,
        unknownWords: [],
        model: MODEL,
      });
      expect((await d.similar('c1', 'no-vector', 5)).noKnownWords).toBe(true);
      expect(await s.distinctiveTerms('c1', 'd1', 2)).toEqual(['kubernet', 'terraform']);
      expect(await s.distinctiveTerms('c1', 'd9', 25)).toEqual([]);
      expect(await d.count('c1')).toBe(7);
      expect(await d.models()).toEqual({ active: MODEL, next: null });
      expect(await d.reindex('c1', 'd1', 'text', [{ index: 0, text: 'text', start: 0, end: 4 }], MODEL.id)).toBe(3);
      expect(await d.activateNext(MODEL.id)).toEqual(MODEL);
      await expect(d.activateNext('onnx:other@000000000000')).rejects.toThrow(/FAILED_PRECONDITION.*no DENSE_MODEL_NEXT is set/);
      expect(await s.documentsWithPhrase('c1', 'web shops', 2001)).toEqual(['c1/web shops/2001']);
      expect(await s.documentsWithPhrase('c1', 'web shops', 1_000_000)).toEqual(['c1/web shops/10000']);
      expect(await s.search('c1', parseQuery('general ledger, QuickBooks'), 10)).toEqual([
        { documentId: 'd1', score: 2.5, maxScore: 5, matchedTerms: ['general ledger', 'QuickBooks'] },
      ]);
      // The client reads the texts and sends them; a candidate whose text is gone is not sent.
      const texts = textsFrom(
        new Map([
          ['a', 'x'],
          ['b', 'yy'],
        ]),
      );
      const candidates = [{ id: 'a' }, { id: 'b', firstStageScore: 0.4 }, { id: 'gone' }];
      expect(await r.rerankBuiltin('q', candidates, texts, 2)).toEqual({
        provider: 'builtin',
        results: [
          { id: 'a', score: 1 },
          { id: 'b', score: 2 },
        ],
      });
      expect((await r.rerankExternal('q', candidates, texts, 2)).degraded).toEqual({ reason: 'provider down' });
      expect((await r.rerankExternal('c# dev', candidates, texts, 2, new Map([['c#', '.NET services']]))).provider).toBe(
        'c#=.NET services',
      );
    } finally {
      d.close();
      s.close();
      r.close();
    }
  });

  it('carries a keyword query’s required and excluded clauses to the service', async () => {
    const s = new GrpcSparseClient(address, 20_000);
    received.queries = [];
    try {
      const query = parseKeywordQuery('+(java OR "spring boot") -php +title:lead skill:k8s -(intern OR (junior trainee))', { skillKey });
      await s.search('c1', query, 5);
      await s.search('c1', parseQuery('java'), 5);
      expect(received.queries).toEqual([
        { raw: query.raw, parts: query.parts, required: query.required, excluded: query.excluded },
        { raw: 'java', parts: parseQuery('java').parts, required: [], excluded: [] },
      ]);
    } finally {
      s.close();
    }
  });

  it('fails a search with conditions, retryable, when the service does not say it applied them', async () => {
    const older = await startGrpcServer('127.0.0.1:0', (server) =>
      addService(server, sparseV1.SparseService, {
        upsert: async () => ({}),
        delete: async () => ({ deleted: 0 }),
        facets: async () => ({ countsJson: '{}' }),
        requirementCounts: async () => ({ meetingAll: 0, failingOnly: [] }),
        setAttributes: async () => ({ found: false }),
        search: async () => ({ hits: [{ documentId: 'd1', score: 1, maxScore: 1, matchedTerms: [] }] }),
        distinctiveTerms: async () => ({ terms: [] }),
        documentsWithPhrase: async () => ({ documentIds: [] }),
      }),
    );
    const s = new GrpcSparseClient(`127.0.0.1:${older.port}`, 20_000);
    try {
      expect(await s.search('c1', parseKeywordQuery('java', { skillKey }), 5)).toHaveLength(1);
      const failure = await s.search('c1', parseKeywordQuery('java -php', { skillKey }), 5).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(JobFailure);
      expect(failure).toMatchObject({ retryable: true, message: expect.stringContaining('+ and - clauses') });
      // Nor a filter it ignores, nor attributes it drops.
      await expect(s.search('c1', parseKeywordQuery('java', { skillKey }), 5, FILTER)).rejects.toMatchObject({
        retryable: true,
        message: expect.stringContaining('does not apply search filters'),
      });
      await expect(s.upsert('c1', 'd1', 'text', ATTRIBUTES)).rejects.toMatchObject({
        retryable: true,
        message: expect.stringContaining("does not store CVs' filter attributes"),
      });
      await s.upsert('c1', 'd1', 'text');
    } finally {
      s.close();
      await older.stop(100);
    }
  });

  it('maps a domain error to its status and back, not retryable', async () => {
    const d = new GrpcDenseClient(address, 20_000);
    await expect(d.delete('missing', 'x')).rejects.toEqual(
      new JobFailure('the dense service failed (NOT_FOUND) on Delete: no such company', false),
    );
    d.close();
  });

  it("calls a hosted encoder's outage unavailable, retryable", async () => {
    const d = new GrpcDenseClient(address, 20_000);
    await expect(d.search('c1', 'provider down', 5)).rejects.toEqual(
      new JobFailure('the dense service is unavailable on Search: the embeddings API answered 503 three times', true),
    );
    d.close();
  });

  it('calls an adapter error that no retry can help (a refused key) a failed precondition, not retryable', async () => {
    const d = new GrpcDenseClient(address, 20_000);
    await expect(d.search('c1', 'key refused', 5)).rejects.toEqual(
      new JobFailure('the dense service failed (FAILED_PRECONDITION) on Search: the embeddings API refused the key (401)', false),
    );
    d.close();
  });

  it('enforces the deadline and calls the timeout retryable', async () => {
    const d = new GrpcDenseClient(address, 100);
    const failure = await d.search('c1', 'slow', 5).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(JobFailure);
    expect((failure as JobFailure).retryable).toBe(true);
    expect((failure as JobFailure).message).toMatch(/did not answer in time/);
    d.close();
  });

  it('reports a service that is down as unavailable and retryable', async () => {
    const d = new GrpcDenseClient('127.0.0.1:1', 500);
    const failure = (await d.count('c1').catch((e: unknown) => e)) as JobFailure;
    expect(failure.retryable).toBe(true);
    d.close();
  });

  it('serves the standard health check', async () => {
    const { client, close } = createClient(healthV1.Health, { address, defaultTimeoutMs: 20_000 });
    expect((await client.check({})).status).toBe(healthV1.HealthCheckResponse_ServingStatus.SERVING);
    close();
  });
});
