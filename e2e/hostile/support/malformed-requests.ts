import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { Expectation } from './invariants';
import type { HostileRequest } from './raw-http';
import { allowedMethods, fill, isOpaque, matchRoutes, type Route } from './routes';

/** What the generators need from the started service: its routes and real ids of one company. */
export interface FuzzContext {
  routes: Route[];
  key: string;
  adminToken: string;
  /** `deletable…Id` is what DELETE routes aim at, so that the others keep a live document, shortlist and saved search. */
  ids: {
    documentId: string;
    deletableDocumentId: string;
    searchId: string;
    searchGroupId: string;
    uploadId: string;
    shortlistId: string;
    deletableShortlistId: string;
    savedSearchId: string;
    deletableSavedSearchId: string;
  };
  /** A presigned upload of its own (the PUT target's fuzzing may fill it). */
  presigned: { uploadId: string; expires: string; signature: string; contentType: string };
}

export interface Generated {
  request: HostileRequest;
  expect?: Expectation;
}

type Headers = [string, string][];
const JSON_LIMIT = 64 * 1024;
/** Node's default --max-http-header-size: the request line and headers together. */
const NODE_HEADER_LIMIT = 16 * 1024;
const MAX_REQUEST = 1024 * 1024;

// ---------------------------------------------------------------- valid requests, to mutate

const FIELD_KIND: Record<string, 'text' | 'int' | 'uuid' | 'date' | 'word' | 'url' | 'mime'> = {
  query: 'text',
  top_k: 'int',
  rerank_top_n: 'int',
  searchGroupId: 'uuid',
  fileName: 'text',
  contentType: 'mime',
  fileSize: 'int',
  uploadId: 'uuid',
  documentId: 'uuid',
  documentName: 'text',
  documentDate: 'date',
  documentType: 'word',
  url: 'url',
  name: 'text',
  keyPrefix: 'text',
  limit: 'int',
  companyId: 'uuid',
  note: 'text',
  searchType: 'word',
};

/** A body each JSON route accepts as valid (one that does no outside work: the URL is refused at once). */
function baseJson(route: Route, ctx: FuzzContext): Record<string, unknown> {
  const t = route.template;
  if (t === '/v1/public/searches/similar') return { documentId: ctx.ids.documentId, top_k: 5 };
  if (t === '/v1/public/searches/match') return { jobDescription: 'Staff Accountant\n\nRequirements\n- general ledger', top_k: 5 };
  if (t.startsWith('/v1/public/searches/')) return { query: 'accountant general ledger', top_k: 5, rerank_top_n: 5 };
  if (t === '/v1/public/documents/upload-presigned') return { fileName: 'cv.txt', contentType: 'text/plain', fileSize: 120 };
  if (t === '/v1/public/documents/upload-presigned-finalize')
    return { uploadId: ctx.ids.uploadId, documentName: 'Fuzz', documentDate: '01-2024' };
  if (t === '/v1/public/documents/upload-from-url')
    return { url: 'http://10.20.30.40/cv.pdf', documentName: 'Fuzz', documentDate: '01-2024' };
  if (t === '/admin/v1/companies') return { name: 'fuzzed-company' };
  if (t === '/v1/public/shortlists') return { name: 'Fuzzed list' };
  if (t === '/v1/public/shortlists/{shortlistId}/items') return { documentId: ctx.ids.documentId, note: 'fuzzed' };
  if (t === '/v1/public/saved-searches') return { name: 'Fuzzed saved search', searchType: 'dense', query: 'accountant', top_k: 5 };
  // Never a real key's prefix: a fuzzed revoke must not cut the suite's own key.
  if (t.endsWith('/keys/revoke')) return { keyPrefix: 'zz9fuzz9' };
  if (t.endsWith('/limits/{category}')) return { limit: 7 };
  // A company that is not there: a well-formed request is a 404, and starts no reindex.
  if (t === '/admin/v1/dense/reindexes') return { companyId: '00000000-0000-4000-8000-000000000001' };
  return {};
}

const CV_TEXT =
  'Senior Accountant\nSummary\nCPA with eight years in month-end close, general ledger reconciliations and accounts payable.\n';

function pathValues(route: Route, ctx: FuzzContext): Record<string, string> {
  return {
    documentId: route.method === 'DELETE' ? ctx.ids.deletableDocumentId : ctx.ids.documentId,
    searchId: ctx.ids.searchId,
    searchGroupId: ctx.ids.searchGroupId,
    shortlistId:
      route.method === 'DELETE' && route.template === '/v1/public/shortlists/{shortlistId}'
        ? ctx.ids.deletableShortlistId
        : ctx.ids.shortlistId,
    savedSearchId:
      route.method === 'DELETE' && route.template === '/v1/public/saved-searches/{savedSearchId}'
        ? ctx.ids.deletableSavedSearchId
        : ctx.ids.savedSearchId,
    uploadId: route.auth === 'signature' ? ctx.presigned.uploadId : ctx.ids.uploadId,
    // Never the suite's own company: fuzzed limits and keys land on no one.
    companyId: '00000000-0000-4000-8000-000000000001',
    category: 'search',
    queue: 'ingestion',
    // A dead letter's id is its queue's own (a job id, or a stream sequence): not a UUID.
    id: '1',
  };
}

function requiredQuery(route: Route, ctx: FuzzContext): [string, string][] {
  if (route.auth === 'signature')
    return [
      ['expires', ctx.presigned.expires],
      ['signature', ctx.presigned.signature],
    ];
  return route.query.filter((q) => q.required).map((q) => [q.name, q.name === 'documentDate' ? '01-2024' : 'Fuzz']);
}

const qs = (pairs: [string, string][]) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : '');
const enc = (pairs: [string, string][]) => pairs.map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)] as [string, string]);

function authHeaders(route: Route, ctx: FuzzContext): Headers {
  if (route.auth === 'api-key') return [['X-API-Key', ctx.key]];
  if (route.auth === 'admin') return [['Authorization', `Bearer ${ctx.adminToken}`]];
  return [];
}

interface Parts {
  route: Route;
  path: string;
  query: [string, string][];
  headers: Headers;
  body?: Buffer;
  bodyNote?: string;
}

/** A request the route would accept, as parts the families change. */
function validParts(route: Route, ctx: FuzzContext): Parts {
  const headers = authHeaders(route, ctx);
  let body: Buffer | undefined;
  if (route.body === 'json') {
    body = Buffer.from(JSON.stringify(baseJson(route, ctx)));
    headers.push(['Content-Type', 'application/json']);
  } else if (route.body === 'file') {
    body = Buffer.from(CV_TEXT);
    headers.push(['Content-Type', route.auth === 'signature' ? ctx.presigned.contentType : 'text/plain']);
  }
  return { route, path: fill(route.template, pathValues(route, ctx)), query: enc(requiredQuery(route, ctx)), headers, body };
}

