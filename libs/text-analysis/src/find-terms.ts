import { SEVERAL_WORD_STARTS, SINGLE_WORD_VARIANTS, analyze, severalWordVariantsFrom, termsOfToken, type Term } from './analyzer';
import { TOKEN_PATTERN, splitSlash, tokenize, type Token } from './tokenizer';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where the given index terms occur in a text: the same answer as `analyze(text)` filtered to
 * those terms, found without analysing every word. A stem begins every word it comes from, but
 * for an ending Porter2 rewrites (`compani` <- company), so only words that start that way are
 * analysed. Explaining a hundred results this way costs a few milliseconds.
 *
 * A term that a several-word variant adds (`usda` for "United States Department of Agriculture")
 * is found by looking ahead from each occurrence of the variant's first word.
 */
export function findTerms(text: string, terms: readonly string[]): Term[] {
  return termFinder(terms)(text);
}

/** `findTerms` for one set of terms over many texts: the patterns are built once. */
export function termFinder(terms: readonly string[]): (text: string) => Term[] {
  const wanted = new Set(terms);
  if (wanted.size === 0) return () => [];
  // Dotted names need the tokenizer's leading-dot rule, which only the whole analysis applies.
  if (terms.some((t) => t.startsWith('.'))) return (text) => analyze(text).filter((t) => wanted.has(t.term));
  const prefixOf = (t: string) => {
    if (!/^[a-z]+$/.test(t)) return /^[\p{L}\p{N}]+/u.exec(t)?.[0] ?? t;
    // Porter2 rewrites only a stem's end: y -> i (company -> compani), -ying -> ie (dying -> die),
    // and an e restored (closing -> close).
    return t.replace(/(ie|[eiy])$/, '') || t;
  };
  const variantStarts = new Set(terms.flatMap((t) => SEVERAL_WORD_STARTS.get(t) ?? []));
  // A one-word variant (`k8s` for kubernet) is looked for as written.
  const prefixes = [...new Set([...terms, ...variantStarts].flatMap((t) => [prefixOf(t), ...(SINGLE_WORD_VARIANTS.get(t) ?? [])]))];
  const starts = new RegExp(`(?<![\\p{L}\\p{N}_.])(?:${prefixes.map(escapeRegExp).join('|')})`, 'gu');
  const token = new RegExp(TOKEN_PATTERN.source, 'uy');
  return (text) => {
    const lower = text.toLowerCase();
    const found: Array<Term & { order: number }> = [];
    let added = false;
    let after = 0;
    let variantEnd = 0;
    starts.lastIndex = 0;
    for (let match = starts.exec(lower); match; match = starts.exec(lower)) {
      if (match.index < after) continue;
      token.lastIndex = match.index;
      const whole = token.exec(lower);
      if (!whole) continue;
      after = match.index + whole[0].length;
      for (const part of splitSlash({ text: whole[0], start: match.index, end: after })) {
        termsOfToken(part.text).forEach((term, k) => {
          if (wanted.has(term)) found.push({ ...part, term, order: part.start });
          if (!variantStarts.has(term) || part.start < variantEnd) return;
          const variant = severalWordVariantAt(text, part, k, term);
          if (!variant) return;
          // `analyze` lists a variant's terms after its last word, and its words start no other variant.
          variantEnd = variant.end;
          for (const c of variant.canonical) {
            if (wanted.has(c)) found.push({ text: c, start: part.start, end: variant.end, term: c, order: variant.lastStart + 0.5 });
            added = true;
          }
        });
      }
    }
    if (added) found.sort((a, b) => a.order - b.order);
    return found.map(({ order: _, ...t }) => t);
  };
}

/** How far past a variant's first word its other words may lie (stop words between are skipped). */
const VARIANT_LOOKAHEAD = 400;

/** The several-word variant that `analyze` would match at the k-th term of this token, if any. */
function severalWordVariantAt(text: string, first: Token, k: number, term: string): { canonical: readonly string[]; end: number; lastStart: number } | null {
  const from = first.start;
  const following = tokenize(text.slice(from, from + VARIANT_LOOKAHEAD)).flatMap((t) => termsOfToken(t.text).map((term) => ({ term, start: t.start + from, end: t.end + from })));
  if (following[k]?.term !== term) return null;
  for (const variant of severalWordVariantsFrom(term)) {
    const n = variant.terms.length;
    if (k + n > following.length || !variant.terms.every((t, j) => following[k + j].term === t)) continue;
    const last = following[k + n - 1];
    return { canonical: variant.canonical, end: last.end, lastStart: last.start };
  }
  return null;
}
