import type { StoredResult } from '@cs/search-domain';

/** A document on its way to the results: its current score and every stage's score so far. */
export interface Candidate {
  documentId: string;
  /** The last stage's score, 0..1. */
  score: number;
  scores: StoredResult['scores'];
  /** Chunk of the best dense match, for its highlight (-1: the whole document matched best). */
  chunkIndex?: number;
}

export const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));
/** Scores are stored with four decimals. */
export const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;
