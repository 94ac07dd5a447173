import { idf } from './bm25';

/** One term of a CV: how often the CV holds it, and how many of the company's CVs do. */
export interface TermStatistics {
  term: string;
  termFrequency: number;
  documentFrequency: number;
}

/**
 * How a `similar` search reads a CV's words, as Lucene's more-like-this does: at most this many
 * terms (its `max_query_terms`), each held by at least two CVs (a word only this CV holds, its
 * author's name or email, finds nothing like it), numbers left out (years and phone digits say
 * when and who, not what).
 */
export const DISTINCTIVE_TERMS = { limit: 25, minDocumentFrequency: 2 } as const;

const NUMBER = /^[\d.,/-]+$/;

/**
 * The CV's most distinctive terms: by term frequency times BM25's idf over the company's CVs,
 * best first (ties by term, so that every store picks the same ones).
 */
export function distinctiveTerms(
  terms: Iterable<TermStatistics>,
  documentCount: number,
  limit: number = DISTINCTIVE_TERMS.limit,
): string[] {
  const scored: { term: string; score: number }[] = [];
  for (const { term, termFrequency, documentFrequency } of terms) {
    if (documentFrequency < DISTINCTIVE_TERMS.minDocumentFrequency || term.length < 2 || NUMBER.test(term)) continue;
    scored.push({ term, score: termFrequency * idf(documentFrequency, documentCount) });
  }
  scored.sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
  return scored.slice(0, Math.max(0, limit)).map((t) => t.term);
}
