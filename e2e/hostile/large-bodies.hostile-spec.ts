import { randomUUID } from 'node:crypto';
import { HostileHarness, spreadAddress } from './support/hostile-harness';
import type { Expectation } from './support/invariants';
import { sendStreamed, type HostileRequest, type StreamedAnswer } from './support/raw-http';
import { baselineRss, mb, RssSampler } from './support/rss-sampler';

/**
 * Large bodies nobody authenticated. 100 concurrent 10 MB direct uploads with
 * bad keys, and 100 concurrent 10 MB PUTs to the presigned target with bad signatures: each is
 * refused (401, never 5xx) and the service's RSS grows by less than 50 MB, so it did not buffer
 * them. A declared 20 MB upload with a valid key is a 413 before any byte of it is sent.
 */
jest.setTimeout(600_000);

const TEN_MB = 10 * 1024 * 1024;
const CONCURRENT = Number(process.env.HOSTILE_LARGE_CONCURRENCY ?? 100);
const MAX_GROWTH = 50 * 1024 * 1024;
/** One buffer every request streams from: the test process is not the bottleneck. */
const SOURCE = Buffer.alloc(1024 * 1024, 'Senior Accountant. General ledger. ');

describe('large unauthenticated bodies', () => {
  let h: HostileHarness;
  let key = '';
  const figures: Record<string, string> = {};

  beforeAll(async () => {
    h = await HostileHarness.start('large bodies');
    const company = await h.createCompany('big');
    await h.raiseLimits(company.companyId);
    key = company.apiKey;
  });

  afterAll(async () => {
    if (h) {
      h.report(figures);
      await h.destroy();
    }
  });

  /** Sends the requests all at once, records each in the ledger, and measures the service's RSS meanwhile. */
  async function burst(label: string, requests: HostileRequest[], expectation: Expectation) {
    const baseline = await baselineRss(h.pid, 1500);
    const sampler = new RssSampler(h.pid).start();
    const started = performance.now();
    const answers = await Promise.all(requests.map((r) => sendStreamed(h.baseUrl, r, { source: SOURCE, declaredBytes: TEN_MB }, 120_000)));
    const wall = performance.now() - started;
    const rss = sampler.stop();
    answers.forEach((answer, i) => h.ledger.record({ ...requests[i], bodyNote: '10 MB streamed' }, answer, expectation));
    const statuses = countBy(answers.map((a) => a.status));
    const written = answers.reduce((n, a) => n + a.bytesWritten, 0);
    const growth = rss.peak - baseline;
    figures[label] =
      `${requests.length} at once: statuses ${JSON.stringify(statuses)}; wall ${(wall / 1000).toFixed(1)} s, slowest answer ${(Math.max(...answers.map((a) => a.ms)) / 1000).toFixed(2)} s; body bytes sent before the answers ${mb(written)} of ${mb(requests.length * TEN_MB)}; RSS baseline ${mb(baseline)}, peak ${mb(rss.peak)}, growth ${mb(growth)}`;
    return { answers, growth };
  }

  it(`refuses ${CONCURRENT} concurrent 10 MB direct uploads with bad keys with 401, RSS growing < 50 MB`, async () => {
    const requests: HostileRequest[] = Array.from({ length: CONCURRENT }, (_, i) => ({
      method: 'POST',
      path: '/v1/public/documents/upload-direct?documentName=x&documentDate=01-2024',
      headers: [
        ['Content-Type', 'text/plain'],
        ...(i % 4 === 3 ? [] : [['X-API-Key', i % 4 === 0 ? 'csk_not-a-key' : i % 4 === 1 ? `${key}x` : 'garbage'] as [string, string]]),
        // Each its own client address: the failed-key limit (30 a minute per address) would make them 429s.
        ['X-Forwarded-For', spreadAddress(10_000 + i)],
      ],
      family: 'large:upload-direct bad key',
    }));
    const { answers, growth } = await burst('direct uploads with bad keys', requests, {
      statuses: [401],
      why: 'an unauthenticated 10 MB upload is a 401',
    });
    expect(countBy(answers.map((a) => a.status))).toEqual({ 401: CONCURRENT });
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it(`refuses ${CONCURRENT} concurrent 10 MB presigned PUTs with bad signatures with 401, RSS growing < 50 MB`, async () => {
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const requests: HostileRequest[] = Array.from({ length: CONCURRENT }, (_, i) => ({
      method: 'PUT',
      path: `/uploads/${randomUUID()}?expires=${expires}&signature=${i % 2 ? 'bad' : '0'.repeat(64)}`,
      headers: [
        ['Content-Type', 'text/plain'],
        ['X-Forwarded-For', spreadAddress(20_000 + i)],
      ],
      family: 'large:presigned PUT bad signature',
    }));
    const { answers, growth } = await burst('presigned PUTs with bad signatures', requests, {
      statuses: [401],
      why: 'a 10 MB PUT with a bad signature is a 401',
    });
    expect(countBy(answers.map((a) => a.status))).toEqual({ 401: CONCURRENT });
    expect(growth).toBeLessThan(MAX_GROWTH);
  });

  it.each([
    [
      'a direct upload with a valid key',
      'POST',
      '/v1/public/documents/upload-direct?documentName=x&documentDate=01-2024',
      'text/plain',
      true,
      [413],
    ],
    ['a JSON search with a valid key', 'POST', '/v1/public/searches/dense', 'application/json', true, [413]],
    [
      'a presigned PUT with a bad signature',
      'PUT',
      `/uploads/${randomUUID()}?expires=${Math.floor(Date.now() / 1000) + 3600}&signature=bad`,
      'text/plain',
      false,
      [401, 413],
    ],
  ] as const)(
    'answers %s declaring Content-Length: 20000000 before reading any of it',
    async (_, method, path, type, withKey, statuses) => {
      const request: HostileRequest = {
        method,
        path,
        headers: [['Content-Type', type], ['Content-Length', '20000000'], ...(withKey ? [['X-API-Key', key] as [string, string]] : [])],
        family: 'large:declared 20 MB',
      };
      // Headers only, then up to 5 s of silence: an answer in that time came from the headers alone.
      const answer: StreamedAnswer = await sendStreamed(h.baseUrl, request, { source: SOURCE, declaredBytes: 20_000_000, holdMs: 5000 });
      h.ledger.record({ ...request, bodyNote: '20 MB declared, none sent before the answer' }, answer, {
        statuses: [...statuses],
        why: 'a declared 20 MB body is refused from its headers',
      });
      figures[`declared 20 MB: ${_}`] = `${answer.status} after ${answer.ms.toFixed(0)} ms, ${answer.bytesWritten} body bytes sent`;
      expect({ status: answer.status, bytesWritten: answer.bytesWritten }).toEqual({ status: expect.any(Number), bytesWritten: 0 });
      expect(statuses).toContain(answer.status);
    },
  );

  it('keeps the service alive and the invariants on every answer', async () => {
    const health = await h.call('GET', '/healthz', {});
    expect(health.status).toBe(200);
    expect(h.alive()).toBe(true);
    expect(h.ledger.groupKeys()).toEqual([]);
  });
});

function countBy(values: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
