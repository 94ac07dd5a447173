import { WORDNET_DETACHMENTS } from './wordnet-detachments';
import { PLAIN_WORD, analyze, analyzeUnits, isOneWordVariant, type Term } from './analyzer';
import { termFinder } from './find-terms';
import type { ParsedQuery } from './query-parser';

/**
 * How a CV holds a query term: as written (case aside), as a regular inflection of the same word
 * (`accountants` for accountant), or as another spelling of the same skill in the skills
 * vocabulary (`Kubernetes` for k8s).
 */
export type MatchedAs = 'exact' | 'inflection' | 'synonym';

/** A query part the CV holds: the part as written, how, and the CV's words that hold it, as the CV writes them. */
export interface TermMatch {
  term: string;
  as: MatchedAs;
  text: string;
}

const LOOSENESS: Record<MatchedAs, number> = { exact: 0, inflection: 1, synonym: 2 };
const looser = (a: MatchedAs, b: MatchedAs): MatchedAs => (LOOSENESS[a] >= LOOSENESS[b] ? a : b);

/**
 * Regular inflectional endings and what replaces them: WordNet's detachment rules for nouns and
 * verbs (morphy), with `-ied` and `-ying` besides. Adjectives' -er and -est are left out: they
 * would make `manager` a form of manage.
 */
const DETACHMENTS: readonly (readonly [suffix: string, replacement: string])[] = [
  ...WORDNET_DETACHMENTS.noun,
  ...WORDNET_DETACHMENTS.verb,
  ['ied', 'y'],
  ['ying', 'ie'],
];

/** The word and every base a regular ending could have come from (`running` -> runn, run, runne). */
function basesOf(word: string): Set<string> {
  const bases = new Set([word]);
  for (const [suffix, replacement] of DETACHMENTS) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    const base = stem + replacement;
    // morphy's bound (two letters left), or a base of three (tying -> tie).
    if (stem.length < 2 && base.length < 3) continue;
    bases.add(base);
    // A doubled consonant before -ed or -ing (planned, running) is the base's one.
    if (replacement === '' && /([b-df-hj-np-tv-z])\1$/.test(base)) bases.add(base.slice(0, -1));
  }
  return bases;
}

/**
 * Whether two words are regular inflections of one word: a base in common by the endings above.
 * `accountant` and `accountants` are; `accounts` and `accountant` are not (different words with
 * one stem); `manage`, `managed` and `managing` are. Irregular forms (`went`) are not read.
 */
export function sameWordForms(a: string, b: string): boolean {
  if (a === b) return true;
  if (!PLAIN_WORD.test(a) || !PLAIN_WORD.test(b)) return false;
  const bases = basesOf(a);
  for (const base of basesOf(b)) if (bases.has(base)) return true;
  return false;
}

/** A word as matching reads it: its term, its written form (lowercase), and whether it is a skill spelling or a term a skill adds. */
interface Word {
  term: string;
  written: string;
  /** A one-word skill variant (`k8s`), or a canonical term a several-word variant adds (`ml` after "machine learning"). */
  synonym: boolean;
}

/** How the CV's word holds the query's word (same term), or null when it holds it only by stem. */
function howHeld(query: Word, cv: Word): MatchedAs | null {
  if (query.written === cv.written) return 'exact';
  if (query.synonym || cv.synonym) return 'synonym';
  return sameWordForms(query.written, cv.written) ? 'inflection' : null;
}

/** A term as a word of `lower` (a text lowercased): an added term is written as the variant's words it spans. */
function wordOf(lower: string, t: Term, added: boolean): Word {
  return {
    term: t.term,
    written: added ? lower.slice(t.start, t.end).replace(/\s+/g, ' ') : t.text,
    synonym: added || isOneWordVariant(t.text),
  };
}

/** A CV's found term as a word: an added term spans its variant's words, which are not its text. */
const cvWord = (lower: string, t: Term): Word => wordOf(lower, t, lower.slice(t.start, t.end) !== t.text);

interface Unit {
  words: Word[];
  added: Word[];
}

interface Part {
  text: string;
  phrase: boolean;
  units: Unit[];
  /** Its terms as `analyze` gives them (words and added terms in order), for phrases. */
  terms: string[];
  /** Which of `terms` are added by a variant. */
  addedAt: boolean[];
}

/** A matched part with where the CV holds it: each word's occurrence, or the phrase's words side by side. */
export interface LocatedMatch extends TermMatch {
  spans: { start: number; end: number }[];
}

/** The CV's occurrence of a term, with how it holds its query word. */
interface Held {
  as: MatchedAs;
  at: Term;
}

/**
 * The query's scored parts matched against CV texts, by the rules of docs/api.md ("matchedTerms"):
 * a part is matched when the CV holds each of its words as written, as an inflection of the same
 * word, or as a skill synonym (a quoted phrase: in order, side by side), and never by stem alone
 * (`accounts` holds no `accountant`). Excluded clauses are no parts, so they are never matched.
 * Also gives the CV's occurrences that hold a query word, which are what highlights mark.
 */
