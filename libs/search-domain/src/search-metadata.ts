import { z } from 'zod';
import type { SearchType } from './search-types';

/**
 * What a completed search's results say about how it ran (`metadata` of its results, docs/api.md
 * "Searches"). Clients read these fields by name, and the gateway echoes them beside its own
 * (`processingTimeMs`, `createdAt`, `completedAt`), so a field's name or place never changes.
 * Each shape is a zod schema, its type inferred from it: the records read stored metadata back
 * against its search's type, and libs/contracts builds the API's answer (and the OpenAPI
 * document) from the same schemas. Strict objects: a field nobody declared fails the read.
 */

/** The stages a search's time is counted in, in the order they run. */
export type SearchStage = 'retrieval' | 'rerank' | 'documents' | 'explain';

/** Milliseconds (one decimal) in each stage a search of that kind runs. */
export const RetrievalStageTimings = z.strictObject({ retrieval: z.number(), documents: z.number(), explain: z.number() });
export type RetrievalStageTimings = z.infer<typeof RetrievalStageTimings>;
export const RerankStageTimings = z.strictObject({ retrieval: z.number(), rerank: z.number(), documents: z.number(), explain: z.number() });
export type RerankStageTimings = z.infer<typeof RerankStageTimings>;

/** The dense model that embedded the query and the CVs searched: its id (DENSE_MODEL's) and vector length. */
export const DenseModelMetadata = z.strictObject({ id: z.string(), dimensions: z.int() });
export type DenseModelMetadata = z.infer<typeof DenseModelMetadata>;

/** A query word the word vectors lack, read from the text around it in `cvs` of the company's CVs. */
export const InducedWord = z.strictObject({ word: z.string(), cvs: z.int() });
export type InducedWord = z.infer<typeof InducedWord>;

/**
 * Who reranked: `builtin`, `local`, `cohere:<model>`... When hybrid's external provider failed and
 * the builtin reranker stood in, `degraded` is true and `degradedReason` says why.
 */
export const RerankerMetadata = z.strictObject({ provider: z.string(), degraded: z.boolean(), degradedReason: z.string().optional() });
export type RerankerMetadata = z.infer<typeof RerankerMetadata>;

const fusionCandidates = { denseCandidates: z.int(), sparseCandidates: z.int(), fusedCandidates: z.int() };
/**
 * Hybrid's fusion of its two legs: the method, its constant and the candidates each gave. Searches
 * run before score fusion (convex-combination, with dense's share) carry reciprocal-rank fusion's k.
 */
export const FusionMetadata = z.discriminatedUnion('method', [
  z.strictObject({ method: z.literal('convex-combination'), denseShare: z.number(), ...fusionCandidates }),
  z
    .strictObject({ method: z.literal('reciprocal-rank-fusion'), k: z.int(), ...fusionCandidates })
    .meta({ description: 'searches run before score fusion' }),
]);
export type FusionMetadata = z.infer<typeof FusionMetadata>;

/**
 * The filter's skills the vocabulary does not know, matched as phrases of the CVs' text (as the
 * filter folds them); absent when there were none. Every type carries it.
 */
export const SkillsMatchedAsText = z.array(z.string());
const filterFields = { skillsMatchedAsText: SkillsMatchedAsText.optional() };

/** What both types without a reranker carry: `rerankTopN` is ignored, so null, and no reranker. */
const unrerankedFields = { topK: z.int(), rerankTopN: z.null(), reranker: z.null(), ...filterFields };

/** The dense model a search read: absent on searches stored before the model was recorded. */
const recordedDenseModel = DenseModelMetadata.optional();

/** dense: `inducedWords` only when some were read. */
export const DenseSearchMetadata = z.strictObject({
  ...unrerankedFields,
  denseModel: recordedDenseModel,
  inducedWords: z.array(InducedWord).optional(),
  stageTimingsMs: RetrievalStageTimings,
});
export type DenseSearchMetadata = z.infer<typeof DenseSearchMetadata>;

