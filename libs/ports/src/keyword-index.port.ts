import type { ParsedQuery } from '@cs/text-analysis';

export interface KeywordHit {
  documentId: string;
  /** Raw BM25 score. */
  score: number;
  /** The BM25 score a document containing every query term would reach (for 0..1 scaling). */
  maxScore: number;
  /** Query keywords and phrases the document contains. */
  matchedTerms: string[];
}

/** A BM25 index of CV texts per company; every query is scoped to one company. */
export interface KeywordIndex {
  upsert(companyId: string, documentId: string, text: string): Promise<void>;
  delete(companyId: string, documentId: string): Promise<number>;
  search(companyId: string, query: ParsedQuery, topK: number): Promise<KeywordHit[]>;
  count(companyId: string): Promise<number>;
  close(): Promise<void>;
}
export const KEYWORD_INDEX = Symbol('KeywordIndex');
