import { JobFailure, denseV1, rerankerV1, sparseV1 } from '@cs/contracts';
import type { Chunk } from '@cs/embeddings';
import type {
  CandidateTexts,
  DenseClient,
  DenseModel,
  DenseModels,
  DenseSearchResult,
  KeywordHit,
  RerankCandidate,
  RerankResponse,
  RerankerClient,
  SparseClient,
} from '@cs/ports';
import {
  attributesToJson,
  facetCountsFromJson,
  filterToJson,
  type FacetCounts,
  type FacetField,
  type RequirementCounts,
  type SearchAttributes,
  type SearchFilter,
} from '@cs/search-filters';
import type { ParsedQuery } from '@cs/text-analysis';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { createClient, grpcHealthCheck, type ServiceClient } from './grpc-transport';
import { conditionToWire } from './keyword-conditions';

/**
 * A service's typed client, with the service's standard health check on a channel of its own,
 * so that a readiness probe never queues behind searches.
 */
abstract class HealthCheckedClient<T extends GenServiceMethods> {
  protected readonly rpc: ServiceClient<T>;
  private readonly healthCheck: { check: () => Promise<void>; close: () => void };
  readonly close: () => void;

  constructor(service: GenService<T>, address: string, timeoutMs: number) {
    const rpc = createClient(service, { address, defaultTimeoutMs: timeoutMs });
    this.rpc = rpc.client;
    this.healthCheck = grpcHealthCheck(address, Math.min(timeoutMs, 2000));
    this.close = () => {
      rpc.close();
      this.healthCheck.close();
    };
  }

  /** Resolves when the service reports SERVING (the gateway's readiness asks). */
  health(): Promise<void> {
    return this.healthCheck.check();
  }
}

/**
 * A service built before filters ignores a search's filter and drops a CV's attributes: what it
 * answers then would break the filter's promise, so the call fails, retryably (the service is
 * upgraded within a rollout).
 */
function appliedFilter(service: string, applied: boolean): void {
  if (!applied) throw new JobFailure(`the ${service} service does not apply search filters yet (it is older than this caller)`, true);
}
function storedAttributes(service: string, stored: boolean): void {
  if (!stored)
    throw new JobFailure(`the ${service} service does not store CVs' filter attributes yet (it is older than this caller)`, true);
}

/** The dense service over gRPC, behind the DenseClient port. */
export class GrpcDenseClient extends HealthCheckedClient<typeof denseV1.DenseService.method> implements DenseClient {
  constructor(address: string, timeoutMs: number) {
    super(denseV1.DenseService, address, timeoutMs);
  }

  async upsert(companyId: string, documentId: string, text: string, chunks: Chunk[], attributes?: SearchAttributes): Promise<number> {
    const response = await this.rpc.upsert({ companyId, documentId, text, chunks, attributesJson: attributesToJson(attributes) });
    if (attributes) storedAttributes('dense', response.attributesStored);
    return response.vectors;
  }

  async setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean> {
    return (await this.rpc.setAttributes({ companyId, documentId, attributesJson: attributesToJson(attributes) })).found;
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    return (await this.rpc.delete({ companyId, documentId })).deleted;
  }

  async search(
    companyId: string,
    query: string,
    topK: number,
    wordContexts?: ReadonlyMap<string, string>,
    filter?: SearchFilter | null,
  ): Promise<DenseSearchResult> {
    const response = await this.rpc.search({
      companyId,
      query,
      topK,
      wordContexts: Object.fromEntries(wordContexts ?? []),
      filterJson: filterToJson(filter),
    });
    return denseFound(response, filter);
  }

  async similar(companyId: string, documentId: string, topK: number, filter?: SearchFilter | null): Promise<DenseSearchResult> {
    const { found } = await this.rpc.searchSimilar({ companyId, documentId, topK, filterJson: filterToJson(filter) });
    if (!found) throw new Error('the dense service answered a similar search without its hits');
    return denseFound(found, filter);
  }

  async count(companyId: string): Promise<number> {
    return (await this.rpc.count({ companyId })).documents;
  }

  async models(): Promise<DenseModels> {
    const { active, next } = await this.rpc.models({});
    return { active: modelOf(active), next: next ? modelOf(next) : null };
  }

  async reindex(
    companyId: string,
    documentId: string,
    text: string,
    chunks: Chunk[],
    modelId: string,
    attributes?: SearchAttributes,
  ): Promise<number> {
    const response = await this.rpc.reindex({ companyId, documentId, text, chunks, modelId, attributesJson: attributesToJson(attributes) });
    if (attributes) storedAttributes('dense', response.attributesStored);
    return response.vectors;
  }

  async activateNext(modelId: string): Promise<DenseModel> {
    return modelOf((await this.rpc.activateNext({ modelId })).active);
  }
}

function denseFound(response: denseV1.SearchResponse, filter: SearchFilter | null | undefined): DenseSearchResult {
  if (filter) appliedFilter('dense', response.filterApplied);
  return {
    hits: response.hits.map((h) => ({ documentId: h.documentId, score: h.score, chunkIndex: h.chunkIndex })),
    noKnownWords: response.noKnownWords,
    unknownWords: response.unknownWords,
    model: { id: response.modelId, dimensions: response.modelDimensions },
  };
}

