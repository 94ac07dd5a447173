import { STOP_WORDS } from './stop-words';
import { SKILL_SYNONYMS } from './synonyms';
import { tokenize, type Token } from './tokenizer';
// eslint-disable-next-line @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-assignment -- the package has no types or ES export; its one function is typed here
const porter2: (word: string) => string = require('wink-porter2-stemmer');

export interface Term extends Token {
  /** The normalised index term: stemmed for plain words, as written for technical names. */
  term: string;
}

/** Tokens stemmed: plain lowercase words. Others (c++, node.js, 2019, café) are terms as written. */
export const PLAIN_WORD = /^[a-z]+$/;

/** A one-character token that is no letter or digit of ours (é, ß alone) is dropped. */
export const LONE_SIGN = /^(?![a-z0-9])[\u0000-\uffff]$/u;

/** Stems of words seen so far: CV vocabularies are small and Zipfian, so most lookups hit. */
const STEMS = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

function stem(word: string): string {
  let stemmed = STEMS.get(word);
  if (stemmed === undefined) {
    stemmed = porter2(word);
    if (STEMS.size >= STEM_CACHE_LIMIT) STEMS.clear();
    STEMS.set(word, stemmed);
  }
  return stemmed;
}

/** Maps one lowercased token to its index term, or null for a stop word. */
export function normalizeToken(token: string): string | null {
  if (STOP_WORDS.has(token)) return null;
  if (token.length === 1 && LONE_SIGN.test(token)) return null;
  return PLAIN_WORD.test(token) ? stem(token) : token;
}

function baseAnalyze(text: string): Term[] {
  const terms: Term[] = [];
  for (const token of tokenize(text)) {
    const term = normalizeToken(token.text);
    if (term !== null) terms.push({ ...token, term });
  }
  return terms;
}

/** A several-word variant: its terms, the canonical terms it adds, and both as the words they are analysed from. */
interface SeveralWordVariant {
  terms: string[];
  canonical: string[];
  rule: SynonymRule;
}

interface SynonymTables {
  /** One-word variant (lowercased token) -> the canonical skill's terms. */
  single: Map<string, string[]>;
  /** The same, as the words the canonical terms are analysed from. */
  singleRules: Map<string, SynonymRule>;
  /** First term of a several-word variant -> its terms and the canonical terms to add. */
  multi: Map<string, SeveralWordVariant[]>;
}

/** Tokens that analysis keeps, as written (lowercased): what a term is analysed from. */
const keptWords = (text: string) =>
  tokenize(text)
    .filter((t) => normalizeToken(t.text) !== null)
    .map((t) => t.text);

function buildSynonymTables(): SynonymTables {
  const single = new Map<string, string[]>();
  const singleRules = new Map<string, SynonymRule>();
  const multi = new Map<string, SeveralWordVariant[]>();
  for (const [canonical, variants] of Object.entries(SKILL_SYNONYMS)) {
    const canonicalTerms = baseAnalyze(canonical).map((t) => t.term);
    for (const variant of variants) {
      const tokens = tokenize(variant);
      if (tokens.length === 1) {
        single.set(tokens[0].text, canonicalTerms);
        singleRules.set(tokens[0].text, { words: [tokens[0].text], canonical: tokenize(canonical).map((t) => t.text) });
        continue;
      }
      const terms = baseAnalyze(variant).map((t) => t.term);
      if (terms.length === 0) continue;
      const list = multi.get(terms[0]) ?? [];
      list.push({ terms, canonical: canonicalTerms, rule: { words: keptWords(variant), canonical: keptWords(canonical) } });
      multi.set(terms[0], list);
    }
  }
  return { single, singleRules, multi };
}

const SYNONYMS = buildSynonymTables();

/**
 * A skill synonym as a rule over words, for engines that apply synonyms as a token filter
 * (Elasticsearch's `synonym_graph`). `words` and `canonical` are tokens as `tokenize` gives them.
 */
export interface SynonymRule {
  words: readonly string[];
  canonical: readonly string[];
}

/**
 * The synonyms `analyze` applies, as rules. A one-word rule matches one token before stop words
 * and stemming, and replaces it by the canonical words (then analysed as any). A several-word rule
 * matches terms after them (its `words` leave out stop words, so it matches across them), keeps
 * them and adds the canonical words' terms after them. Only the rules `analyze` can apply: a
 * variant that an earlier one of the same first term always matches first is left out, so that the
 * longest match (as a synonym filter takes it) is the one `analyze` takes.
 */
export const SYNONYM_RULES: Readonly<{ oneWord: readonly SynonymRule[]; severalWords: readonly SynonymRule[] }> = (() => {
  const severalWords: SynonymRule[] = [];
  for (const variants of SYNONYMS.multi.values()) {
    variants.forEach((variant, at) => {
      const shadowed = variants
        .slice(0, at)
        .some((earlier) => earlier.terms.length <= variant.terms.length && earlier.terms.every((t, k) => variant.terms[k] === t));
      if (!shadowed) severalWords.push(variant.rule);
    });
  }
  return { oneWord: [...SYNONYMS.singleRules.values()], severalWords };
})();