export function partMatcher(
  query: Pick<ParsedQuery, 'parts'>,
): (text: string, analysedText?: readonly Term[]) => { matched: LocatedMatch[]; marks: Term[] } {
  const parts: Part[] = query.parts.map((p) => {
    const lower = p.text.toLowerCase();
    const units = analyzeUnits(p.text).map((u) => ({
      words: u.words.map((w) => wordOf(lower, w, false)),
      added: u.added.map((a) => wordOf(lower, a, true)),
    }));
    const sequence = units.flatMap((u) => [...u.words.map(() => false), ...u.added.map(() => true)]);
    return {
      text: p.text,
      phrase: p.phrase,
      units,
      terms: units.flatMap((u) => [...u.words, ...u.added].map((w) => w.term)),
      addedAt: sequence,
    };
  });
  const byTerm = new Map<string, Word[]>();
  for (const part of parts)
    for (const unit of part.units) for (const w of [...unit.words, ...unit.added]) byTerm.set(w.term, [...(byTerm.get(w.term) ?? []), w]);
  const find = termFinder([...byTerm.keys()]);
  const hasPhrases = parts.some((p) => p.phrase);

  // `analysedText`: the text's whole analysis, when the caller has it (the same terms, read once).
  return (text, analysedText) => {
    const lower = text.toLowerCase();
    const found = analysedText ? analysedText.filter((t) => byTerm.has(t.term)) : find(text);
    const words = found.map((t) => cvWord(lower, t));
    // Every occurrence that holds some query word of its term: what highlights mark.
    const marks = found.filter((_, i) => (byTerm.get(words[i].term) ?? []).some((q) => howHeld(q, words[i]) !== null));
    /** The CV's best occurrence of the query word (the closest form, then the first), or null. */
    const best = (q: Word): Held | null => {
      let held: Held | null = null;
      found.forEach((t, i) => {
        if (t.term !== q.term) return;
        const as = howHeld(q, words[i]);
        if (as && (!held || LOOSENESS[as] < LOOSENESS[held.as])) held = { as, at: t };
      });
      return held;
    };
    let analysed: readonly Term[] | null = analysedText ?? null;
    const matched: LocatedMatch[] = [];
    for (const part of parts) {
      const match = part.phrase
        ? phraseMatch(part, text, lower, (analysed ??= hasPhrases ? analyze(text) : []))
        : wordsMatch(part, text, best);
      if (match) matched.push({ term: part.text, ...match });
    }
    return { matched, marks };
  };
}

/** Each unit held somewhere: its words each, or (a several-word skill variant) its added terms as a synonym. */
function wordsMatch(part: Part, text: string, best: (q: Word) => Held | null): Omit<LocatedMatch, 'term'> | null {
  let as: MatchedAs = 'exact';
  const spans: Term[] = [];
  for (const unit of part.units) {
    const byWords = unit.words.map(best);
    const held = byWords.every((h) => h !== null) ? byWords : unit.added.length > 0 ? unit.added.map(best) : null;
    if (!held || held.some((h) => h === null)) return null;
    for (const h of held as Held[]) {
      as = looser(as, h.as);
      spans.push(h.at);
    }
  }
  const written = [...new Set(spans.map((t) => text.slice(t.start, t.end)))];
  return { as, text: written.join(' '), spans: spans.map((t) => ({ start: t.start, end: t.end })) };
}

/** The phrase's terms side by side in the CV's analysis, each word held; the closest such place. */
function phraseMatch(part: Part, text: string, lower: string, analysed: readonly Term[]): Omit<LocatedMatch, 'term'> | null {
  const queryWords = part.units.flatMap((u) => [...u.words, ...u.added]);
  let best: { as: MatchedAs; start: number; end: number } | null = null;
  for (let i = 0; i + part.terms.length <= analysed.length; i++) {
    let as: MatchedAs = 'exact';
    let k = 0;
    for (; k < part.terms.length; k++) {
      const at = analysed[i + k];
      if (at.term !== part.terms[k]) break;
      // An added term is the variant's words again: they decide.
      if (part.addedAt[k]) continue;
      const held = howHeld(queryWords[k], cvWord(lower, at));
      if (!held) break;
      as = looser(as, held);
    }
    if (k < part.terms.length) continue;
    const span = analysed.slice(i, i + part.terms.length).filter((_, j) => !part.addedAt[j]);
    if (!best || LOOSENESS[as] < LOOSENESS[best.as]) best = { as, start: span[0].start, end: span[span.length - 1].end };
    if (as === 'exact') break;
  }
  return best && { as: best.as, text: text.slice(best.start, best.end), spans: [{ start: best.start, end: best.end }] };
}
