import type * as grpc from '@grpc/grpc-js';
import { DomainError, denseV1, healthV1, rerankerV1, sparseV1 } from '@cs/contracts';
import { textsFrom, type DenseClient, type RerankerClient, type SparseClient } from '@cs/ports';
import { attributesFromJson, facetCountsToJson, facetFieldsOf, filterFromJson, requirementsFromJson } from '@cs/search-filters';
import { addService } from './grpc-transport';
import { conditionFromWire } from './keyword-conditions';

const required = (value: string, field: string) => {
  if (!value) throw new DomainError('invalid_request', `${field} is required`);
  return value;
};

/** JSON fields read back against their schemas: one that does not fit is the caller's error. */
function readJson<A, T>(read: (value: A) => T, value: A): T {
  try {
    return read(value);
  } catch (error) {
    throw new DomainError('invalid_request', (error as Error).message);
  }
}

const requiredAttributes = (json: string) => readJson(attributesFromJson, required(json, 'attributes_json'))!;

/** Serves a DenseClient implementation as candidate_search.dense.v1.DenseService. */
export function addDenseService(server: grpc.Server, dense: DenseClient & { embedMany(texts: string[]): Promise<Float32Array[]> }): void {
  addService(server, denseV1.DenseService, {
    embed: async ({ texts }) => ({ vectors: (await dense.embedMany(texts)).map((v) => ({ values: [...v] })) }),
    upsert: async ({ companyId, documentId, text, chunks, attributesJson }) => ({
      vectors: await dense.upsert(
        required(companyId, 'company_id'),
        required(documentId, 'document_id'),
        text,
        chunks.map((c) => ({ index: c.index, text: c.text, start: c.start, end: c.end })),
        readJson(attributesFromJson, attributesJson),
      ),
      attributesStored: true,
    }),
    setAttributes: async ({ companyId, documentId, attributesJson }) => ({
      found: await dense.setAttributes(
        required(companyId, 'company_id'),
        required(documentId, 'document_id'),
        requiredAttributes(attributesJson),
      ),
    }),
    delete: async ({ companyId, documentId }) => ({
      deleted: await dense.delete(required(companyId, 'company_id'), required(documentId, 'document_id')),
    }),
    search: async ({ companyId, query, topK, wordContexts, filterJson }) => {
      const result = await dense.search(
        required(companyId, 'company_id'),
        query,
        Math.max(1, topK),
        new Map(Object.entries(wordContexts)),
        readJson(filterFromJson, filterJson),
      );
      return { ...result, modelId: result.model.id, modelDimensions: result.model.dimensions, filterApplied: true };
    },
    searchSimilar: async ({ companyId, documentId, topK, filterJson }) => {
      const result = await dense.similar(
        required(companyId, 'company_id'),
        required(documentId, 'document_id'),
        Math.max(1, topK),
        readJson(filterFromJson, filterJson),
      );
      return { found: { ...result, modelId: result.model.id, modelDimensions: result.model.dimensions, filterApplied: true } };
    },
    count: async ({ companyId }) => ({ documents: await dense.count(required(companyId, 'company_id')) }),
    models: async () => {
      const { active, next } = await dense.models();
      return { active, next: next ?? undefined };
    },
    reindex: async ({ companyId, documentId, text, chunks, modelId, attributesJson }) => ({
      vectors: await dense.reindex(
        required(companyId, 'company_id'),
        required(documentId, 'document_id'),
        text,
        chunks.map((c) => ({ index: c.index, text: c.text, start: c.start, end: c.end })),
        required(modelId, 'model_id'),
        readJson(attributesFromJson, attributesJson),
      ),
      attributesStored: true,
    }),
    activateNext: async ({ modelId }) => ({ active: await dense.activateNext(required(modelId, 'model_id')) }),
  });
}

