/** The builtin reranker's features and tuned weights (apart from its code, so that settings can name them). */

/** Each feature of a candidate, before standardisation. */
export interface FeatureScores {
  /** Cosine of the query and the CV's document vector (whole text plus headline), or the dense model's when given. */
  semantic: number;
  /** BM25 of the query over this candidate set, headline words counted twice. */
  keyword: number;
  /** Share of query terms the CV contains, and of its quoted phrases it holds whole (0..1). */
  coverage: number;
  /** Share of query terms in the CV's headline (0..1). */
  headline: number;
  /** The first stage's score (0..1), 0 when there was none. */
  firstStage: number;
}

/**
 * Weights of the standardised features (z-scores over the candidate set); then of the feedback
 * from the best few (closeness to their document and headline centroids); then of the
 * neighbourhood: CVs alike (by document vector) tend to be relevant alike, so each candidate takes
 * a share of its most similar candidates' scores. Tuned on the dev queries (`npm run eval`).
 * Headline 0.05 rather than 0.15: a described query's everyday words (agent, analyst, support)
 * also name other trades' roles; on the semantic dev queries hybrid nDCG@10 rose 0.733 -> 0.76
 * and builtin-rerank 0.75 -> 0.78, the dev queries' moved by under 0.01.
 */
export const FEATURE_WEIGHTS: Readonly<Record<keyof FeatureScores, number>> = {
  semantic: 0.3,
  keyword: 0.35,
  coverage: 0.1,
  headline: 0.05,
  firstStage: 0.3,
};
export const NEIGHBOURS: Readonly<{ count: number; weight: number; pool: number }> = { count: 10, weight: 1, pool: 250 };
export const FEEDBACK: Readonly<{ documents: number; weight: number; headlineWeight: number }> = {
  documents: 10,
  weight: 0.3,
  headlineWeight: 0.7,
};
/**
 * Feedback narrows the ranking to what the best few are about: right for the first page, which
 * it makes more precise (nDCG@10 0.832 -> 0.868 for hybrid), wrong for the rest, where relevant
 * CVs that describe the work otherwise lose their place (R@100 0.517 -> 0.495). So the first
 * `PRECISION_HEAD` places follow the ranking with feedback and the rest the ranking without it.
 */
export const PRECISION_HEAD = 20;

/** The reranker's tuned choices: its feature weights, and whether feedback and neighbours take part. */
export interface RerankerTuning {
  weights: Readonly<Record<keyof FeatureScores, number>>;
  feedback: boolean;
  neighbours: boolean;
}
