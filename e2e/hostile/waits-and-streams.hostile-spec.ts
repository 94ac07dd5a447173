import fc from 'fast-check';
import { TEXT_CVS } from '../support/fixtures';
import { HostileHarness } from './support/hostile-harness';
import { pool } from './support/invariants';
import { mb } from './support/rss-sampler';

/**
 * `Prefer: wait` and event streams under hostile use, in standalone mode. Any Prefer
 * header is read without a 5xx, a malformed wait is ignored (no Preference-Applied) and no wait
 * passes 30 s; hundreds of waits and streams at once are answered, with the service's memory
 * bounded. (Waits and streams held open by a search that does not end, and their per-company
 * bounds, are shown in cluster mode by e2e/waits/search-waits.waits-spec.ts, which can hold a search back.)
 */
jest.setTimeout(600_000);

const SEED = Number(process.env.HOSTILE_SEED ?? 21);
const MALFORMED = ['wait=-1', 'wait=-0', 'wait=+5', 'wait=1.5', 'wait=1e3', 'wait="5"', 'wait=', 'wait', 'wait=0x1f', 'wait=x, wait=5'];
const CAPPED = ['wait=31', 'wait=999999999999999999999999999999', `wait=${'9'.repeat(2000)}`, 'respond-async, wait=86400'];
/** Bytes the service may grow by while hundreds of waits and streams are open at once. */
const MAX_RSS_GROWTH = 150 * 1024 * 1024;

describe('Prefer: wait and event streams under hostile use', () => {
  let h: HostileHarness;
  let key = '';
  let statusPath = '';
  let groupPath = '';
  const figures: Record<string, string> = {};

  beforeAll(async () => {
    h = await HostileHarness.start('waits and streams', { WAITS_PER_COMPANY: '1000', EVENT_STREAMS_PER_COMPANY: '1000' });
    const acme = await h.createCompany('acme');
    await h.raiseLimits(acme.companyId);
    key = acme.apiKey;
    await h.waitForDocuments(key, [await h.uploadText(key, TEXT_CVS.accountant, 'Accountant')]);
    const search = await h.call('POST', '/v1/public/searches/dense', { key, json: { query: 'accountant general ledger' } });
    const { searchId, searchGroupId } = search.json as { searchId: string; searchGroupId: string };
    await h.waitForSearch(key, searchId);
    statusPath = `/v1/public/searches/${searchId}`;
    groupPath = `/v1/public/searches/groups/${searchGroupId}`;
  });

  afterAll(async () => {
    h?.report(figures);
    await h?.destroy();
  });

  it('ignores a malformed wait (no Preference-Applied), caps a huge one at 30, and reads any Prefer header without a 5xx', async () => {
    const generated = fc.sample(fc.stringMatching(/^[ -~]{0,60}$/), { numRuns: 1000, seed: SEED });
    const cases = [...MALFORMED.map((v) => ({ v, kind: 'malformed' })), ...CAPPED.map((v) => ({ v, kind: 'capped' }))];
    const all = [...cases, ...generated.map((v) => ({ v, kind: 'generated' }))];
    const problems: string[] = [];
    let slowest = 0;
    await pool(all, 16, async ({ v, kind }, i) => {
      const path = i % 2 ? statusPath : groupPath;
      const answer = await h.call('GET', path, { key, headers: [['Prefer', v]], family: `prefer ${kind}` });
      slowest = Math.max(slowest, answer.ms);
      const applied = answer.headers['preference-applied'];
      if (answer.status !== 200) problems.push(`${JSON.stringify(v)}: ${answer.status}`);
      if (kind === 'malformed' && applied !== undefined) problems.push(`${JSON.stringify(v)} was applied: ${String(applied)}`);
      if (kind === 'capped' && applied !== 'wait=30') problems.push(`${JSON.stringify(v)} gave ${String(applied)}`);
      if (applied !== undefined && !/^wait=([0-9]|[12][0-9]|30)$/.test(String(applied)))
        problems.push(`${JSON.stringify(v)} gave ${String(applied)}`);
      if (!String(answer.headers.vary).includes('Prefer')) problems.push(`${JSON.stringify(v)}: no Vary: Prefer`);
    });
    figures['Prefer headers read'] = `${all.length}, slowest answer ${slowest.toFixed(0)} ms`;
    expect(problems).toEqual([]);
    // The search had ended: an honoured wait, however long, answers at once.
    expect(slowest).toBeLessThan(5000);
    expect(h.ledger.failureGroups).toBe(0);
  });

  it('answers 600 waits and 600 event streams sent 100 at once, with the service’s memory bounded', async () => {
    h.rss.reset();
    const requests = Array.from({ length: 1200 }, (_, i) => i);
    let streams = 0;
    let waits = 0;
    await pool(requests, 100, async (i) => {
      if (i % 2) {
        const answer = await h.call('GET', `${statusPath}/events`, {
          key,
          headers: [['Accept', 'text/event-stream']],
          family: 'event stream',
        });
        if (answer.status === 200 && answer.text.includes('event: status') && answer.text.includes('id: 3')) streams++;
      } else {
        const answer = await h.call('GET', statusPath, { key, headers: [['Prefer', 'wait=30']], family: 'wait' });
        if (answer.status === 200 && answer.headers['preference-applied'] === 'wait=30') waits++;
      }
    });
    const rss = h.rss.stop();
    figures['waits and streams'] = `${waits} waits and ${streams} streams answered; RSS first ${mb(rss.first)}, peak ${mb(rss.peak)}`;
    h.rss.start();
    expect({ waits, streams }).toEqual({ waits: 600, streams: 600 });
    expect(rss.peak - rss.first).toBeLessThan(MAX_RSS_GROWTH);
    expect(h.alive()).toBe(true);
    expect(h.ledger.failureGroups).toBe(0);
  });
});
