/**
 * Dense's share of hybrid's fused score; keywords have the rest. Equal: each share from 0.5 to
 * 0.8 did better than reciprocal-rank fusion on both dev query sets, and 0.6, tuned on them, did
 * not hold when each category was left out in turn (docs/decisions/ranking-under-folds.md).
 */
export const DENSE_SHARE = 0.5;

export interface Scored {
  id: string;
  score: number;
}

export interface ScoreFused {
  id: string;
  /** Dense's share of its min-max normalised dense score plus the rest of its keyword one. */
  score: number;
  /** The fused score over the best one's: 0..1. */
  normalized: number;
}

/**
 * Fuses two ranked lists by a convex combination of their min-max normalised scores: unlike
 * reciprocal-rank fusion it keeps how far apart the scores are, so a CV far ahead in one list
 * stays ahead, and one a list lacks counts that list's lowest (Bruch et al., 2023, found the
 * same over several retrieval sets).
 */
export function convexFusion(dense: readonly Scored[], sparse: readonly Scored[], denseShare = DENSE_SHARE): ScoreFused[] {
  const fused = new Map<string, number>();
  const add = (list: readonly Scored[], share: number) => {
    const normalised = minMax(list.map((s) => s.score));
    list.forEach((s, i) => fused.set(s.id, (fused.get(s.id) ?? 0) + share * normalised[i]));
  };
  add(dense, denseShare);
  add(sparse, 1 - denseShare);
  let best = 0;
  for (const score of fused.values()) best = Math.max(best, score);
  return [...fused]
    .map(([id, score]) => ({ id, score, normalized: best > 0 ? score / best : 0 }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/** Each value's place between the lowest (0) and the highest (1); all 1 when they do not differ. */
function minMax(values: readonly number[]): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  return values.map((v) => (hi > lo ? (v - lo) / (hi - lo) : 1));
}