function build(parts: Parts, family: string, expect?: Expectation): Generated {
  return {
    request: {
      method: parts.route.method,
      path: parts.path + qs(parts.query),
      headers: parts.headers,
      body: parts.body,
      family,
      bodyNote: parts.bodyNote,
    },
    expect,
  };
}

const withHeader = (headers: Headers, name: string, value: string | undefined): Headers => {
  const rest = headers.filter(([k]) => k.toLowerCase() !== name.toLowerCase());
  return value === undefined ? rest : [...rest, [name, value]];
};

// ---------------------------------------------------------------- hostile values

const LONE_SURROGATES = ['\ud800', '\udfff', 'a\udc00b', '\udc00\ud800', 'x'.repeat(10) + '\ud83d'];
const odd = fc.constantFrom(
  '\u0000',
  'a\u0000b',
  '\ufeff',
  '\u202eevil',
  '\u0007\u001b[31m',
  '🎉'.repeat(50),
  'ﷺ'.repeat(40),
  ' ',
  '\n\r\t',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x/a}',
  '__proto__',
  'constructor',
  'null',
  'Ω≈ç√∫˜µ≤≥÷',
  ...LONE_SURROGATES,
);
/** Strings of every kind, bounded so that one request stays within 1 MB. */
const hostileString = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: odd, weight: 4 },
  { arbitrary: fc.integer({ min: 400, max: 70_000 }).map((n) => 'A'.repeat(n)), weight: 1 },
  { arbitrary: fc.integer({ min: 70_000, max: 900_000 }).map((n) => 'é'.repeat(Math.floor(n / 2))), weight: 1 },
);

/** A JSON value of another type than the field's, which must be a 400 naming the field. */
function wrongTyped(kind: (typeof FIELD_KIND)[string]): fc.Arbitrary<unknown> {
  const structural = fc.constantFrom<unknown>([], [1, 2], {}, { a: 1 }, true, false);
  switch (kind) {
    case 'int':
      return fc.oneof(structural, fc.constantFrom<unknown>('5', '', 1.5, -1, 0, 1e9, -1e308, 2 ** 53 + 2, 'NaN'));
    case 'uuid':
      return fc.oneof(
        structural,
        fc.constantFrom<unknown>(5, '', 'not-a-uuid', '{00000000-0000-4000-8000-000000000000}', '0000000000004000800000000000000g'),
      );
    case 'date':
      return fc.oneof(structural, fc.constantFrom<unknown>(12024, '', '13-2024', '2024-01', '1-2024', '00-2024', '01-1800', '01-2024 '));
    case 'word':
      return fc.oneof(structural, fc.constantFrom<unknown>(5, '', 'CV', '1abc', 'a b', 'x'.repeat(40)));
    case 'url':
      return fc.oneof(structural, fc.constantFrom<unknown>(5, `http://example.com/${'a'.repeat(2100)}`));
    case 'mime':
      return fc.oneof(structural, fc.constantFrom<unknown>(5, ''));
    case 'text':
      return fc.oneof(structural, fc.constantFrom<unknown>(5, '', 'a\u0000b', '\u0000'));
  }
}

/** Raw JSON tokens JSON.stringify cannot write: each makes the body invalid JSON, or a number no field takes. */
const INVALID_JSON_TOKENS = [
  '0x10',
  'NaN',
  'Infinity',
  '-Infinity',
  '01',
  '.5',
  '+1',
  '"\\uZZZZ"',
  '"tab\there"',
  "'single'",
  'undefined',
  '"unterminated',
];
const EXTREME_NUMBERS = ['1e999', '-1e999', `1${'0'.repeat(400)}`, '-0', '1e-400'];

const nested = (depth: number, kind: 'array' | 'object') =>
  kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Whole bodies that are not a JSON object of the route's shape: every one a 400 (or a 413 past 64 KB). */
/** JSON bodies of which every field is optional. */
const NO_REQUIRED_FIELDS = new Set(['/admin/v1/dense/reindexes']);

const WHOLE_BODIES = [
  '',
  '{',
  '}',
  '{"query":',
  '{"query": "a",}',
  "{'query': 'a'}",
  'null',
  'true',
  '"just a string"',
  '123',
  '[]',
  '{}',
  '[{"query":"a"}]',
  '{"query":"a"}{"query":"b"}',
  '{"query":"a"} trailing',
  '\u0000\u0000',
  '{"query":"a\u0000"', // raw NUL, unterminated
  '{"__proto__": {"admin": true}}',
  '{"constructor": {"prototype": {"admin": true}}}',
];

// ---------------------------------------------------------------- the families

type Family = (ctx: FuzzContext) => fc.Arbitrary<Generated>;

const pick = <T>(items: T[]) => fc.constantFrom(...items);
const keyRoutes = (ctx: FuzzContext) => ctx.routes.filter((r) => r.auth === 'api-key');
const jsonRoutes = (ctx: FuzzContext) => ctx.routes.filter((r) => r.body === 'json');

