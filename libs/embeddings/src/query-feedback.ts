import { normalize } from './sentence-embedder';

/**
 * Pseudo-relevance feedback for dense search (Rocchio, without negatives): the query moves
 * towards the centroid of its best `documents` CVs by `weight`, and is searched again. The best
 * few CVs say, in a CV's own words, what the query is after, which a short query's average of
 * word vectors misses. Measured on the dev queries (dense, 2.5k CVs): nDCG@10 0.755 -> 0.789,
 * R@100 0.448 -> 0.447; semantic dev 0.674 -> 0.755, R@100 0.395 -> 0.452. Weights 1 to 3 and
 * 5 to 15 documents all did about as well.
 */
export const QUERY_FEEDBACK: Readonly<{ documents: number; weight: number; minDocuments: number }> = {
  documents: 10,
  weight: 2,
  /** Below this many CVs the best few are much of the company, and their centroid says little. */
  minDocuments: 30,
};

/** The query moved towards the centroid of `best` (unit vectors), at unit length. */
export function feedbackQuery(query: Float32Array, best: readonly Float32Array[], weight = QUERY_FEEDBACK.weight): Float32Array {
  const moved = Float32Array.from(query);
  if (best.length === 0) return moved;
  for (const vector of best) for (let d = 0; d < moved.length; d++) moved[d] += (weight * vector[d]) / best.length;
  return normalize(moved);
}
