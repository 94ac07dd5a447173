import { analyze, termsOf } from './analyzer';
import { headline } from './headline';
import type { ParsedQuery } from './query-parser';

/**
 * A CV's analysed words in order, and how many of the first are its headline's: what every
 * keyword index stores of a CV (the headline's words count extra in BM25).
 */
export function documentTerms(text: string): { terms: readonly string[]; headlineTerms: number } {
  const terms = termsOf(text);
  const title = headline(text);
  const headlineTerms = title ? Math.min(terms.length, analyze(title).length) : 0;
  return { terms, headlineTerms };
}

/** Query word weights: every word once per occurrence. Quoted phrases also score as phrases. */
export function queryWeights(query: ParsedQuery): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of query.parts) for (const term of part.terms) weights.set(term, (weights.get(term) ?? 0) + 1);
  return weights;
}
