import { STOP_WORDS, headline, tokenize } from '@cs/text-analysis';
import type { WordVectors } from './glove-cache';
import { TypoCorrector } from './typo-corrector';

/**
 * SIF smoothing: weight a / (a + p(w)) keeps rare, informative words and mutes common ones.
 * 1e-4 rather than the paper's 1e-3: CV words are domain words, and muting the common ones
 * harder raised nDCG@10 on the dev queries (0.70 to 0.72 for whole-CV vectors).
 */
export const SIF_A = 1e-4;

/** How much the headline (the role line) adds to the whole-CV vector. Tuned on the dev queries. */
export const HEADLINE_WEIGHT = 0.25;

/** Words whose SIF-weighted mean gives the common direction that every sentence vector shares. */
const COMMON_COMPONENT_WORDS = 10_000;

/**
 * Sentence vectors as SIF-weighted averages of GloVe word vectors (Arora et al., 2017), with the
 * common component removed. Word probabilities come from each word's frequency rank (GloVe's
 * vocabulary order) by Zipf's law; the common component is the probability-weighted mean of the
 * most frequent words, so it is fixed by the vectors and not by whichever CVs a company holds.
 */
export class SentenceEmbedder {
  private readonly zipfNorm: number;
  private readonly common: Float32Array;
  private readonly typos: TypoCorrector;

  constructor(private readonly words: WordVectors) {
    this.zipfNorm = Math.log(words.size) + 0.5772;
    this.common = this.commonComponent();
    this.typos = new TypoCorrector(words);
  }

  get dimensions(): number {
    return this.words.dimensions;
  }

  /** Unit-length vector of the text, or null when no word of it is known. */
  embed(text: string): Float32Array | null {
    const sum = this.weightedSum(text);
    return sum && this.removeCommon(normalize(sum));
  }

  /** A query's vector: like `embed`, with misspelt words read as their nearest vocabulary word. */
  embedQuery(text: string): Float32Array | null {
    return this.readQuery(text).vector;
  }

  /**
   * A query's vector, and the words of it that no vector reads even by their nearest spelling.
   * An unknown word with a context in `contexts` (text around it in the company's CVs) is read
   * as that context's vector, weighing as much as all the known words together, since such a
   * word (a technical name) is usually the query's most specific: "a la carte" induction
   * (Khodak et al., 2018), without its learnt transform, which needs a corpus we do not have.
   */
  readQuery(text: string, contexts: ReadonlyMap<string, string> = new Map()): { vector: Float32Array | null; unknownWords: string[] } {
    const sum = new Float32Array(this.words.dimensions);
    let used = 0;
    const unknown = new Set<string>();
    const induced: Float32Array[] = [];
    for (const token of tokenize(text)) {
      const forms = this.lookupForms(token.text, true);
      const rows = forms.map((w) => this.words.index.get(w)).filter((row): row is number => row !== undefined);
      for (const row of rows) this.words.addTo(sum, row, this.sifWeight(row));
      used += rows.length;
      if (rows.length > 0 || !isWordLike(token.text) || unknown.has(token.text)) continue;
      const context = contexts.get(token.text);
      const vector = context === undefined ? null : this.embed(context);
      if (vector) induced.push(vector);
      else unknown.add(token.text);
    }
    if (used === 0 && induced.length === 0) return { vector: null, unknownWords: [...unknown] };
    const combined = used > 0 ? normalize(sum) : sum;
    for (const vector of induced) for (let d = 0; d < combined.length; d++) combined[d] += vector[d];
    return { vector: this.removeCommon(normalize(combined)), unknownWords: [...unknown] };
  }

  /**
   * The vector that ranks a CV: the whole text, plus its headline at `HEADLINE_WEIGHT`, since
   * the role line says more about the candidate than any other line.
   */
  embedDocument(text: string): Float32Array | null {
    const whole = this.weightedSum(text);
    if (!whole) return null;
    normalize(whole);
    const title = this.weightedSum(headline(text));
    if (title) {
      normalize(title);
      for (let d = 0; d < whole.length; d++) whole[d] += HEADLINE_WEIGHT * title[d];
    }
    return this.removeCommon(normalize(whole));
  }

  /** SIF-weighted sum of the text's known words (as written: documents are not typo-corrected). */
  private weightedSum(text: string): Float32Array | null {
    const sum = new Float32Array(this.words.dimensions);
    let used = 0;
    for (const token of tokenize(text)) {
      for (const word of this.lookupForms(token.text, false)) {
        const row = this.words.index.get(word);
        if (row === undefined) continue;
        this.words.addTo(sum, row, this.sifWeight(row));
        used++;
      }
    }
    return used === 0 ? null : sum;
  }

  private sifWeight(row: number): number {
    const probability = 1 / ((row + 1) * this.zipfNorm);
    return SIF_A / (SIF_A + probability);
  }

  /** The vocabulary spelling of a token: itself, its parts (`node.js` -> node, js), or a typo's fix. */
  private lookupForms(token: string, correctTypos: boolean): string[] {
    if (STOP_WORDS.has(token) || /^\d+$/.test(token)) return [];
    if (this.words.index.has(token)) return [token];
    const parts = token.split(/[^\p{L}\p{N}]+/u).filter((p) => p.length > 1 && !STOP_WORDS.has(p));
    if (!correctTypos) return parts;
    return parts.map((p) => (this.words.index.has(p) ? p : (this.typos.nearest(p) ?? p)));
  }

  private commonComponent(): Float32Array {
    const mean = new Float32Array(this.words.dimensions);
    for (let row = 0; row < Math.min(COMMON_COMPONENT_WORDS, this.words.size); row++) {
      this.words.addTo(mean, row, this.sifWeight(row) / ((row + 1) * this.zipfNorm));
    }
    return normalize(mean);
  }

  /** Projects out the common component and renormalises. */
  private removeCommon(vector: Float32Array): Float32Array {
    const along = dot(vector, this.common);
    for (let d = 0; d < vector.length; d++) vector[d] -= along * this.common[d];
    return normalize(vector);
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

/** A token that names something: letters in it, and not a stop word. */
function isWordLike(token: string): boolean {
  return /\p{L}/u.test(token) && !STOP_WORDS.has(token);
}
