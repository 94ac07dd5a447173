export { tokenize } from './tokenizer';
export type { Token } from './tokenizer';
export { analyze, bigrams, normalizeToken } from './analyzer';
export type { Term } from './analyzer';
export { parseQuery, queryTerms } from './query-parser';
export type { ParsedQuery, QueryPart } from './query-parser';
export { findHighlights } from './highlights';
export type { Highlight } from './highlights';
export { STOP_WORDS } from './stop-words';