/** Serves a SparseClient implementation as candidate_search.sparse.v1.SparseService. */
export function addSparseService(server: grpc.Server, sparse: SparseClient): void {
  addService(server, sparseV1.SparseService, {
    upsert: async ({ companyId, documentId, text, attributesJson }) => {
      await sparse.upsert(
        required(companyId, 'company_id'),
        required(documentId, 'document_id'),
        text,
        readJson(attributesFromJson, attributesJson),
      );
      return { attributesStored: true };
    },
    setAttributes: async ({ companyId, documentId, attributesJson }) => ({
      found: await sparse.setAttributes(
        required(companyId, 'company_id'),
        required(documentId, 'document_id'),
        requiredAttributes(attributesJson),
      ),
    }),
    delete: async ({ companyId, documentId }) => ({
      deleted: await sparse.delete(required(companyId, 'company_id'), required(documentId, 'document_id')),
    }),
    facets: async ({ companyId, fields, filterJson }) => ({
      countsJson: facetCountsToJson(
        await sparse.facets(required(companyId, 'company_id'), readJson(filterFromJson, filterJson), readJson(facetFieldsOf, fields)),
      ),
    }),
    requirementCounts: async ({ companyId, baseFilterJson, requirementFiltersJson }) =>
      await sparse.requirementCounts(
        required(companyId, 'company_id'),
        readJson(filterFromJson, baseFilterJson),
        readJson(requirementsFromJson, requirementFiltersJson),
      ),
    search: async ({ companyId, raw, parts, topK, filterJson, required: requiredConditions, excluded }) => ({
      hits: await sparse.search(
        required(companyId, 'company_id'),
        {
          raw,
          parts: parts.map((p) => ({ text: p.text, terms: p.terms, phrase: p.phrase })),
          required: requiredConditions.map((c) => conditionFromWire(c)),
          excluded: excluded.map((c) => conditionFromWire(c)),
        },
        Math.max(1, topK),
        readJson(filterFromJson, filterJson),
      ),
      conditionsApplied: true,
      filterApplied: true,
    }),
    distinctiveTerms: async ({ companyId, documentId, limit }) => ({
      terms: await sparse.distinctiveTerms(required(companyId, 'company_id'), required(documentId, 'document_id'), Math.max(0, limit)),
    }),
    documentsWithPhrase: async ({ companyId, phrase, limit }) => ({
      documentIds: await sparse.documentsWithPhrase(
        required(companyId, 'company_id'),
        required(phrase, 'phrase'),
        // Elasticsearch's default result window.
        Math.min(Math.max(1, limit), 10_000),
      ),
    }),
  });
}

/** Serves a RerankerClient implementation as candidate_search.reranker.v1.RerankerService. */
export function addRerankerService(server: grpc.Server, reranker: RerankerClient): void {
  addService(server, rerankerV1.RerankerService, {
    rerank: async ({ query, documents, topN, mode, wordContexts }) => {
      const candidates = documents.map((d) => ({ id: d.id, firstStageScore: d.firstStageScore, denseScore: d.denseScore }));
      const texts = textsFrom(new Map(documents.map((d) => [d.id, d.text])));
      const contexts = new Map(Object.entries(wordContexts));
      let response;
      switch (mode) {
        case rerankerV1.RerankMode.BUILTIN:
          response = await reranker.rerankBuiltin(query, candidates, texts, Math.max(1, topN), contexts);
          break;
        case rerankerV1.RerankMode.EXTERNAL:
          response = await reranker.rerankExternal(query, candidates, texts, Math.max(1, topN), contexts);
          break;
        case rerankerV1.RerankMode.UNSPECIFIED:
          throw new DomainError('invalid_request', 'mode is required');
      }
      return { provider: response.provider, results: response.results, degradedReason: response.degraded?.reason ?? '' };
    },
  });
}

/** The standard health service; `ready` says whether this process can serve. */
export function addHealthService(server: grpc.Server, ready: () => boolean): void {
  addService(server, healthV1.Health, {
    check: async () => ({
      status: ready() ? healthV1.HealthCheckResponse_ServingStatus.SERVING : healthV1.HealthCheckResponse_ServingStatus.NOT_SERVING,
    }),
  });
}
