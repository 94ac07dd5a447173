import { reciprocalRankFusion } from './rrf';

describe('reciprocalRankFusion', () => {
  it('ranks ids found by both lists above ids found by one', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['x', 'c', 'y'],
    ]);
    expect(fused[0].id).toBe('c');
    expect(fused[0].ranks).toEqual([3, 2]);
    expect(fused.find((f) => f.id === 'x')?.ranks).toEqual([null, 1]);
  });

  it('scales the score so first in every list is 1', () => {
    const [top] = reciprocalRankFusion([['a'], ['a']]);
    expect(top.normalized).toBeCloseTo(1, 10);
  });
});
