import { analyze } from './analyzer';
import type { KeywordCondition } from './keyword-query';

export interface QueryPart {
  /** As the user wrote it, trimmed. */
  text: string;
  /** Analysed terms of this part, in order. */
  terms: string[];
  /** Quoted by the user: its words should occur together, in order. */
  phrase: boolean;
}

export interface ParsedQuery {
  raw: string;
  /** What is scored: every hit holds at least one of their terms. */
  parts: QueryPart[];
  /** Conditions every hit meets (`+` clauses and field terms of the keyword query language); none when absent. */
  required?: KeywordCondition[];
  /** Conditions no hit meets (`-` clauses); none when absent. */
  excluded?: KeywordCondition[];
}

/**
 * Sparse queries are comma-separated keywords (`python, machine learning`); quoted text is a
 * phrase, whose words must stand together. Unquoted words of one part score as words: requiring
 * their adjacency lost relevance on the evaluation queries. Parts that analyse to nothing
 * (stop words only) are dropped.
 */
export function parseQuery(raw: string): ParsedQuery {
  const pieces: { text: string; quoted: boolean }[] = [];
  const withoutQuotes = raw.replace(/"([^"]+)"/g, (_, quoted: string) => {
    pieces.push({ text: quoted, quoted: true });
    return ',';
  });
  pieces.push(...withoutQuotes.split(/[,;\n|]+/).map((text) => ({ text, quoted: false })));
  const parts: QueryPart[] = [];
  for (const piece of pieces) {
    const text = piece.text.trim();
    if (!text) continue;
    const terms = analyze(text).map((t) => t.term);
    if (terms.length === 0) continue;
    parts.push({ text, terms, phrase: piece.quoted && terms.length > 1 });
  }
  return { raw, parts };
}

/** Every distinct term of the query. */
export function queryTerms(query: ParsedQuery): string[] {
  return [...new Set(query.parts.flatMap((p) => p.terms))];
}
