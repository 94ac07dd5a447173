import { MULTI_WORD_SYNONYM_TERMS, SINGLE_WORD_VARIANTS, analyze, termsOfToken, type Term } from './analyzer';
import { TOKEN_PATTERN, splitSlash } from './tokenizer';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where the given index terms occur in a text: the same answer as `analyze(text)` filtered to
 * those terms, found without analysing every word. A stem begins every word it comes from, but
 * for an ending Porter2 rewrites (`compani` <- company), so only words that start that way are
 * analysed. Explaining a hundred results this way costs a few milliseconds.
 */
export function findTerms(text: string, terms: readonly string[]): Term[] {
  return termFinder(terms)(text);
}

/** `findTerms` for one set of terms over many texts: the patterns are built once. */
export function termFinder(terms: readonly string[]): (text: string) => Term[] {
  const wanted = new Set(terms);
  if (wanted.size === 0) return () => [];
  // Terms a several-word variant adds, and dotted names, need the whole analysis.
  if (terms.some((t) => MULTI_WORD_SYNONYM_TERMS.has(t) || t.startsWith('.'))) return (text) => analyze(text).filter((t) => wanted.has(t.term));
  const prefixOf = (t: string) => {
    if (!/^[a-z]+$/.test(t)) return /^[\p{L}\p{N}]+/u.exec(t)?.[0] ?? t;
    // Porter2 rewrites only a stem's end: y -> i (company -> compani), -ying -> ie (dying -> die),
    // and an e restored (closing -> close).
    return t.replace(/(ie|[eiy])$/, '') || t;
  };
  // A one-word variant (`k8s` for kubernet) is looked for as written.
  const prefixes = [...new Set(terms.flatMap((t) => [prefixOf(t), ...(SINGLE_WORD_VARIANTS.get(t) ?? [])]))];
  const starts = new RegExp(`(?<![\\p{L}\\p{N}_.])(?:${prefixes.map(escapeRegExp).join('|')})`, 'gu');
  const token = new RegExp(TOKEN_PATTERN.source, 'uy');
  return (text) => {
    const lower = text.toLowerCase();
    const found: Term[] = [];
    let after = 0;
    starts.lastIndex = 0;
    for (let match = starts.exec(lower); match; match = starts.exec(lower)) {
      if (match.index < after) continue;
      token.lastIndex = match.index;
      const whole = token.exec(lower);
      if (!whole) continue;
      after = match.index + whole[0].length;
      for (const part of splitSlash({ text: whole[0], start: match.index, end: after })) {
        for (const term of termsOfToken(part.text)) if (wanted.has(term)) found.push({ ...part, term });
      }
    }
    return found;
  };
}
