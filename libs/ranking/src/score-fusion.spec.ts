import { convexFusion } from './score-fusion';

describe('convexFusion', () => {
  it("adds each list's min-max normalised score at its share, a list lacking an id counting 0", () => {
    const fused = convexFusion(
      [
        { id: 'a', score: 0.8 },
        { id: 'b', score: 0.6 },
        { id: 'c', score: 0.4 },
      ],
      [
        { id: 'c', score: 0.9 },
        { id: 'b', score: 0.5 },
        { id: 'x', score: 0.1 },
      ],
      0.6,
    );
    // b: half way in both lists; c: last in dense (0) and first in sparse.
    expect(fused.map((f) => [f.id, Number(f.score.toFixed(10))])).toEqual([
      ['a', 0.6],
      ['b', 0.5],
      ['c', 0.4],
      ['x', 0],
    ]);
    expect(fused[1].normalized).toBeCloseTo(0.5 / 0.6, 10);
  });

  it('keeps how far apart the scores are, unlike ranks', () => {
    const fused = convexFusion(
      [
        { id: 'a', score: 0.9 },
        { id: 'b', score: 0.3 },
        { id: 'c', score: 0.29 },
      ],
      [],
    );
    expect(fused[1].normalized).toBeCloseTo(0.01 / 0.61, 10);
  });

  it('counts every hit of a list whose scores do not differ as its best', () => {
    expect(convexFusion([{ id: 'a', score: 0.5 }], [{ id: 'a', score: 0.2 }]).map((f) => f.normalized)).toEqual([1]);
  });
});