/** Path ids: random UUIDs, junk, huge, percent-encoded, dot segments. */
const pathIds: Family = (ctx) => {
  const routes = ctx.routes.filter((r) => /\{\w+\}/.test(r.template));
  const junk = fc.oneof(
    fc.constantFrom(
      'not-a-uuid',
      '..',
      '.',
      '...',
      '0',
      '-1',
      'null',
      'undefined',
      '%20',
      '+',
      '~',
      "!$&'()*+,;=",
      '%C3%A4%C3%B6',
      'x'.repeat(37),
    ),
    fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 60 }).map((s) => encodeURIComponent(s)),
    fc.integer({ min: 100, max: 12_000 }).map((n) => 'a'.repeat(n)),
    fc.constantFrom(ctx.ids.documentId.replace(/-/g, ''), `{${ctx.ids.documentId}}`, `${ctx.ids.documentId}x`, ctx.ids.documentId.slice(1)),
  );
  const undecodable = fc.constantFrom('%', '%zz', '%2', '%c0%af', '%ff%fe', '%00', '%E0%A4%A', '%u002e');
  const kinds = fc.oneof(
    junk.map((v) => ({ v, kind: 'junk' as const })),
    undecodable.map((v) => ({ v, kind: 'undecodable' as const })),
    fc.constantFrom('%2e%2e', '%2E%2E%2F%2E%2E', '%2F', '..%2F..%2Fadmin').map((v) => ({ v, kind: 'encoded-dots' as const })),
    fc.uuid().map((v) => ({ v, kind: 'unknown-uuid' as const })),
    fc
      .constantFrom(ctx.ids.documentId.toUpperCase(), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff')
      .map((v) => ({ v, kind: 'odd-uuid' as const })),
  );
  return fc.tuple(pick(routes), kinds).map(([route, { v, kind }]) => {
    const parts = validParts(route, ctx);
    const params = [...route.template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const name = params[params.length - 1];
    const values = { ...pathValues(route, ctx), [name]: v };
    parts.path = fill(route.template, values);
    let expect: Expectation | undefined;
    const sameRoute = matchRoutes(ctx.routes, parts.path).some((r) => r.template === route.template && r.method === route.method);
    // category and queue are enums (any other value a 400), a dead letter's id is not a UUID: the UUID rules are for the others.
    if (sameRoute && route.auth !== 'signature' && !['category', 'queue', 'id'].includes(name)) {
      if (kind === 'junk' || kind === 'encoded-dots')
        expect = { statuses: [400], why: 'a path id that is not a UUID is a 400 naming it', messageIncludes: name };
      if (kind === 'undecodable') expect = { statuses: [400], why: 'an undecodable path id is a 400' };
      if (kind === 'unknown-uuid') expect = { statuses: [404], why: 'an unknown id is a 404' };
    }
    return build(parts, `path-id:${kind}`, expect);
  });
};

/** Query strings: out-of-range numbers, unknown and repeated parameters, brackets, junk escapes. */
const queries: Family = (ctx) => {
  const routes = ctx.routes.filter((r) => r.auth === 'api-key');
  const outOfRange: Record<string, string[]> = {
    limit: ['0', '101', '-1', '1.5', '1e2', 'abc', '', '99999999999999999999999', '%205', '0x10', '%00', '%EF%BC%95'],
    offset: ['-1', '1e9', '1000000001', 'abc', '1.0', '%2B1'],
    status: ['bogus', '', 'COMPLETED', 'completed%00', 'completed,failed'],
    include: ['everything', '', 'extractedText,', 'EXTRACTEDTEXT', '__proto__'],
    fields: ['nope', 'extractedText,nope', '__proto__', 'rank,constructor'],
    documentDate: ['13-2024', '2024-01', ''],
    documentType: ['CV', '', '1x'],
    fileName: ['a%2Fb', '%00', '', 'x'.repeat(300)],
  };
  const mutation = fc.oneof(
    fc.stringMatching(/^zq[a-z0-9]{1,10}$/).map((name) => ({ kind: 'unknown' as const, name, value: '1' })),
    fc
      .constantFrom('api_key', 'apiKey', 'key', 'callback', 'format', 'debug', 'page', 'per_page', 'sort')
      .map((name) => ({ kind: 'unknown' as const, name, value: '1' })),
    fc.constant({ kind: 'out-of-range' as const, name: '', value: '' }),
    fc.constant({ kind: 'repeated' as const, name: '', value: '' }),
    fc
      .constantFrom('limit[]', 'limit[a]', 'status[$ne]', 'a[b][c][d][e][f][g][h]', 'limit.x')
      .map((name) => ({ kind: 'brackets' as const, name, value: '1' })),
    fc.constantFrom('%', '%zz', '%c0%af', '%ff', '%u0041', '%%').map((raw) => ({ kind: 'junk' as const, name: raw, value: '' })),
    // Which of these a query parser keeps (qs drops prototype keys, querystring empty ones) is its choice: no 5xx is all we ask.
    fc
      .constantFrom('__proto__[x]', 'constructor[prototype][x]', '&&&', '=', '==', '&=&', '&')
      .map((raw) => ({ kind: 'parser-choice' as const, name: raw, value: '' })),
    fc.integer({ min: 200, max: 1000 }).map((n) => ({ kind: 'many' as const, name: String(n), value: '' })),
  );
  return fc.tuple(pick(routes), mutation, fc.nat()).map(([route, m, n]) => {
    const parts = validParts(route, ctx);
    const known = route.query.map((q) => q.name);
    let expect: Expectation | undefined;
    const fail400 = (why: string, messageIncludes?: string): Expectation => ({ statuses: [400], why, messageIncludes });
    switch (m.kind) {
      case 'unknown':
        if (known.includes(m.name)) return build(parts, 'query:unknown');
        parts.query.push([m.name, m.value]);
        expect = fail400('an unknown query parameter is a 400 naming it', m.name);
        break;
      case 'out-of-range': {
        const candidates = known.filter((k) => outOfRange[k]);
        if (candidates.length === 0) return build(parts, 'query:out-of-range');
        const name = candidates[n % candidates.length];
        const values = outOfRange[name];
        parts.query = parts.query.filter(([k]) => k !== name);
        parts.query.push([name, values[n % values.length]]);
        expect = fail400('a query parameter out of its range is a 400 naming it', name);
        break;
      }
      case 'repeated': {
        const name = known.length ? known[n % known.length] : 'limit';
        const present = parts.query.find(([k]) => k === name)?.[1];
        parts.query.push([name, present ?? '5'], [name, present ?? '6']);
        expect = known.length
          ? fail400('a repeated query parameter is a 400 naming it', name)
          : fail400('an unknown query parameter is a 400');
        break;
      }
      case 'brackets':
      case 'junk':
        parts.query.push([m.name, m.value]);
        expect = fail400('a malformed query parameter is a 400');
        break;
      case 'parser-choice':
        parts.query.push([m.name, m.value]);
        break;
      case 'many':
        for (let i = 0; i < Number(m.name); i++) parts.query.push([`p${i}`, String(i)]);
        expect = fail400('unknown query parameters are a 400');
        break;
    }
    return build(parts, `query:${m.kind}`, expect);
  });
};

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'PROPFIND', 'LOCK', 'MKCOL', 'PURGE', 'REPORT'];
/**
 * A POST here that no route takes names a search type that does not exist: a 404 (the document's
 * notFound), not a 405; but for the groups' list, a path of its own, which keeps its 405.
 */
const SEARCH_CREATION = /^\/v1\/public\/searches\/(?!groups\/?$)[^/]+\/?$/i;

