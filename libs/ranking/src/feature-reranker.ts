import { SentenceEmbedder, dot } from '@cs/embeddings';
import { analyze, bigrams, headline, parseQuery } from '@cs/text-analysis';
import { MetricKind, exactSearch, type BatchMatches } from 'usearch';
import { HEADLINE_WEIGHT, idf, lengthNorm, termScore, termUpperBound } from './bm25';
import { SCORE_CALIBRATION, scoreOfZ, separateTop, standardise } from './relevance-score';
import { FEATURE_WEIGHTS, FEEDBACK, NEIGHBOURS, PRECISION_HEAD, type FeatureScores, type RerankerTuning } from './reranker-tuning';

export interface RerankInput {
  id: string;
  /** May be absent when this scorer has analysed the CV already. */
  text?: string;
  /** Score from the first stage, 0..1, when the caller has one. */
  firstStageScore?: number;
  /** The dense model's cosine of the query and the CV, which stands in for this scorer's own when given. */
  denseScore?: number;
}

/** Reads candidates' texts by id; ids whose text is gone are absent. */
export type ReadTexts = (ids: string[]) => Promise<Map<string, string>>;

export interface Reranked {
  id: string;
  score: number;
  features: FeatureScores;
}

/** Analysed CVs kept between searches (about 3 KB each), so that a CV is read and analysed once. */
const CACHE_LIMIT = 30_000;

interface Analysed {
  textLength: number;
  /** Term ids (of the reranker's vocabulary), ascending, and their counts: compact, for caching. */
  termIds: Uint32Array;
  counts: Uint16Array;
  length: number;
  headlineTerms: Set<string>;
  vector: Float32Array | null;
  headlineVector: Float32Array | null;
}

/**
 * The builtin reranker: a cross-feature scorer that reads each candidate whole (meaning,
 * keywords, coverage, headline and the first stage's view together), then lets similar
 * candidates lend each other weight; the first page is ordered with feedback from the best few,
 * the rest without it. Per-CV analysis is cached by id, so a CV is read once.
 */
export class FeatureReranker {
  private readonly cache = new Map<string, Analysed>();
  private readonly vocabulary = new Map<string, number>();

  private readonly tuning: RerankerTuning;

  constructor(
    private readonly embedder: SentenceEmbedder,
    tuning: Partial<RerankerTuning> = {},
  ) {
    this.tuning = { weights: FEATURE_WEIGHTS, feedback: true, neighbours: true, ...tuning };
  }

  /**
   * Reranks candidates, reading the texts of those it has not analysed (all of them when the
   * query quotes a phrase, which needs word order). Reading yields, and meanwhile other searches
   * may push analyses out of the cache: so it asks again until nothing is lacking.
   */
  async rerankReading(
    query: string,
    candidates: readonly Omit<RerankInput, 'text'>[],
    readTexts: ReadTexts,
    topN: number,
    wordContexts?: ReadonlyMap<string, string>,
  ): Promise<Reranked[]> {
    const everyText = parseQuery(query).parts.some((p) => p.phrase);
    const texts = new Map<string, string>();
    const asked = new Set<string>();
    for (let round = 0; round < 3; round++) {
      const needed = candidates.filter((c) => !asked.has(c.id) && (everyText || !this.cache.has(c.id))).map((c) => c.id);
      if (needed.length === 0) break;
      needed.forEach((id) => asked.add(id));
      for (const [id, text] of await readTexts(needed)) texts.set(id, text);
    }
    return this.rerank(
      query,
      candidates.map((c) => ({ ...c, text: texts.get(c.id) })),
      topN,
      wordContexts,
    );
  }

