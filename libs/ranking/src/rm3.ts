import { topK } from './top-k';

/**
 * Pseudo-relevance feedback (RM3, Lavrenko & Croft): the best-scoring CVs of a first pass lend
 * their most telling words to a second pass, which finds CVs that describe the same work in other
 * words. Tuned on the dev queries: recall@100 rose from 0.478 to 0.493.
 */
export const RM3 = { documents: 15, terms: 40, queryWeight: 0.6 } as const;

/** A first-pass CV as feedback reads it: its score, its length in terms, and its term counts. */
export interface FeedbackDocument<T = string> {
  score: number;
  length: number;
  terms: Iterable<readonly [term: T, count: number]>;
}

/**
 * The words that best characterise the first pass's best CVs (`top`, best first), best first,
 * each weighed by its share of each CV, the CV's score and the word's rarity. Terms may be keyed
 * by anything `nameOf` turns into the word (an index's term ids, say): thousands of words pass
 * through here on every search, and only the chosen few need their names.
 */
export function feedbackTermWeights<T = string>(
  top: readonly FeedbackDocument<T>[],
  idfOf: (term: T) => number,
  nameOf: (term: T) => string = (term) => term as unknown as string,
): (readonly [term: string, weight: number])[] {
  if (top.length === 0) return [];
  const best = top[0].score;
  // Rarity is the same in every CV: it multiplies each term's summed share once.
  const shares = new Map<T, number>();
  for (const doc of top) {
    const perCount = Math.exp((doc.score - best) / Math.max(1e-9, best / 4)) / Math.max(1, doc.length);
    for (const [term, count] of doc.terms) shares.set(term, (shares.get(term) ?? 0) + count * perCount);
  }
  const terms = [...shares.keys()];
  const values = Float64Array.from(terms, (term) => shares.get(term)! * idfOf(term));
  return topK(values, RM3.terms).map(([at, value]) => [nameOf(terms[at]), value] as const);
}

/** The query's word weights scaled to sum to RM3's share for the query, in the query's order. */
export function queryShares(weights: ReadonlyMap<string, number>): Map<string, number> {
  const queryTotal = [...weights.values()].reduce((s, v) => s + v, 0) || 1;
  const shares = new Map<string, number>();
  for (const [term, w] of weights) shares.set(term, (RM3.queryWeight * w) / queryTotal);
  return shares;
}

/** The feedback words' weights scaled to sum to the rest (1 - RM3's share for the query), best first. */
export function feedbackShares(feedback: readonly (readonly [term: string, weight: number])[]): Map<string, number> {
  const feedbackTotal = feedback.reduce((s, [, v]) => s + v, 0) || 1;
  const shares = new Map<string, number>();
  for (const [term, v] of feedback) shares.set(term, (shares.get(term) ?? 0) + ((1 - RM3.queryWeight) * v) / feedbackTotal);
  return shares;
}

/**
 * RM3's second query: the query's own weights (share `RM3.queryWeight`) plus the feedback words
 * (the rest), a word in both getting both. The same for every keyword index, so that they rank
 * alike; with no first-pass CVs, the query as it was.
 */
export function rm3Expand<T = string>(
  weights: ReadonlyMap<string, number>,
  top: readonly FeedbackDocument<T>[],
  idfOf: (term: T) => number,
  nameOf?: (term: T) => string,
): Map<string, number> {
  if (top.length === 0) return new Map(weights);
  const expanded = queryShares(weights);
  for (const [term, share] of feedbackShares(feedbackTermWeights(top, idfOf, nameOf)))
    expanded.set(term, (expanded.get(term) ?? 0) + share);
  return expanded;
}
