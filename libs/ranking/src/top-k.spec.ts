import { topK } from './top-k';

describe('topK', () => {
  it('returns the k best positive scores, best first, ties by slot', () => {
    const scores = Float64Array.from([0, 3, 1, 3, 0.5, -1, 2]);
    expect(topK(scores, 3)).toEqual([
      [1, 3],
      [3, 3],
      [6, 2],
    ]);
    expect(topK(scores, 10).map(([slot]) => slot)).toEqual([1, 3, 6, 2, 4]);
    expect(topK(scores, 2, (slot) => slot !== 1)).toEqual([
      [3, 3],
      [6, 2],
    ]);
  });

  it('agrees with a full sort on random scores', () => {
    const scores = Float64Array.from({ length: 5000 }, (_, i) => ((i * 7919) % 1009) / 1009);
    const expected = [...scores.keys()]
      .filter((i) => scores[i] > 0)
      .sort((a, b) => scores[b] - scores[a] || a - b)
      .slice(0, 50);
    expect(topK(scores, 50).map(([slot]) => slot)).toEqual(expected);
    const odd = [...scores.keys()]
      .filter((i) => scores[i] > 0 && i % 2 === 1)
      .sort((a, b) => scores[b] - scores[a] || a - b)
      .slice(0, 50);
    expect(topK(scores, 50, (slot) => slot % 2 === 1).map(([slot]) => slot)).toEqual(odd);
    expect(topK(scores, 0)).toEqual([]);
  });
});
