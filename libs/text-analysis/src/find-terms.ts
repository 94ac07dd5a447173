import { SYNONYM_TERMS, analyze, normalizeToken, type Term } from './analyzer';
import { TOKEN_PATTERN, splitSlash } from './tokenizer';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where the given index terms occur in a text: the same answer as `analyze(text)` filtered to
 * those terms, found without analysing every word. A stem's letters but its last begin every
 * word it comes from (`reconcil` <- reconciliations, `compani` <- company), so only words that
 * start that way are analysed. Explaining a hundred results this way costs a few milliseconds.
 */
export function findTerms(text: string, terms: readonly string[]): Term[] {
  const wanted = new Set(terms);
  if (wanted.size === 0) return [];
  // Words that reach a term through a synonym, or dotted names, do not share its first letters.
  if (terms.some((t) => SYNONYM_TERMS.has(t) || t.startsWith('.'))) return analyze(text).filter((t) => wanted.has(t.term));
  const prefixes = [...new Set(terms.map((t) => (/^[a-z]+$/.test(t) && t.length > 2 ? t.slice(0, -1) : (/^[\p{L}\p{N}]+/u.exec(t)?.[0] ?? t))))];
  const starts = new RegExp(`(?<![\\p{L}\\p{N}_.])(?:${prefixes.map(escapeRegExp).join('|')})`, 'gu');
  const token = new RegExp(TOKEN_PATTERN.source, 'uy');
  const lower = text.toLowerCase();
  const found: Term[] = [];
  let after = 0;
  for (const match of lower.matchAll(starts)) {
    if (match.index < after) continue;
    token.lastIndex = match.index;
    const whole = token.exec(lower);
    if (!whole) continue;
    after = match.index + whole[0].length;
    for (const part of splitSlash({ text: whole[0], start: match.index, end: after })) {
      const term = normalizeToken(part.text);
      if (term !== null && wanted.has(term)) found.push({ ...part, term });
    }
  }
  return found;
}
