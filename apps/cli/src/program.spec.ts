import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCliPiped } from './testing/run-cli-piped';

const cli = (args: string[], env?: { baseUrl?: string; apiKey?: string }, input?: string) => runCliPiped(args, configDir, env, input);

let configDir: string;
beforeEach(async () => {
  configDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-program-'));
});
afterEach(() => fs.rm(configDir, { recursive: true, force: true }));

describe('candidate-search', () => {
  it('documents every exit code in --help, and exits 0 for help', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    for (const line of [
      '0  done',
      '2  bad arguments',
      '3  no API key',
      '4  no such document',
      '5  rate limited',
      '6  service unreachable',
      '7  upload: some files',
      '8  similar: the document is not a read CV',
      '130  interrupted',
    ])
      expect(stdout).toContain(line);
    expect(stdout).toContain('CANDIDATE_SEARCH_API_KEY');
  });

  it("ends each command's --help with the exit codes", async () => {
    const { code, stdout } = await cli(['upload', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--no-resume');
    expect(stdout).toMatch(/ 7 {2}upload: some files were invalid/);
    expect(stdout).toMatch(/130 {2}interrupted/);
  });

  it('lists the filter flags of search under a heading of their own', async () => {
    const { code, stdout } = await cli(['search', '--help']);
    expect(code).toBe(0);
    const filters = stdout.slice(stdout.indexOf('Filters (every result meets them'));
    for (const flag of [
      '--skill <name>',
      '--any-skill <name>',
      '--exclude-skill <name>',
      '--min-years <n>',
      '--max-years <n>',
      '--seniority <level>',
      '--domain <name>',
      '--near <place>',
      '--radius <km>',
      '--degree <min>',
      '--language <name>',
    ])
      expect(filters).toContain(flag);
    expect(filters).not.toContain('--top-k');
  });

  it.each([
    ['an unknown command', ['frobnicate']],
    ['an unknown search type', ['search', 'fuzzy', 'chef']],
    ['a --limit out of range', ['search', 'dense', 'chef', '--limit', '0']],
    ['a --top-k that is not a number', ['search', 'dense', 'chef', '--top-k', 'ten']],
    ['similar without a document', ['similar']],
    ['a facet that does not exist', ['similar', '5b0f0000-0000-4000-8000-000000000009', '--facets', 'seniority,hobbies']],
    ['a document status that does not exist', ['documents', 'list', '--status', 'done']],
    ['a missing argument', ['documents', 'get']],
    ['a bad --document-date', ['upload', 'x', '--document-date', '2024-03']],
  ])('exits 2 for %s, saying what is wrong on stderr', async (_, args) => {
    const { code, stdout, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/error/);
  });

  it('exits 3 without a key, saying how to log in; with --json the error is the JSON on stdout', async () => {
    const human = await cli(['documents', 'list']);
    expect(human.code).toBe(3);
    expect(human.stderr).toContain('error: no API key for http://localhost:8080');
    expect(human.stderr).toContain('hint: run candidate-search login');
    const json = await cli(['documents', 'list', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { exitCode: 3, message: 'no API key for http://localhost:8080', hint: expect.any(String) },
    });
  });

  it('exits 2 for an upload path that does not exist, before uploading anything', async () => {
    const { code, stderr } = await cli(['upload', 'no-such-folder', '--api-key', 'csk_k', '--base-url', 'http://127.0.0.1:9']);
    expect(code).toBe(2);
    expect(stderr).toContain('no such file or folder: no-such-folder');
  });

  it('logs out when logged in, and says so when not', async () => {
    expect((await cli(['logout'])).stdout).toContain('Not logged in');
    await fs.writeFile(path.join(configDir, 'config.json'), JSON.stringify({ baseUrl: 'http://a', apiKey: 'k' }));
    const { code, stdout } = await cli(['logout', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ removed: true, configFile: path.join(configDir, 'config.json') });
    await expect(fs.stat(path.join(configDir, 'config.json'))).rejects.toThrow();
  });
});

describe('candidate-search search with filter flags', () => {
  const SID = '5b0f0000-0000-4000-8000-000000000001';
  const GID = '9c1e0000-0000-4000-8000-000000000002';
  const env = { baseUrl: 'http://api.test', apiKey: 'csk_test' };
  let sent: { method: string; path: string; body: unknown }[];

  /** The service as the SDK sees it through fetch: every search completes at once, with no result. */
  beforeEach(() => {
    sent = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      sent.push({ method: init?.method ?? 'GET', path: url.pathname, body });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
      const type = url.pathname.split('/').pop() ?? '';
      const done = {
        searchId: SID,
        searchGroupId: GID,
        status: 'completed',
        searchType: type,
        query: 'q',
        resultsCount: 0,
        processingTimeMs: 1,
      };
      if (init?.method === 'POST' && body?.searchGroupId) return json(202, { ...done, status: 'processing', estimatedTime: 'x' });
      if (init?.method === 'POST') return json(200, done, { 'preference-applied': 'wait=30' });
      if (url.pathname.endsWith(`/searches/${SID}/results`))
        return json(200, { searchId: SID, results: [], totalResults: 0, pagination: { limit: 10, offset: 0, total: 0, hasMore: false } });
      const searches = ['dense', 'sparse', 'hybrid', 'builtin-rerank'].map((searchType) => ({
        ...done,
        searchType,
        results: [],
        totalResults: 0,
      }));
      return json(200, { searchGroupId: GID, query: 'q', groupStatus: 'completed', searches });
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('sends the filters the flags give in the search body', async () => {
    const { code, stderr } = await cli(
      [
        'search',
        'dense',
        'java',
        'developer',
        '--skill',
        'java',
        '--skill',
        'k8s',
        '--exclude-skill',
        'php',
        '--min-years',
        '5',
        '--near',
        'Austin, TX',
        '--json',
      ],
      env,
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(sent[0]).toStrictEqual({
      method: 'POST',
      path: '/v1/public/searches/dense',
      body: {
        query: 'java developer',
        filters: {
          skills: { all: ['java', 'k8s'], none: ['php'] },
          experienceYears: { gte: 5 },
          location: { near: 'Austin, TX', radiusKm: 50 },
        },
      },
    });
  });

  it('sends the same filters in each of the four searches of `all`, and names them above the table', async () => {
    const { code, stdout } = await cli(['search', 'all', 'nurse', '--seniority', 'senior', '--language', 'spanish'], env);
    expect(code).toBe(0);
    const posts = sent.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.path.split('/').pop())).toEqual(['dense', 'sparse', 'hybrid', 'builtin-rerank']);
    for (const post of posts)
      expect(post.body).toStrictEqual({
        query: 'nurse',
        searchGroupId: expect.any(String),
        filters: { seniority: ['senior'], languages: { all: ['spanish'] } },
      });
    expect(stdout).toMatch(/^"nurse" filtered by seniority, languages by all four search types/);
  });

  it('sends no filters without filter flags', async () => {
    expect((await cli(['search', 'sparse', 'nurse', '--top-k', '5'], env)).code).toBe(0);
    expect(sent[0].body).toStrictEqual({ query: 'nurse', top_k: 5 });
  });

  it.each([
    ['years that are not a number', ['--min-years', 'five'], "option '--min-years <n>' argument 'five' is invalid"],
    ['a radius without --near', ['--radius', '20'], 'error: --radius needs --near <place>'],
    [
      'a minimum above the maximum',
      ['--min-years', '9', '--max-years', '2'],
      'error: --min-years, --max-years: filters.experienceYears.gte must not be above',
    ],
    ['a seniority that does not exist', ['--seniority', 'guru'], "option '--seniority <level>' argument 'guru' is invalid"],
  ])('exits 2 for %s, saying so, without sending a request', async (_, flags, message) => {
    const { code, stdout, stderr } = await cli(['search', 'dense', 'java', ...flags], env);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(sent).toEqual([]);
  });
});

describe('candidate-search similar', () => {
  const DOC = '0b6f3c1e-8f4a-4c8e-9a57-1d2e3f4a5b6c';
  const SID = '5b0f0000-0000-4000-8000-000000000001';
  const env = { baseUrl: 'http://api.test', apiKey: 'csk_test' };
  const hit = (rank: number, name: string, score: number) => ({
    rank,
    documentId: `${name}-id`,
    documentName: name,
    score,
    scores: { dense: score + 0.1, sparse: score, fused: score },
    matchedTerms: ['laravel'],
    highlights: [],
  });
  const completed = {
    searchId: SID,
    status: 'completed',
    searchType: 'similar',
    query: '',
    similarTo: DOC,
    resultsCount: 2,
    processingTimeMs: 12,
  };
  const page = {
    searchId: SID,
    status: 'completed',
    searchType: 'similar',
    query: '',
    similarTo: DOC,
    totalResults: 2,
    results: [hit(1, 'omar.txt', 0.81), hit(2, 'lena.txt', 0.32)],
    metadata: { similarTo: DOC, distinctiveTerms: ['laravel', 'symfony', 'phpunit'] },
    facets: {
      passing: {
        cvs: 5,
        fields: {
          seniority: [
            { value: 'senior', count: 3 },
            { value: 'mid', count: 2 },
          ],
        },
      },
      results: { cvs: 2, fields: { seniority: [{ value: 'senior', count: 2 }] } },
    },
    pagination: { limit: 10, offset: 0, total: 2, hasMore: false },
  };
  let sent: { method: string; path: string; body: unknown }[];
  /** The API's answer to the creation; the search then completes at once. */
  const serve = (creation: { status: number; body: unknown }) =>
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      sent.push({
        method: init?.method ?? 'GET',
        path: url.pathname,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) =>
        new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
      if (init?.method === 'POST') return json(creation.status, creation.body, { 'preference-applied': 'wait=30' });
      return json(200, page);
    });
  beforeEach(() => (sent = []));
  afterEach(() => jest.restoreAllMocks());

  it('starts from the document with the flags’ top K, filters and facets, and prints its ranking, the words it searched and the counts', async () => {
    serve({ status: 200, body: completed });
    const { code, stdout, stderr } = await cli(
      ['similar', DOC, '--top-k', '30', '--skill', 'php', '--facets', 'seniority,skills,seniority', '--limit', '5'],
      env,
    );
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/public/searches/similar',
      `GET /v1/public/searches/${SID}/results`,
    ]);
    expect(sent[0].body).toStrictEqual({
      documentId: DOC,
      top_k: 30,
      filters: { skills: { all: ['php'] } },
      facets: ['seniority', 'skills'],
    });
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`similar search: CVs like document ${DOC} filtered by skills: 2 results in 12 ms (search ${SID})`);
    expect(lines[1]).toBe('Its distinctive words: laravel, symfony, phpunit');
    expect(stdout).toMatch(/│ Rank │ Document +│ Score │ dense │ sparse │ fused │/);
    expect(stdout).toMatch(/│ +1 │ omar\.txt +│ 0\.810 │ 0\.910 │ +0\.810 │ 0\.810 │/);
    expect(stdout).toMatch(/│ Field +│ Passing the filters \(5\) +│ Results \(2\) +│/);
    expect(stdout).toMatch(/│ seniority +│ senior 3, mid 2 +│ senior 2 +│/);
  });

  it('prints the API’s results page with --json', async () => {
    serve({ status: 200, body: completed });
    const { code, stdout } = await cli(['similar', DOC, '--json'], env);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(page);
    expect(sent[0].body).toStrictEqual({ documentId: DOC });
  });

  it('exits 4 for a document the company does not have, saying where the ids are', async () => {
    serve({ status: 404, body: { error: 'not_found', message: 'document not found' } });
    const { code, stdout, stderr } = await cli(['similar', DOC], env);
    expect({ code, stdout }).toEqual({ code: 4, stdout: '' });
    expect(stderr).toBe(
      `error: no document ${DOC} in this company (404)\nhint: candidate-search documents list shows the ids of its documents\n`,
    );
  });

  it('exits 8 for a document not read yet, with the API’s message, and as JSON with --json', async () => {
    const message = `document ${DOC} is pending: a similar search starts from a CV that was read (status completed)`;
    serve({ status: 409, body: { error: 'conflict', message } });
    const human = await cli(['similar', DOC], env);
    expect(human.code).toBe(8);
    expect(human.stderr).toContain(
      `error: ${message} (409)\nhint: a CV still processing is searchable within seconds: candidate-search documents get ${DOC}`,
    );
    const json = await cli(['similar', DOC, '--json'], env);
    expect(json.code).toBe(8);
    expect(JSON.parse(json.stdout)).toEqual({ error: { exitCode: 8, message: `${message} (409)`, hint: expect.any(String) } });
    expect(sent.filter((r) => r.method === 'GET')).toEqual([]);
  });
});