/** sparse: keywords only. */
export const SparseSearchMetadata = z.strictObject({ ...unrerankedFields, stageTimingsMs: RetrievalStageTimings });
export type SparseSearchMetadata = z.infer<typeof SparseSearchMetadata>;

/** What both reranking types carry: the reranker, and the dense model of their dense leg. */
const rerankedFields = {
  topK: z.int(),
  rerankTopN: z.int(),
  reranker: RerankerMetadata,
  denseModel: recordedDenseModel,
  inducedWords: z.array(InducedWord).optional(),
  ...filterFields,
};

/** builtin-rerank: dense's `candidates` (at least the domain's minimum) rescored by the builtin reranker. */
export const BuiltinRerankSearchMetadata = z.strictObject({ ...rerankedFields, candidates: z.int(), stageTimingsMs: RerankStageTimings });
export type BuiltinRerankSearchMetadata = z.infer<typeof BuiltinRerankSearchMetadata>;

/** hybrid: both legs fused, then reranked by the external provider (or the builtin one, degraded). */
export const HybridSearchMetadata = z.strictObject({ ...rerankedFields, fusion: FusionMetadata, stageTimingsMs: RerankStageTimings });
export type HybridSearchMetadata = z.infer<typeof HybridSearchMetadata>;

/**
 * similar: the CVs most like one of the company's CVs, by its own whole-document vector and by
 * its distinctive words (the terms it holds most often that the company's CVs hold least), the
 * two legs fused as hybrid's are; no reranker, which reads a query.
 */
export const SimilarSearchMetadata = z.strictObject({
  ...unrerankedFields,
  similarTo: z.uuid(),
  distinctiveTerms: z.array(z.string()),
  denseModel: recordedDenseModel,
  fusion: FusionMetadata,
  stageTimingsMs: RetrievalStageTimings,
});
export type SimilarSearchMetadata = z.infer<typeof SimilarSearchMetadata>;

/**
 * match: candidates from both legs (the criteria's title and skills as the query), fused, read by
 * the builtin reranker and assessed against the criteria; the results are ranked by both
 * (`criteriaShare` of the score is the criteria's). `strict`: the hard criteria were filters.
 */
export const MatchSearchMetadata = z.strictObject({
  ...rerankedFields,
  strict: z.boolean(),
  criteriaShare: z.number(),
  fusion: FusionMetadata,
  stageTimingsMs: RerankStageTimings,
});
export type MatchSearchMetadata = z.infer<typeof MatchSearchMetadata>;

/** The metadata schema of each search type (a type missing here fails to compile). */
export const SEARCH_METADATA = {
  dense: DenseSearchMetadata,
  sparse: SparseSearchMetadata,
  hybrid: HybridSearchMetadata,
  'builtin-rerank': BuiltinRerankSearchMetadata,
  similar: SimilarSearchMetadata,
  match: MatchSearchMetadata,
} as const satisfies Record<SearchType, z.ZodType>;

export type SearchMetadataByType = { [T in SearchType]: z.infer<(typeof SEARCH_METADATA)[T]> };
/** One type's metadata, or (unnamed) any type's. */
export type SearchMetadata<T extends SearchType = SearchType> = SearchMetadataByType[T];

const ofType = <T extends SearchType>(searchType: T) =>
  z.strictObject({ searchType: z.literal(searchType), metadata: SEARCH_METADATA[searchType] });
/** A search's type with its metadata: what a completed search's stored metadata is read against. */
export const TypedSearchMetadata = z.discriminatedUnion('searchType', [
  ofType('dense'),
  ofType('sparse'),
  ofType('hybrid'),
  ofType('builtin-rerank'),
  ofType('similar'),
  ofType('match'),
]);
export type TypedSearchMetadata = z.infer<typeof TypedSearchMetadata>;
// A search type added without its case in the union fails to compile here.
const _everyTypeCovered: Exclude<SearchType, TypedSearchMetadata['searchType']> extends never ? true : never = true;