/** A method no route of the path takes: 405 with Allow (a 404 for a search type that does not exist), whatever the key. */
const wrongMethods: Family = (ctx) =>
  fc
    .tuple(pick(ctx.routes), pick(METHODS), fc.boolean(), fc.constantFrom<'valid' | 'none' | 'bad'>('valid', 'none', 'bad'))
    .map(([route, method, withBody, key]) => {
      const parts = validParts(route, ctx);
      const allowed = allowedMethods(ctx.routes, parts.path);
      if (allowed.includes(method)) return build(parts, 'method:allowed');
      if (key === 'none') parts.headers = parts.headers.filter(([k]) => !/^(x-api-key|authorization)$/i.test(k));
      if (key === 'bad') parts.headers = withHeader(withHeader(parts.headers, 'X-API-Key', 'csk_wrong'), 'Authorization', 'Bearer wrong');
      if (!withBody) {
        parts.body = undefined;
        parts.headers = withHeader(parts.headers, 'Content-Type', undefined);
      }
      // Under /v1/public the gateway authenticates an unmatched request first (so it is counted and carries
      // RateLimit-*): a bad key there may be a 401 before the 405.
      const unknownType = method === 'POST' && SEARCH_CREATION.test(parts.path);
      const status = unknownType ? 404 : 405;
      const statuses = route.auth === 'api-key' && key !== 'valid' ? [status, 401] : [status];
      const why = unknownType
        ? 'a POST to a search type that does not exist is a 404'
        : `a method no route takes is a 405 (Allow: ${allowed.join(', ')})`;
      const generated = build(parts, unknownType ? 'method:unknown-search-type' : 'method:wrong', { statuses, why });
      generated.request.method = method;
      return generated;
    });

const NOT_JSON_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'text/html',
  'application/jsonx',
  'json',
  '*/*',
  ';',
  ';;;',
  'application/',
  '/json',
  'image/gif',
  'application/octet-stream',
  'application/json, text/plain',
  '"application/json"',
];
const JSONISH_TYPES = [
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json; charset=utf-16',
  'application/json; charset=utf-7',
  'application/json; charset=latin1',
  'application/json; charset=klingon',
  'application/json; charset="utf-8',
  'application/json;;;',
  'application/json; boundary=--',
  'application/json; charset=utf-8; charset=latin1',
];

/** Wrong, missing or garbage Content-Type on JSON routes, and charset junk. */
const contentTypes: Family = (ctx) => {
  const garbage = fc
    .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 80 })
    .filter((s) => /^[\x21-\x7e][\x20-\x7e]*$/.test(s) && !/json/i.test(s));
  const type = fc.oneof(
    pick(NOT_JSON_TYPES).map((t) => ({ t, json: false })),
    garbage.map((t) => ({ t, json: false })),
    fc.constant({ t: undefined as string | undefined, json: false }),
    pick(JSONISH_TYPES).map((t) => ({ t, json: true })),
  );
  return fc.tuple(pick(jsonRoutes(ctx)), type).map(([route, { t, json }]) => {
    const parts = validParts(route, ctx);
    parts.headers = withHeader(parts.headers, 'Content-Type', t);
    const expect: Expectation | undefined = json ? undefined : { statuses: [415], why: 'a JSON body sent as another type is a 415' };
    return build(parts, json ? 'content-type:jsonish' : 'content-type:not-json', expect);
  });
};

/** Content-Encoding with corrupt bodies (and unknown codings) on JSON and file routes. */
const encodings: Family = (ctx) => {
  const routes = ctx.routes.filter((r) => r.body !== 'none' && r.auth !== 'signature');
  const coding = pick(['gzip', 'deflate', 'br', 'GZIP', 'x-gzip', 'identity', 'gzip, gzip', 'compress', 'zstd', 'x-junk', 'gzip;q=1']);
  const corruption = pick(['random', 'truncated', 'plain', 'bad-crc', 'valid', 'empty']);
  return fc.tuple(pick(routes), coding, corruption, fc.uint8Array({ minLength: 1, maxLength: 4096 })).map(([route, c, how, random]) => {
    const parts = validParts(route, ctx);
    const plain = parts.body ?? Buffer.from('{}');
    const compress = (b: Buffer) =>
      /gzip/i.test(c) ? gzipSync(b) : c === 'deflate' ? deflateSync(b) : c === 'br' ? brotliCompressSync(b) : b;
    let body: Buffer;
    switch (how) {
      case 'random':
        // A random first byte could begin a valid brotli stream; 0x1f 0x8c is no gzip, zlib or brotli header.
        body = Buffer.concat([Buffer.from([0x1f, 0x8c]), Buffer.from(random)]);
        break;
      case 'truncated': {
        const whole = compress(plain);
        body = whole.subarray(0, Math.max(1, Math.floor(whole.length / 2)));
        break;
      }
      case 'plain':
        body = plain;
        break;
      case 'bad-crc': {
        const whole = Buffer.from(compress(plain));
        whole[whole.length - 5] ^= 0xff;
        body = whole;
        break;
      }
      case 'valid':
        body = compress(plain);
        break;
      default:
        body = Buffer.alloc(0);
    }
    parts.body = body;
    parts.bodyNote = `${how} ${c} body`;
    parts.headers.push(['Content-Encoding', c]);
    const coding = c.toLowerCase();
    const known = ['gzip', 'deflate', 'br'].includes(coding);
    // Brotli has no header and no checksum: only a cut stream is certainly corrupt.
    const checked = known && coding !== 'br';
    let expect: Expectation | undefined;
    if (coding === 'identity' || body.length === 0) expect = undefined;
    // RFC 9110 asks a recipient to read x-gzip as gzip (SHOULD): refusing it as unknown is fair too.
    else if (coding === 'x-gzip')
      expect = how === 'valid' ? undefined : { statuses: [400, 415], why: 'a corrupt x-gzip body is a 400 (or 415 for the coding)' };
    else if (!known) expect = { statuses: [415], why: 'an unknown Content-Encoding is a 415' };
    else if ((checked && ['random', 'truncated', 'bad-crc', 'plain'].includes(how)) || (coding === 'br' && how === 'truncated')) {
      expect = { statuses: [400], why: 'a corrupt compressed body is a 400' };
    }
    return build(parts, `encoding:${how}`, expect);
  });
};