  /**
   * Reranks candidates; one with neither a text nor an analysis in the cache is left out.
   * `wordContexts` give query words the word vectors lack their meaning (see SentenceEmbedder.readQuery).
   */
  rerank(query: string, given: readonly RerankInput[], topN: number, wordContexts?: ReadonlyMap<string, string>): Reranked[] {
    const analyses = given.map((c) => this.analysed(c));
    const candidates = given.filter((_, i) => analyses[i] !== null);
    if (candidates.length === 0) return [];
    // Keyword features read the query as meant, since a misspelt word matches no CV. The dev
    // queries have no typos and did not move; on the semantic dev ones hybrid and builtin-rerank
    // moved by -0.001 and -0.002 nDCG@10 (a fixed word also matches CVs of other kinds).
    const parsed = parseQuery(this.embedder.correctSpelling(query));
    const queryTerms = [...new Set(parsed.parts.flatMap((p) => p.terms))];
    const phrasePairs = parsed.parts.filter((p) => p.phrase).map((p) => bigrams(p.terms));
    const queryVector = this.embedder.readQuery(query, wordContexts).vector;
    const docs = analyses.filter((a): a is Analysed => a !== null);

    const n = docs.length;
    const averageLength = docs.reduce((s, a) => s + a.length, 0) / n;
    // BM25 within the candidates: their own document frequencies and average length.
    const upperBounds = new Map(queryTerms.map((t) => [t, termUpperBound(idf(docs.filter((a) => this.count(a, t) > 0).length, n))]));

    const features: FeatureScores[] = docs.map((doc, i) => {
      let keyword = 0;
      let present = 0;
      let inHeadline = 0;
      for (const term of queryTerms) {
        if (doc.headlineTerms.has(term)) inHeadline++;
        const f = this.count(doc, term);
        if (f === 0) continue;
        present++;
        keyword += termScore(f, lengthNorm(doc.length, Math.max(1, averageLength)), upperBounds.get(term) ?? 0);
      }
      // Word pairs are not cached (they are many); quoted phrases are rare enough to read again.
      const pairs = phrasePairs.length ? new Set(bigrams(analyze(candidates[i].text ?? '').map((t) => t.term))) : null;
      const phrasesHeld = pairs ? phrasePairs.filter((ps) => ps.every((p) => pairs.has(p))).length : 0;
      const share = queryTerms.length === 0 ? 0 : present / queryTerms.length;
      const coverage = phrasePairs.length ? 0.7 * share + (0.3 * phrasesHeld) / phrasePairs.length : share;
      return {
        semantic: candidates[i].denseScore ?? (queryVector && doc.vector ? dot(queryVector, doc.vector) : 0),
        keyword,
        coverage,
        headline: queryTerms.length === 0 ? 0 : inHeadline / queryTerms.length,
        firstStage: candidates[i].firstStageScore ?? 0,
      };
    });

    const combined = new Float64Array(n);
    const weights = this.tuning.weights;
    for (const name of Object.keys(weights) as (keyof FeatureScores)[]) {
      const z = standardise(features.map((f) => f[name]));
      for (let i = 0; i < n; i++) combined[i] += weights[name] * z[i];
    }
    const withFeedback = Float64Array.from(combined);
    if (this.tuning.feedback) this.feedback(docs, withFeedback);
    const neighbours = this.neighbours(docs, combined);
    const precise = smooth(withFeedback, neighbours);
    const broad = smooth(combined, neighbours);
    const byScore = (scores: Float64Array) =>
      [...scores.keys()].sort((a, b) => scores[b] - scores[a] || candidates[a].id.localeCompare(candidates[b].id));
    const head = byScore(precise).slice(0, PRECISION_HEAD);
    const inHead = new Set(head);
    const tail = byScore(broad).filter((i) => !inHead.has(i));
    // Scores follow the final order. Each part is scored by its own ranking's z-scores over all
    // the candidates; the tail's are scaled, when need be, to start below the head's lowest.
    const preciseZ = standardise(precise);
    const broadZ = standardise(broad);
    const headScores = separateTop(head.map((i) => scoreOfZ(preciseZ[i])));
    const tailScores = tail.map((i) => scoreOfZ(broadZ[i]));
    const headFloor = headScores.length ? headScores[headScores.length - 1] : 1;
    const ceiling = Math.max(0, headFloor - SCORE_CALIBRATION.minStep);
    const shrink = tailScores.length && tailScores[0] > ceiling ? ceiling / tailScores[0] : 1;
    return [
      ...head.map((i, place) => ({ id: candidates[i].id, score: headScores[place], features: features[i] })),
      ...tail.map((i, place) => ({ id: candidates[i].id, score: shrink * tailScores[place], features: features[i] })),
    ].slice(0, topN);
  }

  /**
   * Pseudo-relevance feedback among the candidates: the centroid of the best few, by the
   * features so far, stands for what the query is after; closeness to it becomes one more feature.
   */
  private feedback(docs: Analysed[], combined: Float64Array): void {
    // Too few candidates and the 'best few' are most of them: nothing to learn from.
    if ((FEEDBACK.weight === 0 && FEEDBACK.headlineWeight === 0) || docs.length < 3 * FEEDBACK.documents) return;
    const top = [...combined.keys()].sort((a, b) => combined[b] - combined[a]).slice(0, FEEDBACK.documents);
    const dims = docs.find((d) => d.vector)?.vector?.length ?? 0;
    if (dims === 0) return;
    const centroid = new Float32Array(dims);
    for (const i of top) {
      const v = docs[i].vector;
      if (v) for (let d = 0; d < dims; d++) centroid[d] += v[d];
    }
    const z = standardise(docs.map((doc) => (doc.vector ? dot(centroid, doc.vector) : 0)));
    const headlines = new Float32Array(dims);
    for (const i of top) {
      const v = docs[i].headlineVector;
      if (v) for (let d = 0; d < dims; d++) headlines[d] += v[d];
    }
    const zh = standardise(docs.map((doc) => (doc.headlineVector ? dot(headlines, doc.headlineVector) : 0)));
    for (let i = 0; i < combined.length; i++) combined[i] += FEEDBACK.weight * z[i] + FEEDBACK.headlineWeight * zh[i];
  }

