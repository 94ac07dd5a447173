import { STOP_WORDS, headline, tokenize } from '@cs/text-analysis';
import type { WordVectors } from './glove-cache';
import { TypoCorrector } from './typo-corrector';
import { PARTS_OF_SPEECH, type WordNet } from './wordnet';

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
 * Directions removed from every vector besides the common component: the top principal
 * directions of the frequent words' vectors, which encode frequency and corpus more than meaning
 * ("all-but-the-top", Mu and Viswanath, 2018). Fixed by the vectors, like the common component.
 * Two raised dense nDCG@10 on the dev queries 0.742 -> 0.755 (semantic dev 0.653 -> 0.674), and
 * with query feedback (see the dense service) 0.755 -> 0.789 (0.752 -> 0.755): the feedback
 * centroid is less pulled towards what every CV shares. Three or more did less.
 */
export const DOMINANT_DIRECTIONS = 2;
/** Words whose vectors give the dominant directions. */
const DOMINANT_DIRECTION_WORDS = 10_000;

/** The embedder's tuned choices (see HEADLINE_WEIGHT and TypoCorrector). */
export interface EmbedderTuning {
  typoRepair: boolean;
  headlineWeight: number;
}

/**
 * Sentence vectors as SIF-weighted averages of GloVe word vectors (Arora et al., 2017), with the
 * common component and the words' dominant directions removed. Word probabilities come from each word's frequency rank (GloVe's
 * vocabulary order) by Zipf's law; the common component is the probability-weighted mean of the
 * most frequent words, so it is fixed by the vectors and not by whichever CVs a company holds.
 */
export class SentenceEmbedder {
  private readonly zipfNorm: number;
  private readonly common: Float32Array;
  private readonly typos: TypoCorrector;
  private readonly dominant: Float32Array[];
  private readonly tuning: EmbedderTuning;

  /** `wordnet`, when given, is the dictionary that typo repair trusts, and reads inflected words the vectors lack. */
  constructor(
    private readonly words: WordVectors,
    private readonly wordnet: WordNet | null = null,
    private readonly options: { dominantDirections?: number; typos?: TypoCorrector; tuning?: Partial<EmbedderTuning> } = {},
  ) {
    this.zipfNorm = Math.log(words.size) + 0.5772;
    this.common = this.commonComponent();
    // Toy vectors of a few dimensions (tests') keep two at least after the common component.
    this.dominant = this.dominantDirections(Math.min(options.dominantDirections ?? DOMINANT_DIRECTIONS, Math.max(0, words.dimensions - 3)));
    this.typos = options.typos ?? new TypoCorrector(words, wordnet);
    this.tuning = { typoRepair: true, headlineWeight: HEADLINE_WEIGHT, ...options.tuning };
  }