describe('candidate-search match', () => {
  const SID = '5b0f0000-0000-4000-8000-000000000002';
  const env = { baseUrl: 'http://api.test', apiKey: 'csk_test' };
  const POSTING = 'Staff Accountant\n\nRequirements\n- General ledger\n- 3+ years\n\nNice to have\n- CPA\n';
  const criteria = {
    title: 'Staff Accountant',
    summary: null,
    skills: { required: [{ name: 'General Ledger', weight: 1 }], preferred: [{ name: 'CPA', weight: 0.5 }] },
    experienceYears: { min: 3 },
    seniority: null,
    location: null,
    degree: null,
    languages: [],
  };
  const assessed = (name: string, kind: string, status: string) => ({
    criterion: { kind, name, required: kind !== 'title', weight: 1 },
    status,
    evidence: [],
  });
  const completed = {
    searchId: SID,
    status: 'completed',
    searchType: 'match',
    query: '',
    criteria,
    strict: false,
    resultsCount: 1,
    processingTimeMs: 40,
  };
  const page = {
    ...completed,
    totalResults: 1,
    results: [
      {
        rank: 1,
        documentId: 'dana-id',
        documentName: 'dana.txt',
        score: 0.7,
        scores: { rerank: 0.7, criteria: 0.6 },
        matchedTerms: ['General Ledger'],
        highlights: [],
        match: {
          score: 0.6,
          criteria: [
            assessed('Staff Accountant', 'title', 'met'),
            assessed('General Ledger', 'skill', 'met'),
            assessed('CPA', 'skill', 'missing'),
            assessed('3+ years', 'experienceYears', 'unknown'),
          ],
        },
      },
    ],
    metadata: { strict: false, criteriaShare: 0.1 },
    pagination: { limit: 10, offset: 0, total: 1, hasMore: false },
    candidatesMeetingAll: 1,
    relaxations: [
      { criterion: { kind: 'skill', name: 'General Ledger', required: true, weight: 1 }, additionalCandidates: 4 },
      { criterion: { kind: 'experienceYears', name: '3+ years', required: true, weight: 1 }, additionalCandidates: 0 },
    ],
    nearMisses: [
      {
        documentId: 'sam-id',
        documentName: 'sam.txt',
        score: 0.5,
        missing: { kind: 'skill', name: 'General Ledger', required: true, weight: 1 },
        match: { score: 0.5, criteria: [] },
      },
    ],
  };
  let sent: { method: string; path: string; body: unknown }[];
  beforeEach(() => {
    sent = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      sent.push({
        method: init?.method ?? 'GET',
        path: url.pathname,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      const json = (value: unknown, headers: Record<string, string> = {}) =>
        new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json', ...headers } });
      return init?.method === 'POST' ? json(completed, { 'preference-applied': 'wait=30' }) : json(page);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('sends a posting file’s text, prints the criteria read from it, the ranking, and what each CV meets and misses', async () => {
    await fs.writeFile(path.join(configDir, 'posting.txt'), POSTING);
    const { code, stdout, stderr } = await cli(['match', 'posting.txt', '--strict', '--skill', 'excel', '--top-k', '5'], env);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(sent[0]).toMatchObject({ path: '/v1/public/searches/match' });
    expect(sent[0].body).toStrictEqual({ jobDescription: POSTING, strict: true, top_k: 5, filters: { skills: { all: ['excel'] } } });
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`match search (strict) filtered by skills: 1 results in 40 ms (search ${SID})`);
    expect(lines.slice(1, 5)).toEqual([
      'Title: Staff Accountant',
      'Required skills: General Ledger',
      'Preferred skills: CPA',
      'Also asked: 3+ years',
    ]);
    expect(stdout).toContain('1. dana.txt: met 2 of 4; missing: CPA; not said: 3+ years');
    expect(stdout.trimEnd().split('\n').slice(-3)).toEqual([
      '1 CV meets every requirement.',
      'Loosening one adds: General Ledger +4',
      'Near misses: sam.txt (missing General Ledger)',
    ]);
  });

  it('reads the posting from stdin with -', async () => {
    const { code } = await cli(['match', '-'], env, POSTING);
    expect(code).toBe(0);
    expect(sent[0].body).toStrictEqual({ jobDescription: POSTING });
  });

  it('refuses a missing file, one over 20,000 characters and bytes of no posting before any request, with exit 2', async () => {
    await fs.writeFile(path.join(configDir, 'long.txt'), 'a '.repeat(10_001));
    await fs.writeFile(path.join(configDir, 'image.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
    for (const [file, message] of [
      ['absent.txt', /cannot read absent\.txt: ENOENT/],
      ['long.txt', /more than 20000 characters/],
      ['image.bin', /neither text nor a PDF, DOCX or DOC file/],
    ] as const) {
      const { code, stderr } = await cli(['match', file], env);
      expect({ file, code }).toEqual({ file, code: 2 });
      expect(stderr).toMatch(message);
    }
    expect(sent).toEqual([]);
  });

  it('uploads a PDF posting as a job posting, waits until it is read, and matches by its document', async () => {
    const pdf = Buffer.from('%PDF-1.7 a posting');
    await fs.writeFile(path.join(configDir, 'posting.pdf'), pdf);
    const documentId = '7d2a0000-0000-4000-8000-0000000000aa';
    const posted = { ...completed, jobDescriptionDocumentId: documentId };
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      sent.push({
        method: init?.method ?? 'GET',
        path: `${url.pathname}${url.search}`,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      });
      const json = (value: unknown, status = 200, headers: Record<string, string> = {}) =>
        new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json', ...headers } });
      if (url.pathname.endsWith('/upload-direct')) return json({ documentId, status: 'uploading', kind: 'job', duplicate: false }, 201);
      if (url.pathname === `/v1/public/documents/${documentId}`)
        return json({ documentId, kind: 'job', status: 'completed', message: 'ready' });
      if (init?.method === 'POST') return json(posted, 200, { 'preference-applied': 'wait=30' });
      return json({ ...page, jobDescriptionDocumentId: documentId });
    });
    const { code, stdout, stderr } = await cli(['match', 'posting.pdf'], env);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(sent[0].path).toMatch(/^\/v1\/public\/documents\/upload-direct\?.*kind=job/);
    expect(sent.find((r) => r.path === '/v1/public/searches/match')?.body).toStrictEqual({ jobDescriptionDocumentId: documentId });
    expect(stdout).toContain(`Posting: posting.pdf (job posting document ${documentId})`);
  });
});
