import { dot } from './sentence-embedder';
import { feedbackQuery } from './query-feedback';

const unit = (...values: number[]) => Float32Array.from(values, (x) => x / Math.hypot(...values));

describe('feedbackQuery (Rocchio towards the best CVs)', () => {
  it('moves the query towards the centroid of the best CVs, by the weight, at unit length', () => {
    const query = unit(1, 0, 0);
    const best = [unit(0, 1, 0), unit(0, 1, 1)];
    const moved = feedbackQuery(query, best, 1);
    expect(Math.hypot(...moved)).toBeCloseTo(1, 5);
    const centroid = unit(0, 1 + Math.SQRT1_2, Math.SQRT1_2);
    expect(dot(moved, centroid)).toBeGreaterThan(dot(query, centroid));
    expect(dot(feedbackQuery(query, best, 3), centroid)).toBeGreaterThan(dot(moved, centroid));
    expect(query).toEqual(unit(1, 0, 0)); // the query itself is left as it was
  });

  it('leaves the query as it is without CVs to learn from', () => {
    expect(feedbackQuery(unit(1, 2, 2), [])).toEqual(unit(1, 2, 2));
  });
});
