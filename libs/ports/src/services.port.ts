import type { Chunk } from '@cs/embeddings';
import type { FacetCounts, FacetField, RequirementCounts, SearchAttributes, SearchFilter } from '@cs/search-filters';
import type { ParsedQuery } from '@cs/text-analysis';
import type { DenseModel } from './dense-encoder.port';
import type { KeywordHit } from './keyword-index.port';
import type { VectorHit } from './vector-index.port';

/**
 * A dense search's hits; `noKnownWords` when no word of the query is known even by its nearest
 * spelling, so there was nothing to search with (not the same as finding nothing);
 * `unknownWords`, the query's words no vector read and no context was given for.
 */
export interface DenseSearchResult {
  hits: VectorHit[];
  noKnownWords: boolean;
  unknownWords: string[];
  /** The model that read the query and made the vectors searched. */
  model: DenseModel;
}

/** The dense service: embeddings and the vector index behind them. */
export interface DenseClient {
  /** Where the service is remote: resolves when it reports SERVING, else throws why not. */
  health?(): Promise<void>;
  /** `chunks`: the document's passages, as the chunker cut them, each embedded beside the whole. */
  upsert(companyId: string, documentId: string, text: string, chunks: Chunk[], attributes?: SearchAttributes): Promise<number>;
  /** Replaces a CV's attributes in the active set (a profile read again); false when it lacks the CV. */
  setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean>;
  delete(companyId: string, documentId: string): Promise<number>;
  /**
   * `wordContexts`: text from the company's CVs around query words the vectors lack, read as
   * their meaning; `filter`: only CVs that pass it are ranked.
   */
  search(
    companyId: string,
    query: string,
    topK: number,
    wordContexts?: ReadonlyMap<string, string>,
    filter?: SearchFilter | null,
  ): Promise<DenseSearchResult>;
  /**
   * The CVs closest to one of the company's CVs by its own whole-document vector in the active
   * set, best first; `noKnownWords` when that set holds no vector of it (nothing to search with).
   * The CV itself is among the hits unless the filter keeps it out.
   */
  similar(companyId: string, documentId: string, topK: number, filter?: SearchFilter | null): Promise<DenseSearchResult>;
  count(companyId: string): Promise<number>;
  /** The model searches read, and the one a reindex fills (DENSE_MODEL_NEXT), if any. */
  models(): Promise<DenseModels>;
  /**
   * Embeds a stored CV again for a reindex into `modelId`'s set: the next model's when there is
   * one, else the active model's in place. Refused (conflict) when that is not `modelId`, as on a
   * replica started with other settings. Returns the vectors stored.
   */
  reindex(
    companyId: string,
    documentId: string,
    text: string,
    chunks: Chunk[],
    modelId: string,
    attributes?: SearchAttributes,
  ): Promise<number>;
  /** Searches read the next model's set from now on; refused (conflict) unless the next model is `modelId`. */
  activateNext(modelId: string): Promise<DenseModel>;
}

export interface DenseModels {
  active: DenseModel;
  next: DenseModel | null;
}
export const DENSE_CLIENT = Symbol('DenseClient');

/** The sparse service: the BM25 index. */
export interface SparseClient {
  /** Where the service is remote: resolves when it reports SERVING, else throws why not. */
  health?(): Promise<void>;
  upsert(companyId: string, documentId: string, text: string, attributes?: SearchAttributes): Promise<void>;
  /** Replaces a CV's attributes (a profile read again); false when the index lacks the CV. */
  setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean>;
  delete(companyId: string, documentId: string): Promise<number>;
  search(companyId: string, query: ParsedQuery, topK: number, filter?: SearchFilter | null): Promise<KeywordHit[]>;
  /** A CV's most distinctive analysed terms, best first (KeywordIndex.distinctiveTerms). */
  distinctiveTerms(companyId: string, documentId: string, limit: number): Promise<string[]>;
  /** Counts of the fields' values over the company's CVs that pass the filter. */
  facets(companyId: string, filter: SearchFilter | null, fields: readonly FacetField[]): Promise<FacetCounts>;
  /** As KeywordIndex.requirementCounts. */
  requirementCounts(companyId: string, base: SearchFilter | null, requirements: readonly SearchFilter[]): Promise<RequirementCounts>;
  /** As KeywordIndex.documentsWithPhrase. */
  documentsWithPhrase(companyId: string, phrase: string, limit: number): Promise<string[]>;
}
export const SPARSE_CLIENT = Symbol('SparseClient');

/** A candidate to rerank; its text is read through the request's `CandidateTexts` when needed. */
export interface RerankCandidate {
  id: string;
  /** Score from the first stage (retrieval or fusion), 0..1: one feature of the builtin reranker. */
  firstStageScore?: number;
  /**
   * The dense model's cosine of the query and the CV, given when that model is not the builtin
   * one: the builtin reranker then reads meaning as the dense search did, not by its word vectors.
   */
  denseScore?: number;
}
/**
 * Candidates' texts by id, read on demand: a reranker that has already analysed a CV need not
 * read it again (a processed CV's text never changes). Ids whose text is gone are absent.
 */
export type CandidateTexts = (ids: string[]) => Promise<Map<string, string>>;

/** Candidate texts from a map already in hand. */
export const textsFrom =
  (texts: ReadonlyMap<string, string>): CandidateTexts =>
  async (ids) =>
    new Map(ids.flatMap((id) => (texts.has(id) ? [[id, texts.get(id)!] as const] : [])));

export interface RerankResult {
  id: string;
  /** Relevance in 0..1, higher is better. */
  score: number;
}
export interface RerankResponse {
  /** Who scored: `builtin`, `local` or an external provider and model. */
  provider: string;
  results: RerankResult[];
  /** Set when the external provider failed and the builtin reranker stood in. */
  degraded?: { reason: string };
}

/** The reranker service: the builtin scorer, and the external provider hybrid uses. */
export interface RerankerClient {
  /** `wordContexts`: as for DenseClient.search, so the scorer reads the query as dense search did. */
  rerankBuiltin(
    query: string,
    candidates: RerankCandidate[],
    texts: CandidateTexts,
    topN: number,
    wordContexts?: ReadonlyMap<string, string>,
  ): Promise<RerankResponse>;
  rerankExternal(
    query: string,
    candidates: RerankCandidate[],
    texts: CandidateTexts,
    topN: number,
    wordContexts?: ReadonlyMap<string, string>,
  ): Promise<RerankResponse>;
}
export const RERANKER_CLIENT = Symbol('RerankerClient');