/** JSON of wrong shapes and types, deep nesting, NUL and lone surrogates, huge strings, unknown fields. */
const jsonBodies: Family = (ctx) => {
  const routes = jsonRoutes(ctx);
  const mutation = fc.oneof(
    { arbitrary: fc.nat().map((n) => ({ kind: 'wrong-type' as const, n, value: undefined, raw: '' })), weight: 4 },
    {
      arbitrary: fc.tuple(fc.nat(), hostileString).map(([n, value]) => ({ kind: 'hostile-string' as const, n, value, raw: '' })),
      weight: 5,
    },
    {
      arbitrary: fc
        .tuple(fc.nat(), pick(INVALID_JSON_TOKENS))
        .map(([n, raw]) => ({ kind: 'invalid-token' as const, n, value: undefined, raw })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(fc.nat(), pick(EXTREME_NUMBERS))
        .map(([n, raw]) => ({ kind: 'extreme-number' as const, n, value: undefined, raw })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(fc.nat(), fc.integer({ min: 10, max: 40_000 }), fc.boolean())
        .map(([n, depth, arr]) => ({ kind: 'deep' as const, n, value: undefined, raw: nested(depth, arr ? 'array' : 'object') })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(fc.nat(), fc.stringMatching(/^[a-z][a-zA-Z0-9_]{2,14}$/))
        .map(([n, name]) => ({ kind: 'unknown-field' as const, n, value: name, raw: '' })),
      weight: 2,
    },
    { arbitrary: fc.nat().map((n) => ({ kind: 'missing-field' as const, n, value: undefined, raw: '' })), weight: 1 },
    {
      arbitrary: fc.tuple(fc.nat(), pick(WHOLE_BODIES)).map(([n, raw]) => ({ kind: 'whole-body' as const, n, value: undefined, raw })),
      weight: 3,
    },
    {
      arbitrary: fc
        .tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 2048 }))
        .map(([n, bytes]) => ({ kind: 'random-bytes' as const, n, value: bytes, raw: '' })),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(fc.nat(), fc.integer({ min: 10, max: 200_000 }))
        .map(([n, depth]) => ({ kind: 'deep-body' as const, n, value: depth, raw: '' })),
      weight: 1,
    },
  );
  return fc.tuple(pick(routes), mutation, fc.nat()).chain(([route, m, seed]) => {
    const base = baseJson(route, ctx);
    const fields = Object.keys(base);
    const field = fields.length ? fields[m.n % fields.length] : 'query';
    const kind = FIELD_KIND[field] ?? 'text';
    if (m.kind === 'wrong-type')
      return wrongTyped(kind).map((value) =>
        finishJson(
          route,
          ctx,
          { ...base, [field]: value },
          undefined,
          { statuses: [400], why: 'a field of the wrong type or rule is a 400 naming it', messageIncludes: field },
          'json:wrong-type',
        ),
      );
    return fc.constant(null).map(() => {
      switch (m.kind) {
        case 'hostile-string': {
          const value = m.value;
          let expect: Expectation | undefined;
          if (value.includes('\u0000') && kind === 'text')
            expect = { statuses: [400], why: 'a NUL in stored text is a 400 naming the field', messageIncludes: field };
          else if (kind === 'int' || kind === 'uuid' || kind === 'date')
            expect = { statuses: [400], why: 'a field of the wrong type or rule is a 400 naming it', messageIncludes: field };
          return finishJson(route, ctx, { ...base, [field]: value }, undefined, expect, 'json:hostile-string');
        }
        case 'invalid-token':
          return finishJson(
            route,
            ctx,
            { ...base, [field]: RAW },
            m.raw,
            { statuses: [400], why: 'invalid JSON is a 400' },
            'json:invalid-token',
          );
        case 'extreme-number':
          return finishJson(
            route,
            ctx,
            { ...base, [field]: RAW },
            m.raw,
            { statuses: [400], why: 'a number no field takes is a 400 naming it', messageIncludes: field },
            'json:extreme-number',
          );
        case 'deep':
          return finishJson(
            route,
            ctx,
            { ...base, [field]: RAW },
            m.raw,
            { statuses: [400], why: 'a deeply nested value is a 400 naming the field', messageIncludes: field },
            'json:deep',
          );
        case 'unknown-field': {
          const name = m.value;
          if (name in base) return finishJson(route, ctx, base, undefined, undefined, 'json:unknown-field');
          return finishJson(
            route,
            ctx,
            { ...base, [name]: seed % 2 ? 'x' : 1 },
            undefined,
            { statuses: [400], why: 'an unknown JSON field is a 400 naming it', messageIncludes: name },
            'json:unknown-field',
          );
        }
        case 'missing-field': {
          const { [field]: _dropped, ...rest } = base;
          const optional = ['top_k', 'rerank_top_n', 'searchGroupId', 'documentType', 'fileName', 'companyId', 'note'].includes(field);
          return finishJson(
            route,
            ctx,
            rest,
            undefined,
            optional ? undefined : { statuses: [400], why: 'a missing required field is a 400 naming it', messageIncludes: field },
            'json:missing-field',
          );
        }
        case 'whole-body':
          return finishJson(
            route,
            ctx,
            null,
            m.raw,
            // `{}` is a whole body of the shape where no field is required.
            m.raw === '{}' && NO_REQUIRED_FIELDS.has(route.template)
              ? undefined
              : { statuses: [400], why: 'a body that is not a JSON object of the shape is a 400' },
            'json:whole-body',
          );
        case 'random-bytes': {
          const parts = validParts(route, ctx);
          parts.body = Buffer.concat([Buffer.from('{'), Buffer.from(m.value as Uint8Array)]);
          parts.bodyNote = 'random bytes after {';
          return build(parts, 'json:random-bytes', { statuses: [400], why: 'a body that is not JSON is a 400' });
        }
        case 'deep-body':
          return finishJson(
            route,
            ctx,
            null,
            nested(m.value, seed % 2 ? 'array' : 'object'),
            { statuses: [400], why: 'a deeply nested body is a 400' },
            'json:deep-body',
          );
      }
    });
  });
};

const RAW = '\u0001RAW\u0001';

/** Serialises a JSON body (a raw token in place of RAW), and applies the size rules to the expectation. */
function finishJson(
  route: Route,
  ctx: FuzzContext,
  object: Record<string, unknown> | null,
  raw: string | undefined,
  expect: Expectation | undefined,
  family: string,
): Generated {
  const parts = validParts(route, ctx);
  let text = object === null ? (raw ?? '') : JSON.stringify(object);
  if (object !== null && raw !== undefined) text = text.replace(JSON.stringify(RAW), () => raw);
  const body = Buffer.from(text);
  parts.body = body.length > MAX_REQUEST ? body.subarray(0, MAX_REQUEST) : body;
  parts.bodyNote = `${family} JSON, ${body.length} bytes`;
  // Past 64 KB the size decides, whatever the body holds.
  const sized: Expectation | undefined =
    parts.body.length > JSON_LIMIT ? { statuses: [413], why: 'a JSON body over 64 KB is a 413' } : expect;
  return build(parts, family, sized);
}

