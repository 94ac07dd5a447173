import { SentenceEmbedder, chunkText, dot } from '@cs/embeddings';
import { analyze, bigrams, parseQuery } from '@cs/text-analysis';

export interface RerankInput {
  id: string;
  text: string;
}

export interface FeatureScores {
  /** Cosine of the query with the whole CV and with its best passage (0..1). */
  semantic: number;
  /** BM25 of the query over this candidate set, over its upper bound (0..1). */
  keyword: number;
  /** Share of query terms the CV contains, and of its phrases it holds whole (0..1). */
  coverage: number;
}

export interface Reranked {
  id: string;
  score: number;
  features: FeatureScores;
}

/** Weights of the three features; they sum to 1 so the score stays in 0..1. */
export const FEATURE_WEIGHTS = { semantic: 0.45, keyword: 0.35, coverage: 0.2 } as const;

const K1 = 1.2;
const B = 0.75;

/**
 * The builtin reranker: a cross-feature scorer that reads each candidate whole (meaning,
 * keywords and coverage together) where first-stage retrieval saw only one side.
 */
export class FeatureReranker {
  constructor(private readonly embedder: SentenceEmbedder) {}

  rerank(query: string, candidates: readonly RerankInput[], topN: number): Reranked[] {
    const parsed = parseQuery(query);
    const queryTerms = [...new Set(parsed.parts.flatMap((p) => p.terms))];
    const phrasePairs = parsed.parts.filter((p) => p.phrase).map((p) => bigrams(p.terms));
    const queryVector = this.embedder.embed(query);

    const analysed = candidates.map((c) => {
      const terms = analyze(c.text).map((t) => t.term);
      const tf = new Map<string, number>();
      for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
      const pairs = new Set(bigrams(terms));
      return { candidate: c, length: terms.length, tf, pairs };
    });
    const n = analysed.length;
    const averageLength = analysed.reduce((s, a) => s + a.length, 0) / Math.max(1, n);
    const idf = new Map(
      queryTerms.map((t) => {
        const df = analysed.filter((a) => a.tf.has(t)).length;
        return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
      }),
    );
    const maxKeyword = queryTerms.reduce((s, t) => s + (idf.get(t) ?? 0) * (K1 + 1), 0);

    return analysed
      .map(({ candidate, length, tf, pairs }) => {
        let keyword = 0;
        let present = 0;
        for (const term of queryTerms) {
          const f = tf.get(term) ?? 0;
          if (f === 0) continue;
          present++;
          keyword += ((idf.get(term) ?? 0) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / Math.max(1, averageLength)));
        }
        const phrasesHeld = phrasePairs.filter((ps) => ps.every((p) => pairs.has(p))).length;
        const coverage =
          queryTerms.length === 0
            ? 0
            : (present / queryTerms.length) * (phrasePairs.length ? 0.7 : 1) +
              (phrasePairs.length ? (0.3 * phrasesHeld) / phrasePairs.length : 0);
        const features: FeatureScores = {
          semantic: this.semantic(queryVector, candidate.text),
          keyword: maxKeyword > 0 ? keyword / maxKeyword : 0,
          coverage,
        };
        const score =
          FEATURE_WEIGHTS.semantic * features.semantic + FEATURE_WEIGHTS.keyword * features.keyword + FEATURE_WEIGHTS.coverage * features.coverage;
        return { id: candidate.id, score, features };
      })
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
      .slice(0, topN);
  }

  private semantic(queryVector: Float32Array | null, text: string): number {
    if (!queryVector) return 0;
    const whole = this.embedder.embed(text);
    let best = whole ? dot(queryVector, whole) : 0;
    const wholeScore = best;
    for (const chunk of chunkText(text)) {
      const v = this.embedder.embed(chunk.text);
      if (v) best = Math.max(best, dot(queryVector, v));
    }
    return Math.max(0, Math.min(1, (wholeScore + best) / 2));
  }
}
