import { JobFailure } from '@cs/contracts';
import { SHIPPED_TUNING } from '@cs/ranking';
import {
  countFacets,
  countRequirements,
  passesFilter,
  type FacetField,
  type SearchAttributes,
  type SearchFilter,
} from '@cs/search-filters';
import type {
  CandidateTexts,
  DenseClient,
  DenseSearchResult,
  KeywordHit,
  RerankCandidate,
  RerankResponse,
  RerankerClient,
  SparseClient,
} from '@cs/ports';
import type { ChunkSpan } from '@cs/records';
import { termsOf, type ParsedQuery } from '@cs/text-analysis';
import { DocumentTexts, type DocumentTextReads } from '../document-texts';
import { DenseRetrieval } from '../stages/dense-retrieval';
import { Reranking } from '../stages/reranking';
import { ResultDocuments, type SearchableDocuments } from '../stages/result-documents';
import type { SearchCommand } from '../stages/search-command';
import { FacetCounting } from '../stages/facet-counting';
import { KeywordConditions, type ProfileSkillReads } from '../stages/keyword-conditions';
import { SkillPhrases } from '../stages/skill-phrases';
import { SparseRetrieval } from '../stages/sparse-retrieval';

/** A CV of the fake company: its text and passage spans, and whether it is still searchable. */
export interface FakeCv {
  id: string;
  name: string;
  text: string;
  chunks?: ChunkSpan[];
  /** False once deleted (or not processed): the indexes may still return it. */
  searchable?: boolean;
  /** What filters and facets read of it; none by default. */
  attributes?: SearchAttributes;
}

/** A failure as the gRPC clients report a service that is down: retryable. */
export const unavailable = (service: string) => new JobFailure(`the ${service} service is unavailable on Search: connection refused`, true);

export interface FakeServices {
  /** The dense service's answer; by default every CV the filter lets through, in order, scores 0.9, 0.8... and every word is known. */
  denseSearch?: (query: string, topK: number, wordContexts: ReadonlyMap<string, string> | undefined) => Omit<DenseSearchResult, 'model'>;
  /** The sparse service's answer; by default the CVs holding any of the query's parts, as written (case-insensitive). */
  sparseSearch?: (query: ParsedQuery, topK: number) => KeywordHit[];
  /** The builtin reranker's score of a CV; by default the candidates keep their order. */
  builtinScore?: (id: string, firstStageScore: number) => number;
  /** The reranker service's answer to an external rerank; by default a working Cohere provider scoring as builtinScore. */
  external?: (candidates: RerankCandidate[], texts: Map<string, string>, topN: number) => RerankResponse;
  /** The model the dense service says it searched with; FAKE_DENSE_MODEL (a builtin one) by default. */
  denseModel?: { id: string; dimensions: number };
  /** A service that throws on every call. */
  down?: ('dense' | 'sparse' | 'reranker')[];
}

/** What each fake port was asked. */
export interface Calls {
  /** `filter` only where the leg was given one. */
  dense: { query: string; topK: number; wordContexts: ReadonlyMap<string, string> | undefined; filter?: SearchFilter }[];
  sparse: { query: ParsedQuery; topK: number; filter?: SearchFilter }[];
  similar: { documentId: string; topK: number; filter?: SearchFilter }[];
  facets: { fields: readonly FacetField[]; filter?: SearchFilter }[];
  phrases: { phrase: string; limit: number }[];
  rerank: {
    mode: 'builtin' | 'external';
    query: string;
    candidates: RerankCandidate[];
    topN: number;
    wordContexts: ReadonlyMap<string, string> | undefined;
  }[];
}

const unused = async (): Promise<never> => {
  throw new Error('not used by searches');
};

/** The model the fake dense service says it searched with. */
export const FAKE_DENSE_MODEL = { id: 'builtin:fake-3d-v1', dimensions: 3 };