  /**
   * This embedder with `count` dominant directions removed instead, sharing its word vectors,
   * WordNet and typo repair: an earlier version of the builtin model, read until its vectors are
   * made again.
   */
  withDominantDirections(count: number): SentenceEmbedder {
    return new SentenceEmbedder(this.words, this.wordnet, { ...this.options, dominantDirections: count, typos: this.typos });
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

  /** Builds typo repair's index ahead of the first misspelt query, yielding as it goes (see TypoCorrector.warm). */
  warmUp(): Promise<void> {
    return this.typos.warm();
  }

  /**
   * A query's vector, and the words of it that no vector reads even by their nearest spelling.
   * An unknown word with a context in `contexts` (text around it in the company's CVs) is read
   * as that context's vector, weighing as one word of the query: "a la carte" induction (Khodak
   * et al., 2018), without its learnt transform, which needs a corpus we do not have. As one word,
   * not as all the known words together: a job posting's few unknown words (names of tools,
   * `year-end`) then pulled its 500 characters towards whatever CVs hold them.
   */
  readQuery(text: string, contexts: ReadonlyMap<string, string> = new Map()): { vector: Float32Array | null; unknownWords: string[] } {
    const sum = new Float32Array(this.words.dimensions);
    let used = 0;
    const unknown = new Set<string>();
    const induced: Float32Array[] = [];
    for (const token of tokenize(text)) {
      const forms = this.lookupForms(token.text, !isAcronym(text.slice(token.start, token.end))).filter((w) => this.words.index.has(w));
      for (const form of forms) {
        const row = this.words.index.get(form) ?? 0;
        const weight = this.sifWeight(row);
        this.words.addTo(sum, row, weight);
      }
      used += forms.length;
      if (forms.length > 0 || !isWordLike(token.text) || unknown.has(token.text)) continue;
      const context = contexts.get(token.text);
      const vector = context === undefined ? null : this.embed(context);
      if (vector) induced.push(vector);
      else unknown.add(token.text);
    }
    if (used === 0 && induced.length === 0) return { vector: null, unknownWords: [...unknown] };
    // The known words' unit mean, and each induced word, weighted by their count.
    const combined = used > 0 ? normalize(sum) : sum;
    for (let d = 0; d < combined.length; d++) combined[d] *= used;
    for (const vector of induced) for (let d = 0; d < combined.length; d++) combined[d] += vector[d];
    return { vector: this.removeCommon(normalize(combined)), unknownWords: [...unknown] };
  }

  /**
   * The text with each misspelt word replaced by the real word it stands for (see TypoCorrector),
   * the rest as written: for keyword matching that should not miss a CV over a query's typo.
   */
  correctSpelling(text: string): string {
    let corrected = '';
    let at = 0;
    for (const token of tokenize(text)) {
      const fix = STOP_WORDS.has(token.text) || isAcronym(text.slice(token.start, token.end)) ? null : this.fixOf(token.text);
      if (fix === null) continue;
      corrected += text.slice(at, token.start) + fix;
      at = token.end;
    }
    return corrected + text.slice(at);
  }

  /**
   * The vector that ranks a CV: the whole text, plus its headline (at `HEADLINE_WEIGHT` unless tuned otherwise), since
   * the role line says more about the candidate than any other line.
   */
  embedDocument(text: string): Float32Array | null {
    const whole = this.weightedSum(text);
    if (!whole) return null;
    normalize(whole);
    const title = this.tuning.headlineWeight > 0 ? this.weightedSum(headline(text)) : null;
    if (title) {
      normalize(title);
      for (let d = 0; d < whole.length; d++) whole[d] += this.tuning.headlineWeight * title[d];
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

  /**
   * The vocabulary spelling of a token: itself, its parts (`node.js` -> node, js); in a query,
   * a misspelt word's fix (see TypoCorrector) or, for a word the vectors lack, its WordNet lemma.
   */
  private lookupForms(token: string, correctTypos: boolean): string[] {
    if (STOP_WORDS.has(token) || /^\d+$/.test(token)) return [];
    if (!correctTypos) {
      if (this.words.index.has(token)) return [token];
      return token.split(/[^\p{L}\p{N}]+/u).filter((p) => p.length > 1 && !STOP_WORDS.has(p));
    }
    const whole = this.repaired(token);
    if (whole !== null) return [whole];
    const parts = token.split(/[^\p{L}\p{N}]+/u).filter((p) => p.length > 1 && !STOP_WORDS.has(p));
    return parts.map((p) => this.repaired(p) ?? p);
  }

  /** The word as the vectors know it: itself when real, else its fix, or its lemma; null when none has a vector. */
  private repaired(word: string): string | null {
    const fix = this.fixOf(word);
    if (fix !== null) return fix;
    if (this.words.index.has(word)) return word;
    for (const pos of PARTS_OF_SPEECH) {
      const lemma = this.wordnet?.lemmaOf(word, pos);
      if (lemma && this.words.index.has(lemma)) return lemma;
    }
    return null;
  }

  /** The real word a misspelt one stands for; null when it is not misspelt, or typo repair is off. */
  private fixOf(word: string): string | null {
    return this.tuning.typoRepair ? this.typos.nearest(word) : null;
  }

  private commonComponent(): Float32Array {
    const mean = new Float32Array(this.words.dimensions);
    for (let row = 0; row < Math.min(COMMON_COMPONENT_WORDS, this.words.size); row++) {
      this.words.addTo(mean, row, this.sifWeight(row) / ((row + 1) * this.zipfNorm));
    }
    return normalize(mean);
  }

  /** Projects out the common component and the dominant directions, and renormalises. */
  private removeCommon(vector: Float32Array): Float32Array {
    const along = dot(vector, this.common);
    for (let d = 0; d < vector.length; d++) vector[d] -= along * this.common[d];
    for (const direction of this.dominant) {
      const along = dot(vector, direction);
      for (let d = 0; d < vector.length; d++) vector[d] -= along * direction[d];
    }
    return normalize(vector);
  }

  /**
   * The top principal directions of the frequent words' unit vectors, the common component
   * removed: by power iteration on their 100x100 second-moment matrix, each next one deflated
   * by those before it (about 50 ms at start).
   */
  private dominantDirections(count: number): Float32Array[] {
    const dims = this.words.dimensions;
    const moments = new Float64Array(dims * dims);
    const v = new Float32Array(dims);
    for (let row = 0; row < Math.min(DOMINANT_DIRECTION_WORDS, this.words.size); row++) {
      v.fill(0);
      this.words.addTo(v, row, 1);
      normalize(v);
      const along = dot(v, this.common);
      for (let d = 0; d < dims; d++) v[d] -= along * this.common[d];
      for (let i = 0; i < dims; i++) {
        const vi = v[i];
        for (let j = i; j < dims; j++) moments[i * dims + j] += vi * v[j];
      }
    }
    for (let i = 0; i < dims; i++) for (let j = 0; j < i; j++) moments[i * dims + j] = moments[j * dims + i];
    const directions: Float32Array[] = [];
    for (let k = 0; k < count; k++) {
      let x: Float32Array = new Float32Array(dims).fill(1);
      for (let step = 0; step < 100; step++) {
        const y = new Float32Array(dims);
        for (let i = 0; i < dims; i++) for (let j = 0; j < dims; j++) y[i] += moments[i * dims + j] * x[j];
        for (const done of directions) {
          const along = dot(y, done);
          for (let d = 0; d < dims; d++) y[d] -= along * done[d];
        }
        x = normalize(y);
      }
      directions.push(x);
    }
    return directions;
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

/** Written in capitals (`CSAT`, `AHT`): an acronym, which is never a misspelt word (not `cat`). */
function isAcronym(written: string): boolean {
  return written.length > 1 && /^[\p{Lu}\d&]+$/u.test(written) && /\p{Lu}.*\p{Lu}/u.test(written);
}

/**
 * A token that names something: letters in it, more than one character, and not a stop word. A
 * lone letter (the `s` of "bachelor's", the `p` of "P&L") is no word to read from CVs' text.
 */
function isWordLike(token: string): boolean {
  return token.length > 1 && /\p{L}/u.test(token) && !STOP_WORDS.has(token);
}
