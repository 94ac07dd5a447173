/**
 * BM25 parameters (Robertson & Zaragoza). k1 1.5 rather than the textbook 1.2: CVs repeat their
 * core skills, and letting repetition count a little longer raised nDCG@10 on the dev queries.
 */
export const BM25_K1 = 1.5;
export const BM25_B = 0.75;

/** Inverse document frequency, the Lucene variant that never goes negative. */
export function idf(documentFrequency: number, documentCount: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** One term's contribution for a document of `length` terms. */
export function termScore(tf: number, length: number, averageLength: number, termIdf: number): number {
  const norm = BM25_K1 * (1 - BM25_B + (BM25_B * length) / averageLength);
  return (termIdf * tf * (BM25_K1 + 1)) / (tf + norm);
}
