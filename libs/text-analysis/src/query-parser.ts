import { analyze } from './analyzer';

export interface QueryPart {
  /** As the user wrote it, trimmed. */
  text: string;
  /** Analysed terms of this part, in order. */
  terms: string[];
  /** Several words that should occur together. */
  phrase: boolean;
}

export interface ParsedQuery {
  raw: string;
  parts: QueryPart[];
}

/**
 * Sparse queries are comma-separated keywords and phrases (`python, machine learning`);
 * quoted text is a phrase too. Parts that analyse to nothing (stop words only) are dropped.
 */
export function parseQuery(raw: string): ParsedQuery {
  const pieces: string[] = [];
  const withoutQuotes = raw.replace(/"([^"]+)"/g, (_, quoted: string) => {
    pieces.push(quoted);
    return ',';
  });
  pieces.push(...withoutQuotes.split(/[,;\n|]+/));
  const parts: QueryPart[] = [];
  for (const piece of pieces) {
    const text = piece.trim();
    if (!text) continue;
    const terms = analyze(text).map((t) => t.term);
    if (terms.length === 0) continue;
    parts.push({ text, terms, phrase: terms.length > 1 });
  }
  return { raw, parts };
}

/** Every distinct term of the query. */
export function queryTerms(query: ParsedQuery): string[] {
  return [...new Set(query.parts.flatMap((p) => p.terms))];
}
