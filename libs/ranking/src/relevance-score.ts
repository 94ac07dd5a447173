/**
 * How a ranking's raw values become the 0..1 scores clients see. A plain logistic of the
 * reranker's sum saturated (the best 7 of a search at 0.9999), so clients could not filter on
 * score. Instead a CV's raw value is read as standard deviations above the mean of the search's
 * candidates (z), and z goes through a logistic: 0.5 at z 2, 0.82 at 3, 0.95 at 4, above 0.99
 * only beyond 5, where a CV stands far apart from the rest. Set on the 18 nl and mixed dev queries'
 * candidate lists (livecareer): the best CV of a search then scored 0.30 to 0.99, median 0.67
 * over dense's 200 candidates (0.52 to 0.998, median 0.83 over 430), none above 0.99 at 200, one
 * at 430; a slope of 2 put three at 430 above 0.99.
 */
export const SCORE_CALIBRATION: Readonly<{ slope: number; centre: number; minStep: number; steppedPlaces: number }> = {
  slope: 1.5,
  centre: 2,
  /** The first places are kept at least this far apart, so that near ties still read apart at 3 decimals. */
  minStep: 0.001,
  steppedPlaces: 20,
};

/** z-scores; all zeros when the values do not vary. */
export function standardise(values: ArrayLike<number>): Float64Array {
  const all = Array.from(values);
  const n = all.length;
  const mean = all.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(all.reduce((s, v) => s + (v - mean) ** 2, 0) / n);
  return Float64Array.from(all, (v) => (sd > 1e-12 ? (v - mean) / sd : 0));
}

/** The 0..1 score of a CV that stands `z` standard deviations above its search's mean. */
export function scoreOfZ(z: number): number {
  return 1 / (1 + Math.exp(-SCORE_CALIBRATION.slope * (z - SCORE_CALIBRATION.centre)));
}

/**
 * Scores given best first, made strictly falling over the first `steppedPlaces` by at least
 * `minStep` (a near tie is lowered by that much, never raised), and never below 0. The order is
 * the caller's: only the values change, by a few thousandths at most.
 */
export function separateTop(scores: readonly number[]): number[] {
  const out = [...scores];
  const { minStep, steppedPlaces } = SCORE_CALIBRATION;
  for (let i = 1; i < Math.min(out.length, steppedPlaces); i++) out[i] = Math.max(0, Math.min(out[i], out[i - 1] - minStep));
  // Past the stepped places, only keep the order (a lowered place must not sit below the next).
  for (let i = Math.min(out.length, steppedPlaces); i < out.length; i++) out[i] = Math.min(out[i], out[i - 1]);
  return out;
}