/** Several-word variants that begin with this term, in the order `analyze` tries them. */
export function severalWordVariantsFrom(term: string): readonly { terms: readonly string[]; canonical: readonly string[] }[] {
  return SYNONYMS.multi.get(term) ?? [];
}

/** First terms of the several-word variants that add each term (`unit` for usda). */
export const SEVERAL_WORD_STARTS: ReadonlyMap<string, readonly string[]> = (() => {
  const byTerm = new Map<string, string[]>();
  for (const [first, variants] of SYNONYMS.multi) {
    for (const term of variants.flatMap((v) => v.canonical)) byTerm.set(term, [...new Set([...(byTerm.get(term) ?? []), first])]);
  }
  return byTerm;
})();

/** One-word variants (as tokens) that stand for each term (`kubernet` <- k8s). */
export const SINGLE_WORD_VARIANTS: ReadonlyMap<string, readonly string[]> = (() => {
  const byTerm = new Map<string, string[]>();
  for (const [token, terms] of SYNONYMS.single) for (const term of terms) byTerm.set(term, [...(byTerm.get(term) ?? []), token]);
  return byTerm;
})();

/** The index terms of one token: its skill's canonical terms, its stem, or none (a stop word). */
export function termsOfToken(token: string): readonly string[] {
  const canonical = SYNONYMS.single.get(token);
  if (canonical) return canonical;
  const term = normalizeToken(token);
  return term === null ? [] : [term];
}

/**
 * Tokenize, drop stop words, stem, and map skill variants to their canonical terms: the
 * analysis shared by indexing and querying.
 */
export function analyze(text: string): Term[] {
  const terms: Term[] = [];
  for (const token of tokenize(text)) for (const term of termsOfToken(token.text)) terms.push({ ...token, term });
  if (SYNONYMS.multi.size === 0) return terms;
  const out: Term[] = [];
  for (let i = 0; i < terms.length; i++) {
    out.push(terms[i]);
    for (const variant of SYNONYMS.multi.get(terms[i].term) ?? []) {
      const n = variant.terms.length;
      if (i + n > terms.length || !variant.terms.every((t, k) => terms[i + k].term === t)) continue;
      // After the variant's words, so phrases and pairs of the words themselves still match.
      const span = { text: '', start: terms[i].start, end: terms[i + n - 1].end };
      for (let k = 1; k < n; k++) out.push(terms[++i]);
      for (const term of variant.canonical) out.push({ ...span, text: term, term });
      break;
    }
  }
  return out;
}

/** Whether the token is a one-word spelling of a skill that analysis replaces by the skill's terms (`k8s`, `a/p`). */
export function isOneWordVariant(token: string): boolean {
  return SYNONYMS.single.has(token);
}

/**
 * `analyze` in units: each term alone, but for a several-word variant, whose words stay together
 * with the canonical terms `analyze` adds after them (`machine learning` and `ml`). The terms of
 * `analyze(text)` are the units' words and added terms, in order.
 */
export function analyzeUnits(text: string): { words: Term[]; added: Term[] }[] {
  const terms: Term[] = [];
  for (const token of tokenize(text)) for (const term of termsOfToken(token.text)) terms.push({ ...token, term });
  const units: { words: Term[]; added: Term[] }[] = [];
  for (let i = 0; i < terms.length; i++) {
    const variant = (SYNONYMS.multi.get(terms[i].term) ?? []).find(
      (v) => i + v.terms.length <= terms.length && v.terms.every((t, k) => terms[i + k].term === t),
    );
    if (!variant) {
      units.push({ words: [terms[i]], added: [] });
      continue;
    }
    const words = terms.slice(i, i + variant.terms.length);
    const span = { start: words[0].start, end: words[words.length - 1].end };
    units.push({ words, added: variant.canonical.map((term) => ({ ...span, text: term, term })) });
    i += variant.terms.length - 1;
  }
  return units;
}

/** Texts whose terms `termsOf` keeps: a few more than the CVs a process ingests at once. */
const RECENT_TEXTS = 32;
const recentTerms = new Map<string, readonly string[]>();

/**
 * The terms of `analyze(text)`, remembered for the last few texts: ingestion reads each CV's
 * terms twice (for its profile, and for its BM25 entry), and analysis is most of either.
 */
export function termsOf(text: string): readonly string[] {
  const known = recentTerms.get(text);
  if (known) return known;
  const terms = Object.freeze(analyze(text).map((t) => t.term));
  recentTerms.set(text, terms);
  if (recentTerms.size > RECENT_TEXTS) recentTerms.delete(recentTerms.keys().next().value!);
  return terms;
}

/** Adjacent-term pairs, indexed so that phrases score above scattered words. */
export function bigrams(terms: readonly string[]): string[] {
  const pairs: string[] = [];
  for (let i = 1; i < terms.length; i++) pairs.push(`${terms[i - 1]} ${terms[i]}`);
  return pairs;
}
