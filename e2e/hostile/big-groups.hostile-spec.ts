import { randomUUID } from 'node:crypto';
import { TEXT_CVS } from '../support/fixtures';
import { HostileHarness } from './support/hostile-harness';
import { pool } from './support/invariants';
import type { HostileAnswer } from './support/raw-http';
import { mb } from './support/rss-sampler';

/**
 * A search group filled to its cap (100 searches; the 101st is a 409). Its
 * results, fetched three times at once, come in bounded time and size (paged by searches: limit
 * 1..20, default 20) while /healthz keeps answering within 1 s; a page of one search's results
 * stays under 30 KB because CV text is left out unless `include=extractedText` asks for it.
 *
 * Besides the four plain text CVs, four long ones (about 60 KB of text each, as long CVs and
 * their extracted PDFs are) make a group's results heavy if CV text were served in them.
 */
jest.setTimeout(600_000);

const GROUP_CAP = 100;
const TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank'] as const;
const RESULTS_BOUND_MS = 5000;
const MAX_GROUP_BODY = 5 * 1024 * 1024;
const MAX_PAGE_BODY = 30 * 1024;
const QUERIES = [
  'accountant, general ledger, reconciliations',
  'software engineer Node.js Kubernetes',
  'executive chef menu planning',
  'middle school teacher curriculum',
];

function longCv(text: string, bytes = 60_000): string {
  const lines = text.split('\n');
  const out = [text];
  let size = text.length;
  for (let i = 1; size < bytes; i++) {
    const line = `Project ${i}: ${lines[(i % (lines.length - 1)) + 1]}`;
    out.push(line);
    size += line.length + 1;
  }
  return out.join('\n');
}

interface ResultItem {
  extractedText?: unknown;
}
interface GroupResults {
  totalSearches?: number;
  searches?: { searchId: string; results?: ResultItem[] }[];
  pagination?: { limit: number; offset: number; total: number; hasMore: boolean };
}