  /**
   * Each candidate's most similar candidates (by document vector) among the best by `scores`:
   * lending weight is what neighbours are for, and the pool bounds the work at n x pool.
   * Null when there are too few candidates for a neighbourhood to mean anything.
   */
  private neighbours(docs: Analysed[], scores: Float64Array): Int32Array[] | null {
    const n = docs.length;
    const k = Math.min(NEIGHBOURS.count, n - 1);
    if (n < 2 * NEIGHBOURS.count || NEIGHBOURS.weight === 0 || !this.tuning.neighbours) return null;
    const pool = [...scores.keys()].sort((a, b) => scores[b] - scores[a]).slice(0, Math.max(NEIGHBOURS.pool, k + 1));
    return nearestInPool(
      docs.map((d) => d.vector),
      pool,
      k,
    );
  }

  private termId(term: string): number {
    let id = this.vocabulary.get(term);
    if (id === undefined) {
      id = this.vocabulary.size;
      this.vocabulary.set(term, id);
    }
    return id;
  }

  /** A term's count in a CV, by binary search of its sorted term ids. */
  private count(doc: Analysed, term: string): number {
    const id = this.vocabulary.get(term);
    if (id === undefined) return 0;
    let lo = 0;
    let hi = doc.termIds.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (doc.termIds[mid] === id) return doc.counts[mid];
      if (doc.termIds[mid] < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** The candidate's analysis: cached (when its text, if given, is the one analysed), or made now. */
  private analysed(candidate: RerankInput): Analysed | null {
    const cached = this.cache.get(candidate.id);
    if (cached && (candidate.text === undefined || cached.textLength === candidate.text.length)) {
      // Least recently used leave first: a CV many searches find stays.
      this.cache.delete(candidate.id);
      this.cache.set(candidate.id, cached);
      return cached;
    }
    if (candidate.text === undefined) return null;
    const terms = analyze(candidate.text).map((t) => t.term);
    const title = analyze(headline(candidate.text)).map((t) => t.term);
    const tf = new Map<number, number>();
    const add = (term: string, count: number) => {
      const id = this.termId(term);
      tf.set(id, (tf.get(id) ?? 0) + count);
    };
    for (const t of terms) add(t, 1);
    for (const t of title) add(t, HEADLINE_WEIGHT - 1);
    const termIds = Uint32Array.from(tf.keys()).sort();
    const entry: Analysed = {
      textLength: candidate.text.length,
      termIds,
      counts: Uint16Array.from(termIds, (id) => Math.min(0xffff, tf.get(id) ?? 0)),
      length: terms.length + (HEADLINE_WEIGHT - 1) * title.length,
      headlineTerms: new Set(title),
      vector: this.embedder.embedDocument(candidate.text),
      headlineVector: this.embedder.embed(headline(candidate.text)),
    };
    this.cache.delete(candidate.id);
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(candidate.id, entry);
    return entry;
  }
}

/**
 * For each vector, the k vectors of `pool` (indexes into `vectors`) with the largest inner
 * product, largest first, never itself; none for a missing vector. n x pool inner products are
 * most of the reranker's work: usearch does them with SIMD, on the calling thread.
 */
export function nearestInPool(vectors: readonly (Float32Array | null)[], pool: readonly number[], k: number): Int32Array[] {
  const pooled = pool.filter((j) => vectors[j]);
  const withVector = [...vectors.keys()].filter((i) => vectors[i]);
  const dims = pooled.length ? vectors[pooled[0]]!.length : 0;
  const asked = Math.min(k + 1, pooled.length); // one more, as a pooled vector finds itself first
  const nearest = vectors.map(() => new Int32Array(0));
  if (dims === 0 || asked === 0 || k === 0) return nearest;
  const pack = (ids: number[]) => {
    const packed = new Float32Array(ids.length * dims);
    ids.forEach((j, p) => packed.set(vectors[j]!, p * dims));
    return packed;
  };
  const found = exactSearch(pack(pooled), pack(withVector), dims, asked, MetricKind.IP, 1) as BatchMatches;
  withVector.forEach((i, row) => {
    const ids = Array.from(found.keys.subarray(row * asked, (row + 1) * asked), (key) => pooled[Number(key)]);
    nearest[i] = Int32Array.from(ids.filter((j) => j !== undefined && j !== i).slice(0, k));
  });
  return nearest;
}

/** Adds to each score a share of the mean score of its candidate's neighbours. */
function smooth(scores: Float64Array, neighbours: Int32Array[] | null): Float64Array {
  if (!neighbours) return scores;
  return scores.map((score, i) => {
    const near = neighbours[i];
    if (near.length === 0) return score;
    let sum = 0;
    for (const j of near) sum += scores[j];
    return score + (NEIGHBOURS.weight * sum) / near.length;
  });
}
