import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeKeywordIndexContract } from '@cs/ports/testing';
import { parseQuery } from '@cs/text-analysis';
import { LanceDbKeywordIndex } from './lancedb-keyword.index';
import { filesHolding } from './testing/files-holding';

const folders: string[] = [];
let folder = '';
const openIn = (dir: string) => LanceDbKeywordIndex.open(dir, { eraseEveryMs: 0 });

afterAll(async () => {
  for (const dir of folders) await fs.rm(dir, { recursive: true, force: true });
});

describeKeywordIndexContract(
  'lancedb',
  async () => {
    folder = await fs.mkdtemp(path.join(os.tmpdir(), 'lance-keywords-'));
    folders.push(folder);
    return openIn(folder);
  },
  () => openIn(folder),
);

describe('LanceDbKeywordIndex', () => {
  let dir: string;
  let index: LanceDbKeywordIndex;
  const ids = async (query: string, companyId = 'c1') => (await index.search(companyId, parseQuery(query), 10)).map((h) => h.documentId);

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'lance-keywords-'));
    index = await openIn(dir);
  });
  afterEach(async () => {
    await index.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('matches a quoted phrase only where its words stand together, in order', async () => {
    await index.upsert('c1', 'together', 'Analyst. Built machine learning models for churn.');
    await index.upsert('c1', 'apart', 'Analyst. Learning new tools; machine maintenance.');
    await index.upsert('c1', 'reversed', 'Analyst. Learning machine operation.');
    const hits = await index.search('c1', parseQuery('"machine learning"'), 10);
    expect(hits[0].documentId).toBe('together');
    expect(hits[0].matchedTerms).toEqual(['machine learning']);
    // The others hold both words, not the phrase: they rank lower and do not match it.
    expect(hits.slice(1).map((h) => h.matchedTerms)).toEqual([[], []]);
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });

  it('reports the parts a hit matches, a part of several words only when it holds them all', async () => {
    await index.upsert('c1', 'cv', 'Engineer. Python and Kubernetes on AWS.');
    const [hit] = await index.search('c1', parseQuery('python, kubernetes, machine learning'), 10);
    expect(hit.matchedTerms).toEqual(['python', 'kubernetes']);
    expect(hit.score).toBeGreaterThan(0);
    expect(hit.score).toBeLessThanOrEqual(hit.maxScore);
  });

  it('never returns a CV without a query word, however much it shares with the best hits', async () => {
    // The feedback words of a "payroll" search (ledger, reconciliation, invoices) fill the third CV.
    await index.upsert('c1', 'payroll-1', 'Accountant. Payroll, general ledger, reconciliation, invoices.');
    await index.upsert('c1', 'payroll-2', 'Bookkeeper. Payroll and invoices; ledger reconciliation.');
    await index.upsert('c1', 'no-payroll', 'Clerk. General ledger, reconciliation, invoices, ledger, invoices.');
    await index.upsert('c1', 'chef', 'Chef. Menus and kitchen.');
    expect((await ids('payroll')).sort()).toEqual(['payroll-1', 'payroll-2']);
  });

  it('ranks a headline word above the same word in the body', async () => {
    await index.upsert('c1', 'body', 'Manager\nWorked beside a welder for years on site.');
    await index.upsert('c1', 'headline', 'Welder\nWorked for years on site beside a manager.');
    expect(await ids('welder')).toEqual(['headline', 'body']);
  });

  it('keeps odd document ids as they are', async () => {
    const odd = ["o'brien; DROP TABLE x", 'spaces and "quotes"', 'ünïcode/斜線', ''];
    for (const id of odd) await index.upsert('c1', id, `Welder ${id.length}`);
    expect((await ids('welder')).sort()).toEqual([...odd].sort());
    expect(await index.delete('c1', odd[0])).toBe(1);
    expect(await index.count('c1')).toBe(odd.length - 1);
  });

  it('replaces a CV on upsert: its old words no longer find it', async () => {
    await index.upsert('c1', 'cv', 'Welder. Pipelines.');
    await index.upsert('c1', 'cv', 'Baker. Bread.');
    expect(await ids('welder')).toEqual([]);
    expect(await ids('bread')).toEqual(['cv']);
    expect(await index.count('c1')).toBe(1);
  });

  it('leaves no word of a deleted CV in the folder after compact', async () => {
    await index.upsert('c1', 'kept', 'Chef. Menus and kitchen.');
    await index.upsert('c1', 'gone', 'Zookeeper. Zanzibarquokka enclosures.');
    expect((await filesHolding(dir, 'zanzibarquokka')).length).toBeGreaterThan(0);
    expect(await index.delete('c1', 'gone')).toBe(1);
    await index.compact();
    expect(await filesHolding(dir, 'zanzibarquokka')).toEqual([]);
    expect(await ids('zanzibarquokka')).toEqual([]);
    expect(await ids('kitchen')).toEqual(['kept']);
  });

  it('counts document frequencies again after a reopen, as they were', async () => {
    await index.upsert('c1', 'a', 'Welder. Pipelines.');
    await index.upsert('c1', 'b', 'Welder. Bridges.');
    await index.upsert('c1', 'c', 'Baker. Bread.');
    const before = await index.search('c1', parseQuery('welder, bread'), 10);
    await index.close();
    index = await openIn(dir);
    expect(await index.search('c1', parseQuery('welder, bread'), 10)).toEqual(before);
  });
});