/** The direct upload's raw body route: query junk, types, empty and odd bodies. */
const fileUploads: Family = (ctx) => {
  const route = ctx.routes.find((r) => r.template === '/v1/public/documents/upload-direct' && r.method === 'POST');
  if (!route) return fc.constant(build(validParts(ctx.routes[0], ctx), 'file:none'));
  const variant = pick([
    'empty',
    'gif',
    'pdf-mismatch',
    'no-type',
    'charset',
    'nul-text',
    'bad-utf8',
    'missing-name',
    'nul-name',
    'bad-date',
    'slash-file-name',
    'random',
    'large-text',
  ]);
  return fc
    .tuple(variant, fc.uint8Array({ minLength: 1, maxLength: 8192 }), fc.integer({ min: 10_000, max: 200_000 }))
    .map(([v, random, size]) => {
      const parts = validParts(route, ctx);
      let expect: Expectation | undefined;
      const setQuery = (name: string, value: string | undefined) => {
        parts.query = parts.query.filter(([k]) => k !== name);
        if (value !== undefined) parts.query.push([name, value]);
      };
      switch (v) {
        case 'empty':
          parts.body = Buffer.alloc(0);
          expect = { statuses: [400], why: 'an empty file is a 400' };
          break;
        case 'gif':
          parts.headers = withHeader(parts.headers, 'Content-Type', 'image/gif');
          parts.body = Buffer.from('GIF89a....');
          expect = { statuses: [415], why: 'an unsupported file type is a 415' };
          break;
        case 'pdf-mismatch':
          parts.headers = withHeader(parts.headers, 'Content-Type', 'application/pdf');
          expect = { statuses: [415], why: 'bytes that are not the declared type are a 415' };
          break;
        case 'no-type':
          parts.headers = withHeader(parts.headers, 'Content-Type', undefined);
          break;
        case 'charset':
          parts.headers = withHeader(parts.headers, 'Content-Type', 'text/plain; charset=klingon');
          break;
        case 'nul-text':
          parts.body = Buffer.from(`${CV_TEXT}\u0000\u0000${CV_TEXT}`);
          break;
        case 'bad-utf8':
          parts.body = Buffer.concat([Buffer.from(CV_TEXT), Buffer.from([0xed, 0xa0, 0x80, 0xc0, 0xaf, 0xff])]);
          break;
        case 'missing-name':
          setQuery('documentName', undefined);
          expect = { statuses: [400], why: 'a missing documentName is a 400 naming it', messageIncludes: 'documentName' };
          break;
        case 'nul-name':
          setQuery('documentName', 'a%00b');
          expect = { statuses: [400], why: 'a NUL in documentName is a 400 naming it', messageIncludes: 'documentName' };
          break;
        case 'bad-date':
          setQuery('documentDate', '2024-13');
          expect = { statuses: [400], why: 'a bad documentDate is a 400 naming it', messageIncludes: 'documentDate' };
          break;
        case 'slash-file-name':
          setQuery('fileName', '..%2F..%2Fetc%2Fpasswd');
          expect = { statuses: [400], why: 'a fileName with slashes is a 400 naming it', messageIncludes: 'fileName' };
          break;
        case 'random':
          parts.body = Buffer.from(random);
          break;
        case 'large-text':
          parts.body = Buffer.from(CV_TEXT.repeat(Math.ceil(size / CV_TEXT.length)).slice(0, size));
          break;
      }
      parts.bodyNote = `${v} file body`;
      return build(parts, `file:${v}`, expect);
    });
};

/** Headers of odd sizes and counts, duplicated and conflicting framing. */
const headerShapes: Family = (ctx) => {
  const routes = keyRoutes(ctx).filter((r) => r.method === 'GET');
  const shape = fc.oneof(
    fc.constantFrom(1, 100, 4096, 8000, 12_000, 15_000, 17_500, 20_000, 32_000, 60_000).map((n) => ({ kind: 'one-big' as const, n })),
    fc.constantFrom(50, 100, 500, 1000, 1900, 2500, 3000).map((n) => ({ kind: 'many' as const, n })),
    fc.constantFrom(300, 1000, 10_000).map((n) => ({ kind: 'long-key' as const, n })),
    fc.constantFrom(129, 1000, 10_000).map((n) => ({ kind: 'long-request-id' as const, n })),
    fc.constant({ kind: 'duplicate-key' as const, n: 0 }),
    fc.constant({ kind: 'duplicate-content-length' as const, n: 0 }),
    fc.constant({ kind: 'te-and-cl' as const, n: 0 }),
    fc.constant({ kind: 'latin1-junk' as const, n: 0 }),
    fc.constantFrom(17_000, 20_000).map((n) => ({ kind: 'long-url' as const, n })),
    fc.constant({ kind: 'expect-junk' as const, n: 0 }),
    fc.constant({ kind: 'expect-continue' as const, n: 0 }),
    fc.constant({ kind: 'bad-content-length' as const, n: 0 }),
    fc.constant({ kind: 'te-not-chunked' as const, n: 0 }),
    fc
      .constantFrom('gzip', 'br', 'deflate', 'gzip;q=0, identity;q=0, *;q=0', 'x-junk', '*', 'gzip, deflate, br, zstd', 'br;q=abc')
      .map((v) => ({ kind: 'accept-encoding' as const, n: 0, v })),
    fc
      .constantFrom(
        'garbage',
        '1.2.3.4, 5.6.7.8, garbage',
        '::1',
        '',
        `${'10.0.0.1, '.repeat(500)}10.0.0.2`,
        '[::ffff:127.0.0.1]:80',
        '300.1.1.1',
      )
      .map((v) => ({ kind: 'forwarded-junk' as const, n: 0, v })),
  );
  return fc.tuple(pick(routes), shape).map(([route, shaped]) => {
    const { kind, n } = shaped;
    const v = 'v' in shaped ? shaped.v : '';
    const parts = validParts(route, ctx);
    let expect: Expectation | undefined;
    // What Node's parser counts against its limit: the URL and each header's name and value.
    const size = () => (parts.path + qs(parts.query)).length + parts.headers.reduce((sum, [k, v]) => sum + k.length + v.length, 0) + 120;
    switch (kind) {
      case 'one-big':
        parts.headers.push(['X-Junk', 'j'.repeat(n)]);
        break;
      case 'many':
        for (let i = 0; i < n; i++) parts.headers.push([`X-H${i}`, 'v'.repeat(8)]);
        break;
      case 'long-key':
        parts.headers = withHeader(parts.headers, 'X-API-Key', ctx.key + 'k'.repeat(n));
        expect = { statuses: [401], why: 'an overlong API key is a 401' };
        break;
      case 'long-request-id':
        parts.headers.push(['X-Request-Id', 'r'.repeat(n)]);
        break;
      case 'duplicate-key':
        parts.headers.push(['X-API-Key', ctx.key]);
        break;
      case 'duplicate-content-length':
        parts.headers.push(['Content-Length', '5'], ['Content-Length', '6']);
        parts.body = Buffer.from('hello');
        expect = { statuses: [400], why: 'conflicting Content-Length headers are a 400' };
        break;
      case 'te-and-cl':
        parts.headers.push(['Content-Length', '5'], ['Transfer-Encoding', 'chunked']);
        parts.body = Buffer.from('0\r\n\r\n');
        expect = { statuses: [400], why: 'Transfer-Encoding with Content-Length is a 400' };
        break;
      case 'latin1-junk':
        parts.headers.push(['X-Latin1', '\u00e9\u00ff\u0080\u00a0'], ['Accept-Language', '\u00ff'.repeat(100)]);
        break;
      case 'long-url':
        parts.query.push(['zqlong', 'u'.repeat(n)]);
        break;
      case 'expect-junk':
        // Node answers an Expect it does not know with its own bare 417, unless the server handles checkExpectation.
        parts.headers.push(['Expect', 'junk-expectation']);
        break;
      case 'expect-continue':
        parts.headers.push(['Expect', '100-continue']);
        break;
      case 'bad-content-length':
        parts.headers.push(['Content-Length', 'abc']);
        parts.body = Buffer.from('abc');
        expect = { statuses: [400], why: 'a Content-Length that is not a number is a 400' };
        break;
      case 'te-not-chunked':
        parts.headers.push(['Transfer-Encoding', 'gzip']);
        parts.body = Buffer.from('abc');
        expect = { statuses: [400], why: 'a Transfer-Encoding that does not end in chunked is a 400' };
        break;
      case 'accept-encoding':
        parts.headers.push(['Accept-Encoding', v]);
        break;
      case 'forwarded-junk':
        parts.headers.push(['X-Forwarded-For', v]);
        break;
    }
    const total = size();
    if (total > NODE_HEADER_LIMIT + 2048) expect = { statuses: [431], why: 'headers over 16 KB are a 431' };
    else if (total > NODE_HEADER_LIMIT - 2048 && expect?.statuses[0] !== 400) expect = undefined; // too near the limit to say
    const generated = build(parts, `headers:${kind}`, expect);
    generated.request.malformedHttp = ['duplicate-content-length', 'te-and-cl', 'bad-content-length', 'te-not-chunked'].includes(kind);
    return generated;
  });
};