describe('a search group at its cap', () => {
  let h: HostileHarness;
  let key = '';
  const groupId = randomUUID();
  const searchIds: string[] = [];
  const figures: Record<string, string> = {};
  let resultsLimitMax: number | undefined;

  beforeAll(async () => {
    h = await HostileHarness.start('big groups');
    const company = await h.createCompany('groups');
    await h.raiseLimits(company.companyId);
    key = company.apiKey;
    const ids: string[] = [];
    for (const [name, text] of Object.entries(TEXT_CVS)) {
      ids.push(await h.uploadText(key, text, name));
      ids.push(await h.uploadText(key, longCv(text), `${name} (long)`));
    }
    await h.waitForDocuments(key, ids);
    const openapi = (await h.call('GET', '/openapi.json', {})).json as {
      paths?: Record<string, { get?: { parameters?: { name: string; in: string; schema?: { maximum?: number } }[] } }>;
    };
    resultsLimitMax = openapi.paths?.['/v1/public/searches/{searchId}/results']?.get?.parameters?.find(
      (p) => p.in === 'query' && p.name === 'limit',
    )?.schema?.maximum;
  });

  afterAll(async () => {
    if (h) {
      h.report(figures);
      await h.destroy();
    }
  });

  it(`takes ${GROUP_CAP} searches in one group and answers the next with 409 conflict`, async () => {
    const started = performance.now();
    const created: HostileAnswer[] = [];
    await pool(
      Array.from({ length: GROUP_CAP }, (_, i) => i),
      4,
      async (i) => {
        const answer = await h.call('POST', `/v1/public/searches/${TYPES[i % 4]}`, {
          key,
          json: { query: QUERIES[i % QUERIES.length], searchGroupId: groupId },
          family: 'group:fill',
        });
        created.push(answer);
        if (answer.status === 202) searchIds.push((answer.json as { searchId: string }).searchId);
      },
    );
    figures['creating 100 searches'] = `${((performance.now() - started) / 1000).toFixed(1)} s, 4 at once`;
    expect(created.filter((a) => a.status !== 202).map((a) => `${a.status} ${a.text.slice(0, 120)}`)).toEqual([]);
    const over = await h.call('POST', '/v1/public/searches/dense', {
      key,
      json: { query: 'one search too many', searchGroupId: groupId },
      family: 'group:over the cap',
      expect: { statuses: [409], why: 'the 101st search of a group is a 409' },
    });
    expect({ status: over.status, error: (over.json as { error?: string } | undefined)?.error }).toEqual({
      status: 409,
      error: 'conflict',
    });

    // Every search ends before the group is read.
    const deadline = Date.now() + 240_000;
    let status = 'processing';
    while (status === 'processing' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      status = String(
        ((await h.call('GET', `/v1/public/searches/groups/${groupId}`, { key })).json as { groupStatus?: string } | undefined)?.groupStatus,
      );
    }
    figures['all 100 searches ended after'] = `${((performance.now() - started) / 1000).toFixed(1)} s, group ${status}`;
    expect(status).not.toBe('processing');
  });

  it('answers three concurrent reads of the group results in bounded time and size, /healthz within 1 s meanwhile', async () => {
    let reading = true;
    const health: number[] = [];
    const poller = (async () => {
      while (reading) {
        const answer = await h.call('GET', '/healthz', { family: 'group:healthz meanwhile' });
        health.push(answer.status === 200 ? answer.ms : Infinity);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const reads = await Promise.all(
      [0, 1, 2].map(() => h.call('GET', `/v1/public/searches/groups/${groupId}/results`, { key, family: 'group:results' })),
    );
    reading = false;
    await poller;
    figures['group results, 3 at once'] = reads
      .map(
        (r) =>
          `${r.status} in ${r.ms.toFixed(0)} ms, ${mb(r.bytes)}, ${(r.json as GroupResults | undefined)?.searches?.length ?? '?'} searches`,
      )
      .join('; ');
    figures['/healthz meanwhile'] = `${health.length} answers, slowest ${Math.max(...health).toFixed(0)} ms`;
    for (const r of reads) {
      const body = r.json as GroupResults;
      expect({ status: r.status, inBound: r.ms < RESULTS_BOUND_MS, under5MB: r.bytes < MAX_GROUP_BODY }).toEqual({
        status: 200,
        inBound: true,
        under5MB: true,
      });
      expect(body.totalSearches).toBe(GROUP_CAP);
      expect(body.searches?.length).toBeLessThanOrEqual(20);
      const withText = (body.searches ?? []).flatMap((s) => s.results ?? []).filter((item) => 'extractedText' in item);
      expect(withText.length).toBe(0);
    }
    expect(health.length).toBeGreaterThan(0);
    expect(Math.max(...health)).toBeLessThan(1000);
  });

  it('pages the group results by searches: limit 1..20, default 20, every search on some page', async () => {
    for (const limit of ['0', '21', '-1', 'x']) {
      await h.call('GET', `/v1/public/searches/groups/${groupId}/results?limit=${limit}`, {
        key,
        family: 'group:page limits',
        expect: { statuses: [400], why: 'a group results limit outside 1..20 is a 400 naming it', messageIncludes: 'limit' },
      });
    }
    const seen = new Set<string>();
    let pages = 0;
    let biggest = 0;
    for (let offset = 0; offset < GROUP_CAP; offset += 20) {
      const page = await h.call('GET', `/v1/public/searches/groups/${groupId}/results?limit=20&offset=${offset}`, {
        key,
        family: 'group:pages',
      });
      expect(page.status).toBe(200);
      const body = page.json as GroupResults;
      for (const s of body.searches ?? []) seen.add(s.searchId);
      pages++;
      biggest = Math.max(biggest, page.bytes);
      if (body.pagination) expect(body.pagination).toMatchObject({ limit: 20, offset, total: GROUP_CAP });
    }
    figures['group results pages'] = `${pages} pages of 20, biggest ${mb(biggest)}`;
    expect([...seen].sort()).toEqual([...searchIds].sort());
  });

  it('keeps a page of one search’s results under 30 KB, with CV text only when asked for', async () => {
    const limit = resultsLimitMax === undefined ? undefined : Math.min(30, resultsLimitMax);
    const searchId = searchIds[0];
    const page = await h.call('GET', `/v1/public/searches/${searchId}/results${limit ? `?limit=${limit}` : ''}`, {
      key,
      family: 'group:one search page',
    });
    const items = (page.json as { results?: ResultItem[] } | undefined)?.results ?? [];
    figures['one search results page'] =
      `limit ${limit ?? '(none declared)'}: ${page.status}, ${items.length} items, ${(page.bytes / 1024).toFixed(1)} KB`;
    expect(page.status).toBe(200);
    expect(items.length).toBeGreaterThan(0);
    expect(page.bytes).toBeLessThan(MAX_PAGE_BODY);
    expect(items.filter((i) => 'extractedText' in i).length).toBe(0);
    const withText = await h.call('GET', `/v1/public/searches/${searchId}/results?include=extractedText`, {
      key,
      family: 'group:include text',
    });
    const texts = ((withText.json as { results?: ResultItem[] } | undefined)?.results ?? []).map((i) => i.extractedText);
    figures['the same with include=extractedText'] = `${withText.status}, ${(withText.bytes / 1024).toFixed(1)} KB`;
    expect(withText.status).toBe(200);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((t) => typeof t === 'string' && t.length > 0)).toBe(true);
  });

  it('keeps the invariants on every answer of this suite', () => {
    expect(h.alive()).toBe(true);
    expect(h.ledger.groupKeys()).toEqual([]);
  });
});
