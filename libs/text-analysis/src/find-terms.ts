import { SEVERAL_WORD_STARTS, SINGLE_WORD_VARIANTS, analyze, severalWordVariantsFrom, termsOfToken, type Term } from './analyzer';
import { TOKEN_PATTERN, splitSlash, tokenize } from './tokenizer';

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
  // What each token holds (its parts after slashes, and their terms), kept for the finder's life:
  // the results of one search repeat their words, and most words hold nothing wanted.
  const partsOf = new Map<string, TokenPart[]>();
  const partsOfToken = (token: string): TokenPart[] => {
    let parts = partsOf.get(token);
    if (parts === undefined) {
      parts = [...splitSlash({ text: token, start: 0, end: token.length })]
        .map((p) => ({ offset: p.start, text: p.text, terms: termsOfToken(p.text) }))
        .filter((p) => p.terms.some((t) => wanted.has(t) || variantStarts.has(t)));
      if (partsOf.size < PARTS_MEMO_LIMIT) partsOf.set(token, parts);
    }
    return parts;
  };
  return (text) => {
    const lower = text.toLowerCase();
    const found: (Term & { order: number })[] = [];
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
      for (const part of partsOfToken(whole[0])) {
        const start = match.index + part.offset;
        const end = start + part.text.length;
        for (let k = 0; k < part.terms.length; k++) {
          const term = part.terms[k];
          if (wanted.has(term)) found.push({ text: part.text, start, end, term, order: start });
          if (!variantStarts.has(term) || start < variantEnd) continue;
          const variant = severalWordVariantAt(text, start, k, term);
          if (!variant) continue;
          // `analyze` lists a variant's terms after its last word, and its words start no other variant.
          variantEnd = variant.end;
          for (const c of variant.canonical) {
            if (wanted.has(c)) found.push({ text: c, start, end: variant.end, term: c, order: variant.lastStart + 0.5 });
            added = true;
          }
        }
      }
    }
    if (added) found.sort((a, b) => a.order - b.order);
    return found.map(({ order: _, ...t }) => t);
  };
}

interface TokenPart {
  offset: number;
  text: string;
  terms: readonly string[];
}

const PARTS_MEMO_LIMIT = 20_000;

/** How far past a variant's first word its other words may lie (stop words between are skipped). */
const VARIANT_LOOKAHEAD = 400;

/** The several-word variant that `analyze` would match at the k-th term of the token at `from`, if any. */
function severalWordVariantAt(
  text: string,
  from: number,
  k: number,
  term: string,
): { canonical: readonly string[]; end: number; lastStart: number } | null {
  const variants = severalWordVariantsFrom(term);
  const needed = k + Math.max(...variants.map((v) => v.terms.length));
  let following: { term: string; start: number; end: number }[] = [];
  // Read a little further each time: most first words are followed by other words at once.
  for (let span = 64; ; span *= 2) {
    const limit = Math.min(span, VARIANT_LOOKAHEAD);
    const whole = from + limit >= text.length || limit === VARIANT_LOOKAHEAD;
    // A word the slice cuts may read otherwise: only words that end before the cut count.
    const tokens = tokenize(text.slice(from, from + limit)).filter((t) => whole || t.end < limit);
    following = tokens.flatMap((t) => termsOfToken(t.text).map((term) => ({ term, start: t.start + from, end: t.end + from })));
    if (following.length >= needed || whole) break;
  }
  if (following[k]?.term !== term) return null;
  for (const variant of variants) {
    const n = variant.terms.length;
    if (k + n > following.length || !variant.terms.every((t, j) => following[k + j].term === t)) continue;
    const last = following[k + n - 1];
    return { canonical: variant.canonical, end: last.end, lastStart: last.start };
  }
  return null;
}

/**
 * Each analysed term as a word of the text that analyses to it (its first, lower-cased): what a
 * person reads for `kubernet`; the term itself where no word of the text gives it.
 */
export function surfaceForms(text: string, terms: readonly string[]): string[] {
  const found = new Map<string, string>();
  for (const t of findTerms(text, terms)) if (t.text && !found.has(t.term)) found.set(t.term, t.text.toLowerCase());
  return terms.map((term) => found.get(term) ?? term);
}