/** Bad, absent and misplaced keys (and admin tokens) on otherwise valid requests. */
const badAuth: Family = (ctx) => {
  const keyVariants = pick([
    undefined,
    '',
    'csk_',
    'csk_not-a-key',
    `${ctx.key}x`,
    ctx.key.slice(0, -1),
    ctx.key.toUpperCase(),
    `Bearer ${ctx.key}`,
    'x'.repeat(201),
    '\u00e9\u00ff\u00e9',
    'null',
    ctx.key.slice(0, 8),
  ]);
  const misplaced = pick<'none' | 'authorization' | 'query' | 'cookie'>(['none', 'authorization', 'query', 'cookie']);
  const adminVariants = pick([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    `Bearer ${ctx.adminToken}x`,
    `Bearer ${ctx.key}`,
    `Basic ${Buffer.from(`admin:${ctx.adminToken}`).toString('base64')}`,
    ctx.adminToken,
    `Bearer  ${ctx.adminToken}`,
  ]);
  const routes = ctx.routes.filter((r) => r.auth === 'api-key' || r.auth === 'admin');
  return fc.tuple(pick(routes), keyVariants, misplaced, adminVariants).map(([route, key, where, admin]) => {
    const parts = validParts(route, ctx);
    parts.headers = parts.headers.filter(([k]) => !/^(x-api-key|authorization)$/i.test(k));
    if (route.auth === 'admin') {
      if (admin !== undefined) parts.headers.push(['Authorization', admin]);
      return build(parts, 'auth:admin', { statuses: [401], why: 'an admin route without the admin token is a 401' });
    }
    if (key !== undefined) parts.headers.push(['X-API-Key', key]);
    if (where === 'authorization') parts.headers.push(['Authorization', `Bearer ${ctx.key}`]);
    if (where === 'cookie') parts.headers.push(['Cookie', `apiKey=${ctx.key}; x-api-key=${ctx.key}`]);
    if (where === 'query') parts.query.push(['api_key', ctx.key]);
    return build(parts, `auth:${where}`, { statuses: [401], why: 'a bad, absent or misplaced key is a 401' });
  });
};

/** Paths no route matches: 404 not_found (a 401 for a keyless /v1/public path is acceptable too). */
const unknownPaths: Family = (ctx) => {
  const segment = fc.oneof(
    {
      arbitrary: pick([
        'v1',
        'public',
        'v2',
        'admin',
        'uploads',
        'searches',
        'documents',
        'groups',
        'results',
        'dense',
        'healthz',
        '..',
        '.',
        '%2e%2e',
        '%2F',
        '',
        'api',
        'internal',
        'metrics',
        '.env',
        '.git',
        'wp-admin',
        'actuator',
        'server-status',
      ]),
      weight: 6,
    },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 20 }).map((s) => encodeURIComponent(s)), weight: 2 },
  );
  const prefixes = pick(['', '/v1/public', '/v1/public/searches', '/v1/public/documents', '/admin/v1', '/uploads', '/V1/PUBLIC']);
  return fc
    .tuple(prefixes, fc.array(segment, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 9 }))
    .map(([prefix, segs, long]) => `${prefix}/${segs.join('/')}${long === 0 ? `/${'z'.repeat(6000)}` : ''}`)
    .filter((path) => matchRoutes(ctx.routes, path).length === 0 && !isOpaque(path) && path !== '/')
    .chain((path) =>
      fc.tuple(pick(['GET', 'POST', 'DELETE']), pick<'valid' | 'none'>(['valid', 'none'])).map(([method, key]) => {
        const headers: Headers = key === 'valid' ? [['X-API-Key', ctx.key]] : [];
        const publicPath = path.toLowerCase().startsWith('/v1/public');
        const statuses = publicPath && key === 'none' ? [404, 401] : [404];
        return {
          request: { method, path, headers, family: 'unknown-path' },
          expect: { statuses, why: 'a path no route matches is a 404' },
        };
      }),
    );
};

