import { BM25_B, BM25_K1, idf, lengthNorm, termScore, termUpperBound } from './bm25';
import { RM3, feedbackShares, feedbackTermWeights, queryShares, rm3Expand } from './rm3';

describe('BM25', () => {
  it('uses k1 1.5 and b 0.75, and an idf that never goes negative', () => {
    expect([BM25_K1, BM25_B]).toEqual([1.5, 0.75]);
    expect(idf(10, 10)).toBeGreaterThan(0);
    expect(idf(1, 100)).toBeCloseTo(Math.log(1 + 99.5 / 1.5));
  });

  it('scores a term as Robertson and Zaragoza do, approaching its upper bound as its count grows', () => {
    const [tf, length, average, termIdf] = [3, 120, 80, 2.2];
    const textbook = (termIdf * tf * (BM25_K1 + 1)) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * length) / average));
    expect(termScore(tf, lengthNorm(length, average), termUpperBound(termIdf))).toBeCloseTo(textbook, 12);
    expect(termScore(1e9, lengthNorm(length, average), termUpperBound(termIdf, 0.5))).toBeCloseTo(termUpperBound(termIdf, 0.5), 6);
    // A longer document holds a term less strongly.
    expect(termScore(tf, lengthNorm(200, average), 1)).toBeLessThan(termScore(tf, lengthNorm(50, average), 1));
  });
});

describe('RM3', () => {
  const top = [
    {
      score: 4,
      length: 10,
      terms: [
        ['ledger', 2],
        ['reconcil', 4],
        ['manag', 4],
      ] as const,
    },
    {
      score: 2,
      length: 5,
      terms: [
        ['ledger', 1],
        ['payrol', 4],
      ] as const,
    },
  ];
  const rarity = new Map([
    ['ledger', 2],
    ['reconcil', 3],
    ['manag', 0.01],
    ['payrol', 2.5],
  ]);

  it('weighs feedback words by their share of each CV, the CV score and their rarity, best first', () => {
    const weights = feedbackTermWeights(top, (t) => rarity.get(t) ?? 0);
    expect(weights.map(([t]) => t)).toEqual(['reconcil', 'ledger', 'payrol', 'manag']);
    // The second CV counts exp(-2 / 1) as much as the best: its score is half the best's.
    expect(weights.find(([t]) => t === 'payrol')?.[1]).toBeCloseTo((4 / 5) * Math.exp(-2) * 2.5, 12);
  });

  it('mixes the query (share 0.6) with the feedback words (the rest); a word in both gets both', () => {
    const query = new Map([
      ['ledger', 1],
      ['general', 1],
    ]);
    const expanded = rm3Expand(query, top, (t) => rarity.get(t) ?? 0);
    const total = [...expanded.values()].reduce((s, v) => s + v, 0);
    expect(total).toBeCloseTo(1, 12);
    expect([...queryShares(query).values()]).toEqual([RM3.queryWeight / 2, RM3.queryWeight / 2]);
    const feedback = feedbackShares(feedbackTermWeights(top, (t) => rarity.get(t) ?? 0));
    expect(expanded.get('ledger')).toBeCloseTo(RM3.queryWeight / 2 + (feedback.get('ledger') ?? 0), 12);
    expect(expanded.get('general')).toBe(RM3.queryWeight / 2);
    // The query's words keep their order, the feedback's new words follow.
    expect([...expanded.keys()].slice(0, 2)).toEqual(['ledger', 'general']);
  });

  it('leaves the query as it was when the first pass found nothing', () => {
    expect(rm3Expand(new Map([['cobol', 2]]), [], () => 1)).toEqual(new Map([['cobol', 2]]));
  });
});
