import { STOP_WORDS, tokenize } from '@cs/text-analysis';
import type { WordVectors } from './glove-cache';

/** SIF smoothing: weight a / (a + p(w)) keeps rare, informative words and mutes common ones. */
const SIF_A = 1e-3;

/**
 * Sentence vectors as SIF-weighted averages of GloVe word vectors (Arora et al., 2017). Word
 * probabilities come from each word's frequency rank (GloVe's vocabulary order), by Zipf's law.
 */
export class SentenceEmbedder {
  private readonly zipfNorm: number;

  constructor(private readonly words: WordVectors) {
    this.zipfNorm = Math.log(words.size) + 0.5772;
  }

  get dimensions(): number {
    return this.words.dimensions;
  }

  /** Unit-length vector of the text, or null when no word of it is known. */
  embed(text: string): Float32Array | null {
    const { dimensions, matrix } = this.words;
    const sum = new Float32Array(dimensions);
    let used = 0;
    for (const token of tokenize(text)) {
      for (const word of this.lookupForms(token.text)) {
        const row = this.words.index.get(word);
        if (row === undefined) continue;
        const probability = 1 / ((row + 1) * this.zipfNorm);
        const weight = SIF_A / (SIF_A + probability);
        const base = row * dimensions;
        for (let d = 0; d < dimensions; d++) sum[d] += weight * matrix[base + d];
        used++;
      }
    }
    return used === 0 ? null : normalize(sum);
  }

  /** The vocabulary spelling of a token: itself, or its parts (`node.js` -> node, js). */
  private lookupForms(token: string): string[] {
    if (STOP_WORDS.has(token) || /^\d+$/.test(token)) return [];
    if (this.words.index.has(token)) return [token];
    return token.split(/[^\p{L}\p{N}]+/u).filter((p) => p.length > 1 && !STOP_WORDS.has(p));
  }
}

export function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] /= norm;
  return vector;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}