/** The presigned PUT target: signatures, expiries and ids in every wrong shape. */
const presignedPuts: Family = (ctx) => {
  const p = ctx.presigned;
  const sig = pick([
    p.signature,
    'bad',
    '0'.repeat(64),
    p.signature.toUpperCase(),
    `${p.signature}a`,
    p.signature.slice(1),
    undefined,
    'REPEAT',
  ]);
  const exp = pick([p.expires, String(Number(p.expires) + 1), '0', '-1', 'abc', '9'.repeat(13), '1e10', undefined, 'REPEAT']);
  const id = fc.oneof(pick([p.uploadId, p.uploadId.toUpperCase(), 'not-a-uuid', '..', '%zz']), fc.uuid());
  const type = pick([p.contentType, 'application/pdf', undefined, 'garbage;;', `${p.contentType}; charset=klingon`]);
  const body = pick(['text', 'empty', 'random', 'corrupt-gzip']);
  return fc.tuple(id, sig, exp, type, body, fc.uint8Array({ minLength: 1, maxLength: 100_000 })).map(([uploadId, s, e, t, b, random]) => {
    const query: [string, string][] = [];
    if (e === 'REPEAT') query.push(['expires', p.expires], ['expires', p.expires]);
    else if (e !== undefined) query.push(['expires', e]);
    if (s === 'REPEAT') query.push(['signature', p.signature], ['signature', p.signature]);
    else if (s !== undefined) query.push(['signature', s]);
    const headers: Headers = t === undefined ? [] : [['Content-Type', t]];
    let data = Buffer.from(CV_TEXT);
    if (b === 'empty') data = Buffer.alloc(0);
    if (b === 'random') data = Buffer.from(random);
    if (b === 'corrupt-gzip') {
      data = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3, 4, 5]);
      headers.push(['Content-Encoding', 'gzip']);
    }
    const path = `/uploads/${uploadId}${qs(query)}`;
    const uuidLike = /^[0-9a-f-]{36}$/i.test(uploadId);
    const genuine = uploadId.toLowerCase() === p.uploadId && s === p.signature && e === p.expires;
    let expect: Expectation | undefined;
    if (s === 'REPEAT' || e === 'REPEAT') expect = { statuses: [400, 401], why: 'a repeated signature or expires is refused' };
    else if (uuidLike && !genuine) expect = { statuses: [401], why: 'a presigned PUT whose signature does not verify is a 401' };
    else if (!uuidLike) expect = { statuses: [400, 401], why: 'a presigned PUT to a non-UUID id is refused' };
    return {
      request: {
        method: 'PUT',
        path,
        headers,
        body: data,
        family: `presigned-put:${genuine ? 'genuine' : 'forged'}`,
        bodyNote: `${b} body`,
      },
      expect,
    };
  });
};

/** The health endpoints with junk: they must answer, never 5xx (a 503 from /readyz aside). */
const health: Family = () =>
  fc
    .tuple(
      pick(['/healthz', '/readyz', '/HEALTHZ', '/healthz/', '/readyz?full=1', '/healthz?x=%zz']),
      pick(['GET', 'GET', 'POST']),
      fc.boolean(),
    )
    .map(([path, method, withBody]) => ({
      request: {
        method,
        path,
        headers: withBody ? [['Content-Type', 'application/json']] : [],
        body: withBody ? Buffer.from('{"x":') : undefined,
        family: 'health',
      },
    }));

/**
 * Valid but extreme query values (each integer at its minimum or maximum, each enum value) on the
 * GET routes that take parameters: 200, whatever the corner.
 */
const validExtremes: Family = (ctx) => {
  const routes = keyRoutes(ctx).filter((r) => r.method === 'GET' && r.query.some((q) => q.schema.type === 'integer' || q.schema.enum));
  if (routes.length === 0) return fc.constant(build(validParts(ctx.routes[0], ctx), 'valid-extremes:none'));
  return fc.tuple(pick(routes), fc.array(fc.nat(), { minLength: 8, maxLength: 8 })).map(([route, choices]) => {
    const parts = validParts(route, ctx);
    route.query.forEach((q, i) => {
      const c = choices[i % choices.length];
      if (q.schema.type === 'integer') {
        const min = q.schema.minimum ?? 0;
        const max = q.schema.maximum ?? (q.name === 'offset' ? 1_000_000_000 : min);
        parts.query.push([q.name, String([min, max, min + 1, Math.max(min, max - 1)][c % 4])]);
      } else if (q.schema.enum && c % 3 !== 0) {
        parts.query.push([q.name, q.schema.enum[c % q.schema.enum.length]]);
      }
    });
    return build(parts, 'valid-extremes', { statuses: [200], why: 'valid query values at their limits are a 200' });
  });
};

/** HEAD and OPTIONS on every route: whatever the answer, the invariants hold (HEAD has no body to check). */
const headAndOptions: Family = (ctx) =>
  fc.tuple(pick(ctx.routes), pick(['HEAD', 'OPTIONS']), fc.boolean()).map(([route, method, withKey]) => {
    const parts = validParts(route, ctx);
    if (!withKey) parts.headers = parts.headers.filter(([k]) => !/^(x-api-key|authorization)$/i.test(k));
    parts.body = undefined;
    parts.headers = withHeader(parts.headers, 'Content-Type', undefined);
    const generated = build(parts, `method:${method}`);
    generated.request.method = method;
    return generated;
  });

/** Every family with its share of the runs. */
export function malformedRequest(ctx: FuzzContext): fc.Arbitrary<Generated> {
  return fc.oneof(
    { arbitrary: pathIds(ctx), weight: 12 },
    { arbitrary: queries(ctx), weight: 14 },
    { arbitrary: wrongMethods(ctx), weight: 8 },
    { arbitrary: contentTypes(ctx), weight: 7 },
    { arbitrary: encodings(ctx), weight: 8 },
    { arbitrary: jsonBodies(ctx), weight: 18 },
    { arbitrary: fileUploads(ctx), weight: 5 },
    { arbitrary: headerShapes(ctx), weight: 6 },
    { arbitrary: badAuth(ctx), weight: 9 },
    { arbitrary: unknownPaths(ctx), weight: 6 },
    { arbitrary: presignedPuts(ctx), weight: 5 },
    { arbitrary: health(ctx), weight: 2 },
    { arbitrary: headAndOptions(ctx), weight: 2 },
    { arbitrary: validExtremes(ctx), weight: 3 },
  );
}
