import { ndcgAt, parseQrels, recallAt, reciprocalRank } from './metrics';

describe('relevance metrics', () => {
  const judged = parseQrels('q 0 a 2\nq 0 b 1\nq 0 c 2\n').get('q')!;

  it('scores the ideal ranking 1 and a worse one lower', () => {
    expect(ndcgAt(['a', 'c', 'b'], judged, 10)).toBeCloseTo(1, 10);
    expect(ndcgAt(['b', 'x', 'a'], judged, 10)).toBeLessThan(0.7);
    expect(ndcgAt(['b'], judged, 10, 2)).toBe(0);
  });

  it('counts recall over all relevant and the first relevant rank', () => {
    expect(recallAt(['x', 'a', 'y', 'b'], judged, 2)).toBeCloseTo(1 / 3, 10);
    expect(reciprocalRank(['x', 'y', 'c'], judged)).toBeCloseTo(1 / 3, 10);
    expect(reciprocalRank(['x'], judged)).toBe(0);
  });
});
