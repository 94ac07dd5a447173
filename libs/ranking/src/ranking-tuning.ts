import { DENSE_HEADLINE_WEIGHT, QUERY_FEEDBACK, type EmbedderTuning } from '@cs/embeddings';
import { z } from 'zod';
import { FEATURE_WEIGHTS, type RerankerTuning } from './reranker-tuning';
import { DENSE_SHARE } from './score-fusion';

/** The criteria score's share of a match result's score (`matchCriteriaShare`). */
export const MATCH_CRITERIA_SHARE = 0.1;

/** Query words the word vectors lack that dense search reads from the company's CVs ("a la carte" induction). */
export const INDUCED_WORDS = 3;

const share = (max: number) => z.number().min(0).max(max);

/**
 * The builtin ranking's tuned choices, each with the value the relevance figures were measured
 * with as its default. They exist as settings so that `npm run eval -- --folds` can measure each
 * one on and off through the running service; `docs/relevance.md` says which held.
 */
export const rankingTuningSchema = z.strictObject({
  /** Misspelt query words read as the real word they stand for (dense, and the rerankers' keyword features). */
  typoRepair: z.boolean().default(true),
  /** How far dense search moves the query towards its best CVs' centroid before searching again; 0: no feedback. */
  denseFeedbackWeight: share(10).default(QUERY_FEEDBACK.weight),
  /** The headline's share in a CV's dense vector; applies to CVs indexed after it changes (`admin reindex --dense` for the rest). */
  denseHeadlineWeight: share(2).default(DENSE_HEADLINE_WEIGHT),
  /** How many query words the vectors lack are read from the company's CVs; 0: none. */
  inducedWords: z.int().min(0).max(10).default(INDUCED_WORDS),
  /** Weights of the builtin reranker's standardised features. */
  rerankerWeights: z
    .strictObject({ semantic: share(1), keyword: share(1), coverage: share(1), headline: share(1), firstStage: share(1) })
    .default({ ...FEATURE_WEIGHTS }),
  /** The builtin reranker's first places ordered with feedback from its best few. */
  rerankerFeedback: z.boolean().default(true),
  /** Candidates alike lend each other score in the builtin reranker. */
  rerankerNeighbours: z.boolean().default(true),
  /** Dense's share of hybrid's fused score; keywords have the rest. */
  hybridDenseShare: share(1).default(DENSE_SHARE),
  /** The criteria score's share of a match search's result score; the reranker's has the rest. */
  matchCriteriaShare: share(1).default(MATCH_CRITERIA_SHARE),
});

export type RankingTuning = z.output<typeof rankingTuningSchema>;

/** The choices as shipped. */
export const SHIPPED_TUNING: RankingTuning = rankingTuningSchema.parse({});

/** The builtin reranker's part of the choices. */
export function rerankerTuningOf(tuning: RankingTuning): RerankerTuning {
  return { weights: tuning.rerankerWeights, feedback: tuning.rerankerFeedback, neighbours: tuning.rerankerNeighbours };
}

/** The word-vector embedder's part of the choices. */
export function embedderTuningOf(tuning: RankingTuning): EmbedderTuning {
  return { typoRepair: tuning.typoRepair, headlineWeight: tuning.denseHeadlineWeight };
}
