import { ApiClient } from './support/api-client';
import { adminApi, adminCli, createCompany } from './support/fixtures';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(120_000);

describe('rate limits in standalone mode', () => {
  let service: StandaloneService;
  let client: ApiClient;
  let companyId: string;

  beforeAll(async () => {
    service = await StandaloneService.start();
    const body = await createCompany(service, 'limited');
    companyId = body.companyId;
    client = new ApiClient(service.baseUrl, body.apiKey);
  });
  afterAll(() => service?.destroy());

  it('admits 10 searches a minute and answers the 11th with 429, the full body and Retry-After', async () => {
    for (let i = 1; i <= 10; i++) {
      const answer = await client.post('/v1/public/searches/dense', { query: `query ${i}` });
      expect(answer.status).toBe(202);
      expect(answer.headers.get('ratelimit-limit')).toBe('10');
      expect(answer.headers.get('ratelimit-remaining')).toBe(String(10 - i));
    }
    const refused = await client.post('/v1/public/searches/hybrid', { query: 'one more' });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: 'rate_limit_exceeded',
      message: 'Search rate limit exceeded: 10 requests per 1 minute.',
      limit: 10,
      window: '1 minute',
      retryAfter: expect.stringMatching(/^\d+$/),
      hint: expect.any(String),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('counts invalid searches too (counted once authenticated), but not refused ones', async () => {
    const answer = await client.post('/v1/public/searches/dense', { query: '' });
    expect(answer.status).toBe(429);
  });

  it('puts RateLimit-* on reads, separate from searches', async () => {
    const answer = await client.get('/v1/public/documents');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit-limit')).toBe('100');
    expect(answer.headers.get('ratelimit-remaining')).toBe('99');
    expect(Number(answer.headers.get('ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('applies a limit granted through the admin CLI at once', async () => {
    const granted = adminCli(['limits', 'set', '--company', companyId, '--category', 'search', '--limit', '50'], {
      ADMIN_URL: service.baseUrl,
      DATA_DIR: service.dataDir,
    });
    expect(granted.status).toBe(0);
    expect(JSON.parse(granted.stdout).limits.search).toEqual({ limit: 50, window: '1 minute', custom: true });
    const answer = await client.post('/v1/public/searches/dense', { query: 'after the grant' });
    expect(answer.status).toBe(202);
    expect(answer.headers.get('ratelimit-limit')).toBe('50');
  });

  it('limits uploads by burst (10 in 10 s) and reports the closer limit', async () => {
    // At once: eleven uploads one after another might outlast the 10 s window on a loaded machine.
    const answers = await Promise.all(
      Array.from({ length: 11 }, (_, i) =>
        client.upload(Buffer.from(`Plain text CV number ${i} with some words about accounting and ledgers.`), 'text/plain', {
          documentName: `cv${i}`,
          documentDate: '01-2024',
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array<number>(10).fill(201), 429]);
    expect(answers.find((a) => a.status === 429)?.body).toMatchObject({
      error: 'rate_limit_exceeded',
      limit: 10,
      window: '10 seconds',
      hint: expect.any(String),
    });
  });

  it('gives Retry-After of the limit that frees last when both upload limits are spent', async () => {
    const other = await createCompany(service, 'two-limits');
    for (const category of ['upload-burst', 'upload-sustained'])
      await adminApi(service, 'PUT', `/companies/${other.companyId}/limits/${category}`, { limit: 2 });
    const uploader = new ApiClient(service.baseUrl, other.apiKey);
    const upload = (i: number) =>
      uploader.upload(Buffer.from(`Plain text CV ${i} about bookkeeping, payroll and ledgers for a small firm.`), 'text/plain', {
        documentName: `cv${i}`,
        documentDate: '01-2024',
      });
    expect((await upload(1)).status).toBe(201);
    expect((await upload(2)).status).toBe(201);
    const refused = await upload(3);
    expect(refused.status).toBe(429);
    // Both are spent; the burst window frees within 10 s, the sustained one only after the minute.
    expect(refused.body).toMatchObject({ window: '1 minute' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(10);
  });

  it('revokes a key through the admin CLI', async () => {
    const prefix = client.apiKey!.slice(0, 8);
    const revoked = adminCli(['keys', 'revoke', '--company', companyId, '--key-prefix', prefix], {
      ADMIN_URL: service.baseUrl,
      DATA_DIR: service.dataDir,
    });
    expect(revoked.status).toBe(0);
    expect((await client.get('/v1/public/documents')).status).toBe(401);
  });

  it('limits failed keys per address without ever refusing a valid key', async () => {
    const fresh = await createCompany(service, 'behind-the-same-nat');
    const stranger = new ApiClient(service.baseUrl, 'csk_not-a-real-key');
    const statuses: number[] = [];
    // Earlier tests may have failed a key or two from this address: at most 30 within the minute get 401.
    for (let i = 0; i < 31 && !statuses.includes(429); i++) statuses.push((await stranger.get('/v1/public/documents')).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
    expect(statuses.length).toBeGreaterThan(25);
    // The same address, a valid key: served, and its own read limit is what it sees.
    const valid = await new ApiClient(service.baseUrl, fresh.apiKey).get('/v1/public/documents');
    expect(valid.status).toBe(200);
    expect(valid.headers.get('ratelimit-limit')).toBe('100');
  });
});
