import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '@cs/contracts';
import { MemoryRateLimitStore, RateLimiterService } from '@cs/rate-limits';
import type { CompaniesRepository } from '@cs/records';
import { MetricsRegistry } from '@cs/service-kit';
import type { AuthContext } from '../auth/auth-context';
import { RateLimitMetrics } from '../rate-limit/rate-limit';
import { apiKeyOf, PublicRequestPipeline } from './public-pipeline';

const KEY = 'cs_live_0123456789abcdef';
const acme: AuthContext = { keyId: 'key-1', company: { id: 'company-1', name: 'Acme', limits: { read: 2 }, createdAt: new Date(0) } };

function pipelineWith(): { pipeline: PublicRequestPipeline; lookups: string[] } {
  const lookups: string[] = [];
  const companies = {
    authenticate: (key: string) => {
      lookups.push(key);
      return Promise.resolve(key === KEY ? acme : null);
    },
  } as unknown as CompaniesRepository;
  return {
    pipeline: new PublicRequestPipeline(
      companies,
      new RateLimiterService(new MemoryRateLimitStore()),
      new RateLimitMetrics(new MetricsRegistry('test')),
    ),
    lookups,
  };
}

const request = (headers: Record<string, string>, method = 'GET') => ({ method, headers }) as unknown as IncomingMessage;

function response(): ServerResponse & { headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  return { headers, setHeader: (name: string, value: string) => (headers[name] = value) } as unknown as ServerResponse & {
    headers: Record<string, string>;
  };
}

async function refusal(admitting: Promise<unknown>): Promise<DomainError> {
  const error = await admitting.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describe('PublicRequestPipeline', () => {
  it('looks up only a key of 1 to 200 characters', async () => {
    const { pipeline, lookups } = pipelineWith();
    expect(apiKeyOf(request({}))).toBeNull();
    expect(apiKeyOf(request({ 'x-api-key': '' }))).toBeNull();
    expect(apiKeyOf(request({ 'x-api-key': 'k'.repeat(201) }))).toBeNull();
    expect(await pipeline.authenticate(request({ 'x-api-key': 'k'.repeat(201) }))).toBeNull();
    expect(await pipeline.authenticate(request({ 'x-api-key': KEY }))).toBe(acme);
    expect(lookups).toEqual([KEY]);
  });

  it("admits a known key with its company's limit in RateLimit-*, then refuses the spent limit with 429 and Retry-After", async () => {
    const { pipeline } = pipelineWith();
    const path = '/v1/public/searches';
    const first = response();
    expect(await pipeline.admit(request({ 'x-api-key': KEY }), first, path, '10.0.0.1')).toBe(acme);
    expect(first.headers).toMatchObject({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '1' });
    await pipeline.admit(request({ 'x-api-key': KEY }), response(), path, '10.0.0.1');
    const third = response();
    const error = await refusal(pipeline.admit(request({ 'x-api-key': KEY }), third, path, '10.0.0.1'));
    expect(error.code).toBe('rate_limit_exceeded');
    expect(third.headers).toMatchObject({ 'RateLimit-Remaining': '0', 'Retry-After': expect.stringMatching(/^\d+$/) });
  });

  it('refuses a missing key with a hint, and a wrong one, counting failures per address', async () => {
    const { pipeline } = pipelineWith();
    const missing = response();
    const error = await refusal(pipeline.admit(request({ authorization: 'Bearer x' }), missing, '/v1/public/documents', '10.0.0.2'));
    expect([error.code, error.message]).toEqual([
      'unauthorized',
      'missing API key: this API authenticates with the X-API-Key header, not Authorization',
    ]);
    expect(missing.headers).toMatchObject({ 'RateLimit-Limit': '30', 'RateLimit-Remaining': '29' });
    const wrong = response();
    expect((await refusal(pipeline.admit(request({ 'x-api-key': 'wrong' }), wrong, '/v1/public/documents', '10.0.0.2'))).message).toBe(
      'invalid or revoked API key',
    );
    expect(wrong.headers['RateLimit-Remaining']).toBe('28');
  });

  it('admits a request handed on without looking its key up or counting it again', async () => {
    const { pipeline, lookups } = pipelineWith();
    const req = request({ 'x-api-key': KEY });
    const states = await pipeline.count(req, '/v1/public/searches/x', acme);
    expect(states.map((s) => [s.category, s.remaining])).toEqual([['read', 1]]);
    pipeline.handOn(req, { auth: acme, states });
    const res = response();
    expect(await pipeline.admit(req, res, '/v1/public/searches/x', '10.0.0.3')).toBe(acme);
    expect(res.headers['RateLimit-Remaining']).toBe('1');
    expect(lookups).toEqual([]);
    // The next request is counted: the handed-on one was counted once.
    expect((await pipeline.count(request({ 'x-api-key': KEY }), '/v1/public/searches/x', acme))[0].remaining).toBe(0);
  });

  it('counts search creations against the search limit, other public requests against read', async () => {
    const { pipeline } = pipelineWith();
    expect((await pipeline.count(request({}, 'POST'), '/v1/public/searches/hybrid', acme)).map((s) => s.category)).toEqual(['search']);
    expect((await pipeline.count(request({}, 'DELETE'), '/v1/public/documents/x', acme)).map((s) => s.category)).toEqual(['read']);
  });
});
