import { STOP_WORDS } from './stop-words';
import { tokenize, type Token } from './tokenizer';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const porter2: (word: string) => string = require('wink-porter2-stemmer');

export interface Term extends Token {
  /** The normalised index term: stemmed for plain words, as written for technical names. */
  term: string;
}

const PLAIN_WORD = /^[a-z]+$/;

/** Maps one lowercased token to its index term, or null for a stop word. */
export function normalizeToken(token: string): string | null {
  if (STOP_WORDS.has(token)) return null;
  if (token.length === 1 && !/[a-z0-9]/.test(token)) return null;
  return PLAIN_WORD.test(token) ? porter2(token) : token;
}

/** Tokenize, drop stop words, stem: the analysis shared by indexing and querying. */
export function analyze(text: string): Term[] {
  const terms: Term[] = [];
  for (const token of tokenize(text)) {
    const term = normalizeToken(token.text);
    if (term !== null) terms.push({ ...token, term });
  }
  return terms;
}

/** Adjacent-term pairs, indexed so that phrases score above scattered words. */
export function bigrams(terms: readonly string[]): string[] {
  const pairs: string[] = [];
  for (let i = 1; i < terms.length; i++) pairs.push(`${terms[i - 1]} ${terms[i]}`);
  return pairs;
}
