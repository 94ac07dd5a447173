import type { FacetCounts, FacetField, RequirementCounts, SearchAttributes, SearchFilter } from '@cs/search-filters';
import type { ParsedQuery } from '@cs/text-analysis';

export interface KeywordHit {
  documentId: string;
  /** Raw BM25 score. */
  score: number;
  /** The BM25 score a document containing every query term would reach (for 0..1 scaling). */
  maxScore: number;
  /**
   * The query's scored parts whose analysed terms the document holds (a phrase's in order); never
   * an excluded clause. By stem: an index keeps terms, not words, so `accounts` counts for
   * accountant here. The results' matchedTerms are decided from the CV's text (`partMatcher`).
   */
  matchedTerms: string[];
}

/**
 * A BM25 index of CV texts per company; every query is scoped to one company. Each CV's
 * attributes (its profile, as filters read it) are kept beside its words, and a search's filter
 * is applied before its top K: only CVs that pass are scored.
 */
export interface KeywordIndex {
  /** Without attributes, the CV passes only filters that need no profile (ids, `none`). */
  upsert(companyId: string, documentId: string, text: string, attributes?: SearchAttributes): Promise<void>;
  /** Replaces a CV's attributes (a profile read again); false when the company lacks the CV. */
  setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean>;
  delete(companyId: string, documentId: string): Promise<number>;
  search(companyId: string, query: ParsedQuery, topK: number, filter?: SearchFilter | null): Promise<KeywordHit[]>;
  /**
   * A CV's most distinctive analysed terms (`distinctiveTerms` of libs/ranking: held often by it,
   * seldom by the company's other CVs), best first, at most `limit`; none when the company lacks it.
   */
  distinctiveTerms(companyId: string, documentId: string, limit: number): Promise<string[]>;
  /** Counts of the fields' values over the company's CVs that pass the filter (all of them without one). */
  facets(companyId: string, filter: SearchFilter | null, fields: readonly FacetField[]): Promise<FacetCounts>;
  /**
   * Of the company's CVs that pass `base` (all of them without one), how many pass every one of
   * `requirements`, and how many fail each one alone: what loosening that requirement would add.
   */
  requirementCounts(companyId: string, base: SearchFilter | null, requirements: readonly SearchFilter[]): Promise<RequirementCounts>;
  /**
   * The company's CVs whose text holds the phrase (its words, analysed as the text is, side by
   * side in order), at most `limit` of them, in no particular order: a filter's skill the
   * vocabulary does not know.
   */
  documentsWithPhrase(companyId: string, phrase: string, limit: number): Promise<string[]>;
  count(companyId: string): Promise<number>;
  close(): Promise<void>;
}
export const KEYWORD_INDEX = Symbol('KeywordIndex');