function modelOf(model: { id: string; dimensions: number } | undefined): DenseModel {
  if (!model) throw new Error('the dense service named no model');
  return { id: model.id, dimensions: model.dimensions };
}

/** The sparse service over gRPC, behind the SparseClient port. */
export class GrpcSparseClient extends HealthCheckedClient<typeof sparseV1.SparseService.method> implements SparseClient {
  constructor(address: string, timeoutMs: number) {
    super(sparseV1.SparseService, address, timeoutMs);
  }

  async upsert(companyId: string, documentId: string, text: string, attributes?: SearchAttributes): Promise<void> {
    const response = await this.rpc.upsert({ companyId, documentId, text, attributesJson: attributesToJson(attributes) });
    if (attributes) storedAttributes('sparse', response.attributesStored);
  }

  async setAttributes(companyId: string, documentId: string, attributes: SearchAttributes): Promise<boolean> {
    return (await this.rpc.setAttributes({ companyId, documentId, attributesJson: attributesToJson(attributes) })).found;
  }

  async delete(companyId: string, documentId: string): Promise<number> {
    return (await this.rpc.delete({ companyId, documentId })).deleted;
  }

  async facets(companyId: string, filter: SearchFilter | null, fields: readonly FacetField[]): Promise<FacetCounts> {
    const response = await this.rpc.facets({ companyId, fields: [...fields], filterJson: filterToJson(filter) });
    return facetCountsFromJson(response.countsJson);
  }

  async requirementCounts(companyId: string, base: SearchFilter | null, requirements: readonly SearchFilter[]): Promise<RequirementCounts> {
    const { meetingAll, failingOnly } = await this.rpc.requirementCounts({
      companyId,
      baseFilterJson: filterToJson(base),
      requirementFiltersJson: requirements.map((r) => JSON.stringify(r)),
    });
    return { meetingAll, failingOnly };
  }

  async distinctiveTerms(companyId: string, documentId: string, limit: number): Promise<string[]> {
    return (await this.rpc.distinctiveTerms({ companyId, documentId, limit })).terms;
  }

  async documentsWithPhrase(companyId: string, phrase: string, limit: number): Promise<string[]> {
    return (await this.rpc.documentsWithPhrase({ companyId, phrase, limit })).documentIds;
  }

  async search(companyId: string, query: ParsedQuery, topK: number, filter?: SearchFilter | null): Promise<KeywordHit[]> {
    const required = (query.required ?? []).map(conditionToWire);
    const excluded = (query.excluded ?? []).map(conditionToWire);
    const response = await this.rpc.search({
      companyId,
      raw: query.raw,
      parts: query.parts,
      topK,
      filterJson: filterToJson(filter),
      required,
      excluded,
    });
    if (filter) appliedFilter('sparse', response.filterApplied);
    // A service built before conditions ignores them: its hits would include CVs they keep out.
    if (required.length + excluded.length > 0 && !response.conditionsApplied)
      throw new JobFailure('the sparse service does not apply the query’s + and - clauses yet (it is older than this orchestrator)', true);
    return response.hits.map((h) => ({ documentId: h.documentId, score: h.score, maxScore: h.maxScore, matchedTerms: h.matchedTerms }));
  }
}

/** The reranker service over gRPC, behind the RerankerClient port. */
export class GrpcRerankerClient implements RerankerClient {
  private readonly rpc: ServiceClient<typeof rerankerV1.RerankerService.method>;
  readonly close: () => void;

  constructor(address: string, timeoutMs: number) {
    ({ client: this.rpc, close: this.close } = createClient(rerankerV1.RerankerService, { address, defaultTimeoutMs: timeoutMs }));
  }

  rerankBuiltin(
    query: string,
    candidates: RerankCandidate[],
    texts: CandidateTexts,
    topN: number,
    wordContexts?: ReadonlyMap<string, string>,
  ): Promise<RerankResponse> {
    return this.call(query, candidates, texts, topN, rerankerV1.RerankMode.BUILTIN, wordContexts);
  }

  rerankExternal(
    query: string,
    candidates: RerankCandidate[],
    texts: CandidateTexts,
    topN: number,
    wordContexts?: ReadonlyMap<string, string>,
  ): Promise<RerankResponse> {
    return this.call(query, candidates, texts, topN, rerankerV1.RerankMode.EXTERNAL, wordContexts);
  }

  /** Sends every candidate's text: which CVs a reranker replica has analysed is its own affair. */
  private async call(
    query: string,
    candidates: RerankCandidate[],
    texts: CandidateTexts,
    topN: number,
    mode: rerankerV1.RerankMode,
    wordContexts: ReadonlyMap<string, string> = new Map(),
  ): Promise<RerankResponse> {
    const known = await texts(candidates.map((c) => c.id));
    const documents = candidates
      .filter((c) => known.has(c.id))
      .map((c) => ({ id: c.id, text: known.get(c.id)!, firstStageScore: c.firstStageScore, denseScore: c.denseScore }));
    const response = await this.rpc.rerank({ query, documents, topN, mode, wordContexts: Object.fromEntries(wordContexts) });
    return {
      provider: response.provider,
      results: response.results.map((r) => ({ id: r.id, score: r.score })),
      ...(response.degradedReason ? { degraded: { reason: response.degradedReason } } : {}),
    };
  }
}
