import { SKILLS, SKILL_SYNONYMS, tokenize } from '@cs/text-analysis';
import type { WordVectors } from './glove-cache';

/** The most frequent words of the vectors' corpus count as real words, and are candidates. */
const FREQUENT_WORDS = 100_000;
const MIN_LENGTH = 4;
/** Words this long may be two edits from what was meant; shorter ones one, or they match too much. */
const TWO_EDIT_LENGTH = 8;
/**
 * A word the vectors know, but rare and in no dictionary (`jurnal`, `adminstrator`: the
 * vectors' corpus has its typos too), is read as a real word only this many times more frequent.
 */
const RARE_WORD_RATIO = 10;

/** A list of real words: WordNet's lemmas and their regular inflections (see WordNet). */
export interface Lexicon {
  has(word: string): boolean;
  lemmas(): Iterable<string>;
}

/**
 * Words of the curated skills lexicon and synonyms are names, not typos, even when the word
 * vectors lack them: `golang` must not become `golan`, nor `rabbitmq` `rabbits`.
 */
const SKILL_WORDS: ReadonlySet<string> = new Set(
  [...SKILLS, ...Object.entries(SKILL_SYNONYMS).flat(2)].flatMap((phrase) =>
    tokenize(phrase).flatMap((t) => [t.text, ...t.text.split(/[^\p{L}\p{N}]+/u)]),
  ),
);

function trigrams(word: string): Set<string> {
  const padded = `^${word}$`;
  const grams = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  return grams;
}

/**
 * Damerau-Levenshtein distance (optimal string alignment: insertions, deletions, substitutions
 * and swaps of neighbours), or `limit + 1` once it must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, previous2[j - 2] + 1);
      current.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > limit) return limit + 1;
    [previous2, previous] = [previous, current];
  }
  return Math.min(previous[b.length], limit + 1);
}

/**
 * Spelling repair for dense queries, as spelling correctors do it: a word that is not a real
 * word (not among the vectors' frequent words, not in the lexicon, not a skill's name) is read as
 * the real word with vectors fewest edits away (Damerau-Levenshtein, at most 1, or 2 for long
 * words), the most frequent on a tie: `managment` -> management, `pateint` -> patient (not
 * `patent`, as far but rarer). It keeps the first letter, since typos seldom change it, while
 * an unknown technical name often resembles an unrelated word with another start (`ansible` ->
 * sensible). Candidates are shortlisted by shared character trigrams; the index is built on first
 * use, so services that never correct a word never pay for it.
 */
export class TypoCorrector {
  /** The candidate words, most frequent first, and each one's row in the vectors. */
  private candidates: string[] | null = null;
  private rows = new Int32Array(0);
  /** Places (in `candidates`) of the candidates by first letter, until that letter is indexed. */
  private byFirstLetter = new Map<string, number[]>();
  /** Per first letter: trigram -> places of the candidates with that first letter and trigram. */
  private readonly indexes = new Map<string, Map<string, number[]>>();
  private readonly memo = new Map<string, string | null>();

  constructor(
    private readonly vectors: WordVectors,
    private readonly lexicon: Lexicon | null = null,
  ) {}

  /** Whether the word is spelt as a real word is, and so is no typo. */
  isWord(word: string): boolean {
    const row = this.vectors.index.get(word);
    return (row !== undefined && row < FREQUENT_WORDS) || SKILL_WORDS.has(word) || (this.lexicon?.has(word) ?? false);
  }

  /** The real word the misspelt word stands for, or null when it is no typo or nothing is close enough. */
  nearest(word: string): string | null {
    if (word.length < MIN_LENGTH || !/^\p{L}+$/u.test(word) || this.isWord(word)) return null;
    const known = this.memo.get(word);
    if (known !== undefined) return known;
    const limit = word.length >= TWO_EDIT_LENGTH ? 2 : 1;
    const ownRow = this.vectors.index.get(word);
    const rowLimit = ownRow === undefined ? Infinity : ownRow / RARE_WORD_RATIO;
    const index = this.indexOf(word[0]);
    const candidates = this.candidates ?? [];
    const seen = new Set<number>();
    let best: { at: number; distance: number } | null = null;
    for (const gram of trigrams(word)) {
      for (const at of index.get(gram) ?? []) {
        if (seen.has(at) || this.rows[at] >= rowLimit) continue;
        seen.add(at);
        const distance = editDistance(word, candidates[at], limit);
        // Candidates are most frequent first, so the first at a distance is the most frequent.
        if (distance <= limit && (!best || distance < best.distance || (distance === best.distance && at < best.at)))
          best = { at, distance };
      }
    }
    const fix = best ? candidates[best.at] : null;
    if (this.memo.size > 10_000) this.memo.clear();
    this.memo.set(word, fix);
    return fix;
  }

  /**
   * Builds the whole index ahead of use (about 300 ms and 25 MB), a first letter at a time,
   * yielding between them: a service's first misspelt queries then cost what later ones do
   * (semantic dev's typo queries took up to 87 ms in dense, and the first 511, before this).
   */
  async warm(): Promise<void> {
    const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));
    await yieldToOthers();
    if (!this.candidates) this.listCandidates();
    for (const letter of [...this.byFirstLetter.keys()]) {
      await yieldToOthers();
      this.indexOf(letter);
    }
  }

  /**
   * The trigram index of the candidates that start with `letter`. Each letter's is built on first
   * use (tens of ms), the candidate list on the first of all (about 150 ms), so a service that
   * never corrects a word never pays for either.
   */
  private indexOf(letter: string): Map<string, number[]> {
    const built = this.indexes.get(letter);
    if (built) return built;
    if (!this.candidates) this.listCandidates();
    const index = new Map<string, number[]>();
    for (const at of this.byFirstLetter.get(letter) ?? []) {
      for (const gram of trigrams((this.candidates ?? [])[at])) {
        const list = index.get(gram);
        if (list) list.push(at);
        else index.set(gram, [at]);
      }
    }
    this.byFirstLetter.delete(letter);
    this.indexes.set(letter, index);
    return index;
  }

  /** The candidate words: the frequent words, and the lexicon's and skills' words that have vectors. */
  private listCandidates(): void {
    const wordOfRow = new Map<number, string>();
    for (const [word, row] of this.vectors.index) if (row < FREQUENT_WORDS) wordOfRow.set(row, word);
    for (const word of [...(this.lexicon?.lemmas() ?? []), ...SKILL_WORDS]) {
      const row = this.vectors.index.get(word);
      if (row !== undefined && !wordOfRow.has(row)) wordOfRow.set(row, word);
    }
    const byFrequency = [...wordOfRow]
      .filter(([, word]) => word.length >= MIN_LENGTH - 1 && /^\p{L}+$/u.test(word))
      .sort((a, b) => a[0] - b[0]);
    this.rows = Int32Array.from(byFrequency, ([row]) => row);
    this.candidates = byFrequency.map(([, word]) => word);
    this.candidates.forEach((word, at) => {
      const list = this.byFirstLetter.get(word[0]);
      if (list) list.push(at);
      else this.byFirstLetter.set(word[0], [at]);
    });
  }
}
