/**
 * BM25 (Robertson & Zaragoza), the one definition every keyword scorer uses: the embedded index,
 * the Elasticsearch index's settings and feedback, and the builtin reranker's keyword feature.
 */

/**
 * k1 1.5 rather than the textbook 1.2: CVs repeat their core skills, and letting repetition count
 * a little longer raised nDCG@10 on the dev queries. b is the textbook 0.75.
 */
export const BM25_K1 = 1.5;
export const BM25_B = 0.75;

/** How many times a headline word counts, over its once in the body (tuned on the dev queries). */
export const HEADLINE_WEIGHT = 2;

/** Inverse document frequency, the Lucene variant that never goes negative. */
export function idf(documentFrequency: number, documentCount: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * BM25's length normalisation of a document of `length` terms, k1 (1 - b + b length / average):
 * the same for every term of the document, so an index computes it once per document.
 */
export function lengthNorm(length: number, averageLength: number): number {
  return BM25_K1 * (1 - BM25_B + (BM25_B * length) / averageLength);
}

/**
 * The most a term of this idf (and query weight) can add to a score, weight x idf x (k1 + 1),
 * which its score nears as its count grows: the sum over a query's terms is the upper bound that
 * scores are divided by to fall in 0..1.
 */
export function termUpperBound(termIdf: number, weight = 1): number {
  return weight * termIdf * (BM25_K1 + 1);
}

/** One term's score in a document: its upper bound, scaled by tf / (tf + the document's length norm). */
export function termScore(tf: number, norm: number, upperBound: number): number {
  return (upperBound * tf) / (tf + norm);
}
