import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CONDITION_CASES, CONDITION_CVS, describeKeywordIndexContract } from '@cs/ports/testing';
import { skillKey } from '@cs/search-filters';
import { conditionJudge, parseKeywordQuery, parseQuery } from '@cs/text-analysis';
import { EmbeddedBm25Index } from './embedded-bm25.index';

let dir = '';
describeKeywordIndexContract(
  'embedded BM25',
  async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-'));
    return EmbeddedBm25Index.open(dir);
  },
  () => EmbeddedBm25Index.open(dir),
);

describe('conditions judged from a CV’s text (hybrid’s dense candidates)', () => {
  it.each(CONDITION_CASES)('agree with the index: $name', async ({ companyId, query, expected }) => {
    const parsed = parseKeywordQuery(query, { skillKey });
    const index = await EmbeddedBm25Index.open(await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-')));
    for (const cv of CONDITION_CVS) await index.upsert(cv.companyId, cv.id, cv.text, cv.attributes);
    const fromIndex = (await index.search(companyId, parsed, 100)).map((h) => h.documentId).sort();
    await index.close();
    const judge = conditionJudge(parsed);
    const fromText = CONDITION_CVS.filter((cv) => cv.companyId === companyId && judge(cv.text, cv.attributes?.skills ?? [])).map(
      (cv) => cv.id,
    );
    expect(fromText.sort()).toEqual(expected);
    expect(fromIndex).toEqual(expected);
  });
});

describe('embedded BM25 relevance', () => {
  it('counts headline words twice and ranks with feedback words, keeping to CVs that hold a query word', async () => {
    const index = await EmbeddedBm25Index.open(await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-')));
    await index.upsert('c', 'title', 'Accountant\nPrepared reports for the accountant team and payroll.');
    await index.upsert('other-company', 'body', 'Clerk\nPrepared reports for the accountant team and payroll.');
    // Share one query word; the feedback words (payroll) lift the first.
    await index.upsert('c', 'related', 'Bookkeeper\nPayroll, ledgers, payroll taxes, accountant.');
    await index.upsert('c', 'weaker', 'Bookkeeper\nFiling, sorting, typing, scanning, accountant.');
    await index.upsert('c', 'no-word', 'Bookkeeper\nPayroll, payroll and payroll.');
    for (let i = 0; i < 20; i++) await index.upsert('c', `unrelated-${i}`, `Chef\nMenus, kitchen staff, catering and banquets ${i}.`);
    await index.upsert('c', 'body', 'Clerk\nPrepared reports for the accountant team and payroll.');
    const hits = await index.search('c', parseQuery('accountant'), 10);
    const order = hits.map((h) => h.documentId);
    expect(order[0]).toBe('title');
    expect(order.indexOf('related')).toBeLessThan(order.indexOf('weaker'));
    expect(order.sort()).toEqual(['body', 'related', 'title', 'weaker']); // never 'no-word'
    await index.close();
  });
});

describe('embedded BM25 phrases and memory', () => {
  it('ranks a quoted phrase held in order above its words apart, and says which CVs hold it', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-'));
    const index = await EmbeddedBm25Index.open(dir);
    await index.upsert('c', 'apart', 'Clerk\nKept the ledger for the general manager.');
    await index.upsert('c', 'together', 'Clerk\nKept the general ledger for the manager.');
    for (let i = 0; i < 10; i++) await index.upsert('c', `other-${i}`, `Chef ${i}\nMenus and kitchen.`);
    const hits = await index.search('c', parseQuery('"general ledger"'), 10);
    expect(hits.map((h) => [h.documentId, h.matchedTerms])).toEqual([
      ['together', ['general ledger']],
      ['apart', []],
    ]);
    await index.close();
    // Reopened from its log, it still knows word order.
    const reopened = await EmbeddedBm25Index.open(dir);
    expect((await reopened.search('c', parseQuery('"general ledger"'), 10))[0].documentId).toBe('together');
    await reopened.close();
  });
});

describe('embedded BM25 matched terms', () => {
  it('says which query words each CV holds, for short queries and for queries of more than 32 words', async () => {
    const index = await EmbeddedBm25Index.open(await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-')));
    await index.upsert('c', 'both', 'Clerk\nKubernetes and payroll.');
    await index.upsert('c', 'one', 'Clerk\nPayroll only.');
    for (let i = 0; i < 10; i++) await index.upsert('c', `other-${i}`, `Chef ${i}\nMenus and kitchen.`);
    const filler = Array.from(
      { length: 35 },
      (_, i) => `zz${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    );
    for (const query of ['kubernetes, payroll', ['kubernetes', 'payroll', ...filler].join(', ')]) {
      const matched = new Map((await index.search('c', parseQuery(query), 10)).map((h) => [h.documentId, h.matchedTerms]));
      expect(matched.get('both')).toEqual(['kubernetes', 'payroll']);
      expect(matched.get('one')).toEqual(['payroll']);
    }
    await index.close();
  });
});

const ROLES = ['Accountant', 'Payroll clerk', 'Chef', 'Nurse', 'Java developer'];

/** Each query's top 50 in company `c`: what a reopened or compacted index must reproduce exactly. */
const rankings = (index: EmbeddedBm25Index, queries: readonly string[]) =>
  Promise.all(queries.map((q) => index.search('c', parseQuery(q), 50)));

describe('embedded BM25 replay', () => {
  it.each([
    ['its whole log', true],
    ['the snapshot saved at close', false],
  ])(
    'reopened from %s after puts, replacements and deletions, ranks exactly as before, and keeps indexing',
    async (_from, dropSnapshot) => {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-'));
      const live = await EmbeddedBm25Index.open(dir);
      const skills = ['payroll ledgers', 'kubernetes java', 'menus kitchen', 'patient care', 'general ledger audits'];
      for (let i = 0; i < 40; i++) await live.upsert('c', `cv-${i}`, `${ROLES[i % 5]}\n${skills[i % 5]} ${skills[(i * 3) % 5]} year ${i}.`);
      for (let i = 0; i < 40; i += 7) await live.delete('c', `cv-${i}`);
      for (let i = 1; i < 40; i += 9) await live.upsert('c', `cv-${i}`, `Auditor\ngeneral ledger audits and payroll ${i}.`);
      await live.upsert('other', 'cv-0', 'Chef\nmenus kitchen.');
      const queries = ['payroll, ledger', '"general ledger"', 'java', 'kitchen menus'];
      const before = await rankings(live, queries);
      await live.close();
      const snapshot = path.join(dir, 'bm25', 'bm25.jsonl.snapshot');
      await fs.access(snapshot);
      if (dropSnapshot) await fs.rm(snapshot);

      const reopened = await EmbeddedBm25Index.open(dir);
      expect(await rankings(reopened, queries)).toEqual(before);
      expect(await reopened.count('c')).toBe(35); // six deleted, one of them (cv-28) put again
      expect((await reopened.search('other', parseQuery('kitchen'), 5)).map((h) => h.documentId)).toEqual(['cv-0']);
      // Posting lists built at their exact sizes (or restored as they were) still grow, and shrink, afterwards.
      await reopened.upsert('c', 'new', 'Payroll clerk\npayroll payroll ledgers.');
      await reopened.delete('c', 'cv-1');
      const hits = await reopened.search('c', parseQuery('payroll'), 50);
      expect(hits[0].documentId).toBe('new');
      expect(hits.map((h) => h.documentId)).not.toContain('cv-1');
      // Those two changes are only in the log: an open without a close in between replays them.
      const afterCrash = await EmbeddedBm25Index.open(dir);
      expect(await rankings(afterCrash, ['payroll'])).toEqual(await rankings(reopened, ['payroll']));
      await afterCrash.close();
      await reopened.close();
    },
  );
});

describe('embedded BM25 vocabulary', () => {
  /** A CV of `count` words no other CV holds: codes, names, garbage. */
  const uniqueWords = (tag: string, count: number) => Array.from({ length: count }, (_, i) => `${tag}x${i.toString(36)}q`).join(' ');

  it('drops the words only deleted CVs held, in memory and at a snapshot, and ranks the rest exactly as before', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-'));
    const index = await EmbeddedBm25Index.open(dir);
    // The churned CVs come first, so the kept CVs' words are renumbered when theirs go.
    for (let i = 0; i < 30; i++) await index.upsert('c', `churn-${i}`, `Clerk\n${uniqueWords(`w${i}`, 500)}`);
    for (let i = 0; i < 10; i++) await index.upsert('c', `keep-${i}`, `${ROLES[i % 5]}\npayroll ledgers kitchen menus year ${i}.`);
    const queries = ['payroll, ledger', '"kitchen menus"', 'accountant', 'w26x0q'];
    const full = index.vocabularySize('c');
    for (let i = 0; i < 19; i++) await index.delete('c', `churn-${i}`);
    expect(index.vocabularySize('c')).toBe(full); // 9,500 empty words: kept for now
    const before = await rankings(index, queries);
    // Replacing a CV removes it first: its 500 words make 10,000, which go. Its new text, as long
    // as the old and of live words, leaves every score as it was.
    await index.upsert('c', 'churn-19', `Clerk\n${uniqueWords('w25', 500)}`);
    expect(index.vocabularySize('c')).toBe(full - 10_000);
    expect(await rankings(index, queries)).toEqual(before);
    await index.upsert('c', 'after', 'Accountant\npayroll quokka ledgers.');
    expect((await index.search('c', parseQuery('quokka'), 5)).map((h) => h.documentId)).toEqual(['after']);
    await index.delete('c', 'after');
    await index.close();

    const reopened = await EmbeddedBm25Index.open(dir);
    expect(await rankings(reopened, queries)).toEqual(before);
    for (let i = 20; i < 30; i++) await reopened.delete('c', `churn-${i}`);
    const left = await rankings(reopened, queries);
    await reopened.close(); // its snapshot leaves out the 4,500 words just emptied
    const again = await EmbeddedBm25Index.open(dir);
    expect(again.vocabularySize('c')).toBe(full - 14_500); // churn-19 holds churn-25's words
    expect(await rankings(again, queries)).toEqual(left);
    await again.close();
  });

  it("leaves a deleted CV's words out of the snapshot that compaction saves", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-'));
    const index = await EmbeddedBm25Index.open(dir);
    await index.upsert('c', 'kept', 'Accountant\npayroll ledgers.');
    await index.upsert('c', 'erased', 'Chef\nZaphodbeeblebrox menus kitchen.');
    await index.delete('c', 'erased');
    await index.compact();
    const snapshot = await fs.readFile(path.join(dir, 'bm25', 'bm25.jsonl.snapshot'));
    expect(snapshot.includes('zaphodbeeblebrox')).toBe(false);
    expect(snapshot.includes('ledger')).toBe(true);
    await index.close();
    const reopened = await EmbeddedBm25Index.open(dir);
    expect(reopened.vocabularySize('c')).toBe(index.vocabularySize('c'));
    expect((await reopened.search('c', parseQuery('payroll'), 5)).map((h) => h.documentId)).toEqual(['kept']);
    await reopened.close();
  });
});

describe('embedded BM25 compaction', () => {
  it('rewrites its log from memory, word order and counts included, and ranks exactly as before', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-'));
    const first = await EmbeddedBm25Index.open(dir);
    const skills = ['payroll ledgers payroll', 'kubernetes java', 'menus kitchen menus', 'patient care', 'general ledger audits'];
    // Over a thousand superseded records: the next open rewrites the log.
    for (let round = 0; round < 60; round++) {
      for (let i = 0; i < 20; i++)
        await first.upsert('c', `cv-${i}`, `${ROLES[i % 5]}\n${skills[(i + round) % 5]} ${skills[(i * 3) % 5]} general ledger year ${i}.`);
    }
    const queries = ['payroll, ledger', '"general ledger"', '"ledger general"', 'java', 'kitchen menus', 'accountant'];
    const before = await rankings(first, queries);
    await first.close();
    const logBytes = (await fs.stat(path.join(dir, 'bm25', 'bm25.jsonl'))).size;
    const compacted = await EmbeddedBm25Index.open(dir);
    expect((await fs.stat(path.join(dir, 'bm25', 'bm25.jsonl'))).size).toBeLessThan(logBytes / 10);
    expect(await rankings(compacted, queries)).toEqual(before);
    await compacted.close();
    const again = await EmbeddedBm25Index.open(dir);
    expect(await rankings(again, queries)).toEqual(before);
    await again.close();
  });

  it('still reads records of the first format, which carried counts and no word order', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-'));
    await fs.mkdir(path.join(dir, 'bm25'), { recursive: true });
    const legacy = { op: 'put', c: 'c', d: 'old', len: 4, tf: { payrol: 2, ledger: 1, clerk: 1 } };
    await fs.writeFile(path.join(dir, 'bm25', 'bm25.jsonl'), `${JSON.stringify(legacy)}\n`);
    const index = await EmbeddedBm25Index.open(dir);
    await index.upsert('c', 'new', 'Chef\nMenus and payroll.');
    const hits = await index.search('c', parseQuery('payroll'), 10);
    expect(hits.map((h) => h.documentId)).toEqual(['old', 'new']);
    await index.close();
  });
});

describe('embedded BM25 phrase look-up', () => {
  it('finds exactly the CVs whose words hold the phrase in order, over seeded texts where words repeat', async () => {
    const words = ['ledger', 'payroll', 'audit', 'kitchen', 'nurse', 'java'];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = (length: number) => Array.from({ length }, () => words[next(words.length)]);
    const index = await EmbeddedBm25Index.open(await fs.mkdtemp(path.join(os.tmpdir(), 'bm25-')));
    const texts = new Map<string, string[]>();
    for (let i = 0; i < 150; i++) {
      const cvWords = pick(3 + next(30));
      texts.set(`cv-${i}`, cvWords);
      await index.upsert('c', `cv-${i}`, `Clerk\n${cvWords.join(' ')}.`);
    }
    const holds = (cvWords: string[], phrase: string[]) =>
      cvWords.some((_, start) => phrase.every((word, k) => cvWords[start + k] === word));
    for (let round = 0; round < 60; round++) {
      const phrase = pick(2 + next(3));
      const expected = [...texts].filter(([, cvWords]) => holds(cvWords, phrase)).map(([id]) => id);
      expect((await index.documentsWithPhrase('c', phrase.join(' '), 1000)).sort()).toEqual(expected.sort());
    }
    await index.close();
  });
});
