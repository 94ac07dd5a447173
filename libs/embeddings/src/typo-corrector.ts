import { SKILLS, SKILL_SYNONYMS, tokenize } from '@cs/text-analysis';
import type { WordVectors } from './glove-cache';

/** Only the most frequent words are candidates: a rare word is seldom what a user meant. */
const CANDIDATE_WORDS = 100_000;
/** Dice similarity of character trigrams below which no correction is made. */
const MIN_SIMILARITY = 0.6;
const MIN_LENGTH = 4;

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
 * Typo tolerance for dense queries: a word outside the vocabulary is read as the vocabulary
 * word with the most character trigrams in common (`managment` -> `management`). As spelling
 * correctors do, it keeps the first letter and the length within one, since typos seldom change
 * either, while an unknown technical name often resembles an unrelated word with another start
 * or a letter or two fewer (`ansible` -> sensible, `pytorch` -> torch, `graphql` -> graph).
 * The trigram index is built on first use, so services that never correct a word never pay for it.
 */
export class TypoCorrector {
  private index: Map<string, number[]> | null = null;
  private readonly words: string[];
  private readonly memo = new Map<string, string | null>();

  constructor(vectors: WordVectors) {
    const limit = Math.min(CANDIDATE_WORDS, vectors.size);
    this.words = new Array<string>(limit);
    for (const [word, row] of vectors.index) if (row < limit) this.words[row] = word;
  }

  /** The closest known word, or null when nothing is close enough. */
  nearest(word: string): string | null {
    if (word.length < MIN_LENGTH || !/^\p{L}+$/u.test(word) || SKILL_WORDS.has(word)) return null;
    const known = this.memo.get(word);
    if (known !== undefined) return known;
    const index = this.ensureIndex();
    const grams = trigrams(word);
    const shared = new Map<number, number>();
    for (const g of grams) for (const row of index.get(g) ?? []) shared.set(row, (shared.get(row) ?? 0) + 1);
    let best: string | null = null;
    let bestScore = MIN_SIMILARITY;
    for (const [row, common] of shared) {
      const candidate = this.words[row];
      // eslint-disable-next-line @typescript-eslint/prefer-string-starts-ends-with -- compares two words' first letters, not a prefix
      if (candidate[0] !== word[0] || Math.abs(candidate.length - word.length) > 1) continue;
      // A padded word of n letters has n trigrams (fewer only when one repeats; close enough here).
      const score = (2 * common) / (grams.size + candidate.length);
      if (score > bestScore) [best, bestScore] = [candidate, score];
    }
    if (this.memo.size > 10_000) this.memo.clear();
    this.memo.set(word, best);
    return best;
  }

  private ensureIndex(): Map<string, number[]> {
    if (this.index) return this.index;
    const index = new Map<string, number[]>();
    this.words.forEach((word, row) => {
      if (!word || word.length < MIN_LENGTH - 1 || !/^\p{L}+$/u.test(word)) return;
      for (const g of trigrams(word)) {
        const rows = index.get(g);
        if (rows) rows.push(row);
        else index.set(g, [row]);
      }
    });
    this.index = index;
    return index;
  }
}