/**
 * The search stages over fakes of the ports (DenseClient, SparseClient, RerankerClient) and of
 * the records reads (searchable documents, texts, passage spans) of one company's CVs.
 */
export function fakeStages(cvs: readonly FakeCv[], services: FakeServices = {}) {
  const calls: Calls = { dense: [], similar: [], sparse: [], facets: [], phrases: [], rerank: [] };
  const down = new Set(services.down ?? []);
  const byId = new Map(cvs.map((cv) => [cv.id, cv]));

  const dense: DenseClient = {
    upsert: unused,
    delete: unused,
    models: unused,
    reindex: unused,
    activateNext: unused,
    setAttributes: unused,
    count: async () => cvs.length,
    search: async (_companyId, query, topK, wordContexts, filter) => {
      calls.dense.push({ query, topK, wordContexts, ...(filter ? { filter } : {}) });
      if (down.has('dense')) throw unavailable('dense');
      const result = services.denseSearch
        ? services.denseSearch(query, topK, wordContexts)
        : {
            hits: cvs
              .filter((cv) => !filter || passesFilter(cv.id, cv.attributes ?? null, filter))
              .slice(0, topK)
              .map((cv, i) => ({ documentId: cv.id, score: 0.9 - i / 10, chunkIndex: -1 })),
            noKnownWords: false,
            unknownWords: [],
          };
      return { ...result, model: services.denseModel ?? FAKE_DENSE_MODEL };
    },
    // Every other CV the filter lets through, in the fixture's order; nothing for a CV it lacks.
    similar: async (_companyId, documentId, topK, filter) => {
      calls.similar.push({ documentId, topK, ...(filter ? { filter } : {}) });
      if (down.has('dense')) throw unavailable('dense');
      const model = services.denseModel ?? FAKE_DENSE_MODEL;
      if (!byId.has(documentId)) return { hits: [], noKnownWords: true, unknownWords: [], model };
      const hits = cvs
        .filter((cv) => !filter || passesFilter(cv.id, cv.attributes ?? null, filter))
        .slice(0, topK)
        .map((cv, i) => ({ documentId: cv.id, score: 0.9 - i / 10, chunkIndex: -1 }));
      return { hits, noKnownWords: false, unknownWords: [], model };
    },
  };

  const sparse: SparseClient = {
    upsert: unused,
    delete: unused,
    setAttributes: unused,
    distinctiveTerms: async (_companyId, documentId, limit) => [...new Set(termsOf(byId.get(documentId)?.text ?? ''))].slice(0, limit),
    facets: async (_companyId, filter, fields) => {
      calls.facets.push({ fields, ...(filter ? { filter } : {}) });
      const passing = filter?.documentIds ? cvs.filter((cv) => filter.documentIds!.includes(cv.id)) : cvs;
      return countFacets(
        passing.map((cv) => cv.attributes ?? null),
        fields,
      );
    },
    requirementCounts: async (_companyId, base, requirements) => {
      if (down.has('sparse')) throw unavailable('sparse');
      return countRequirements(
        cvs.map((cv) => ({ id: cv.id, attributes: cv.attributes ?? null })),
        base,
        requirements,
      );
    },
    documentsWithPhrase: async (_companyId, phrase, limit) => {
      calls.phrases.push({ phrase, limit });
      if (down.has('sparse')) throw unavailable('sparse');
      return cvs
        .filter((cv) => cv.text.toLowerCase().includes(phrase))
        .slice(0, limit)
        .map((cv) => cv.id);
    },
    search: async (_companyId, query, topK, filter) => {
      calls.sparse.push({ query, topK, ...(filter ? { filter } : {}) });
      if (down.has('sparse')) throw unavailable('sparse');
      if (services.sparseSearch) return services.sparseSearch(query, topK);
      return cvs
        .filter((cv) => !filter || passesFilter(cv.id, cv.attributes ?? null, filter))
        .map((cv) => ({ cv, matched: query.parts.filter((p) => cv.text.toLowerCase().includes(p.text.toLowerCase())).map((p) => p.text) }))
        .filter((h) => h.matched.length > 0)
        .sort((a, b) => b.matched.length - a.matched.length)
        .slice(0, topK)
        .map((h) => ({ documentId: h.cv.id, score: h.matched.length, maxScore: query.parts.length, matchedTerms: h.matched }));
    },
  };

  const builtinScore = services.builtinScore ?? ((_id: string, first: number) => first);
  // As the reranker service does: candidates whose text is gone drop out, the best `topN` come back.
  const builtin = async (candidates: RerankCandidate[], texts: CandidateTexts, topN: number): Promise<RerankResponse> => {
    const found = await texts(candidates.map((c) => c.id));
    const results = candidates
      .filter((c) => found.has(c.id))
      .map((c) => ({ id: c.id, score: builtinScore(c.id, c.firstStageScore ?? 0) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, topN);
    return { provider: 'builtin', results };
  };
  const reranker: RerankerClient = {
    rerankBuiltin: async (query, candidates, texts, topN, wordContexts) => {
      calls.rerank.push({ mode: 'builtin', query, candidates, topN, wordContexts });
      if (down.has('reranker')) throw unavailable('reranker');
      return builtin(candidates, texts, topN);
    },
    rerankExternal: async (query, candidates, texts, topN, wordContexts) => {
      calls.rerank.push({ mode: 'external', query, candidates, topN, wordContexts });
      if (down.has('reranker')) throw unavailable('reranker');
      if (services.external) return services.external(candidates, await texts(candidates.map((c) => c.id)), topN);
      return { ...(await builtin(candidates, texts, topN)), provider: 'cohere:rerank-v3.5' };
    },
  };

  const processed = (ids: string[]) => ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const textReads: DocumentTextReads = {
    getTexts: async (_companyId, ids) => new Map(processed(ids).map((cv) => [cv.id, cv.text])),
    getChunks: async (_companyId, ids) => new Map(processed(ids).map((cv) => [cv.id, cv.chunks ?? []])),
    getContents: async (_companyId, ids) => new Map(processed(ids).map((cv) => [cv.id, { text: cv.text, chunks: cv.chunks ?? [] }])),
  };
  const searchable: SearchableDocuments = {
    getSearchable: async (_companyId, ids) =>
      new Map(
        processed(ids)
          .filter((cv) => cv.searchable !== false)
          .map((cv) => [cv.id, { documentName: cv.name, documentDate: '01-2024' }]),
      ),
  };

  const profiles: ProfileSkillReads = {
    getMany: async (_companyId, ids) =>
      new Map(processed(ids).map((cv) => [cv.id, { profile: cv.attributes ? { skills: cv.attributes.skills } : null }])),
  };

  const texts = new DocumentTexts(textReads);
  return {
    calls,
    denseRetrieval: new DenseRetrieval(dense, sparse, texts, SHIPPED_TUNING),
    sparseRetrieval: new SparseRetrieval(sparse),
    facetCounting: new FacetCounting(sparse),
    reranking: new Reranking(reranker, texts),
    resultDocuments: new ResultDocuments(searchable, texts),
    keywordConditions: new KeywordConditions(profiles, texts),
    texts,
    sparse,
    searchable,
    skillPhrases: new SkillPhrases(sparse),
  };
}

export const command = (query: string, overrides: Partial<SearchCommand> = {}): SearchCommand => ({
  type: 'dense',
  companyId: 'c-1',
  query,
  similarTo: null,
  match: null,
  topK: 20,
  rerankTopN: 30,
  filter: null,
  ...overrides,
});

/** What a rejected search threw, for asserting its message and whether it may be retried. */
export async function failureOf(work: Promise<unknown>): Promise<JobFailure> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof JobFailure)) throw new Error(`expected a JobFailure, got ${String(error)}`);
  return error;
}
