import { Inject, Injectable, Logger } from '@nestjs/common';
import { JobFailure } from '@cs/contracts';
import {
  DENSE_CLIENT,
  RERANKER_CLIENT,
  SPARSE_CLIENT,
  type CandidateTexts,
  type DenseClient,
  type RerankCandidate,
  type RerankResponse,
  type RerankerClient,
  type SparseClient,
} from '@cs/ports';
import { RRF_K, reciprocalRankFusion } from '@cs/ranking';
import { DocumentsRepository, type SearchRecord, type StoredResult } from '@cs/records';
import { MIN_RERANK_CANDIDATES } from '@cs/search-domain';
import { analyze, bigrams, findHighlights, parseQuery, queryTerms, termFinder, type Highlight, type ParsedQuery, type Term } from '@cs/text-analysis';
import { DocumentTexts, type DocumentContent } from './document-texts';

type Scores = StoredResult['scores'];

/** What a query word the vectors lack was read as: the text around it in `cvs` CVs. */
interface WordContext {
  text: string;
  cvs: number;
}

interface Ranked {
  documentId: string;
  score: number;
  scores: Scores;
  /** Chunk of the best dense match, for its highlight. */
  chunkIndex?: number;
}

export interface PipelineOutcome {
  results: StoredResult[];
  metadata: Record<string, unknown>;
}

// Searches that cannot run because the query gives a leg nothing to search with: not retryable.
const NO_KEYWORDS = 'the query has no searchable keywords (only stop words or punctuation); use skill and tool names';
const NO_KNOWN_WORDS = "the query has no word the language model knows (even by its nearest spelling) or the company's CVs hold; describe the candidate in English words";
const NOTHING_TO_SEARCH = "the query has no searchable keywords and no word the language model knows or the company's CVs hold; use skill, tool and role names";

/**
 * Query words the word vectors lack (`kubernetes`, `c++`) are read from the company's own CVs:
 * the text around them in the CVs that hold them. At most this many words, from this many CVs
 * each, this many characters either side of at most this many mentions a CV.
 */
const INDUCED = { words: 3, cvs: 20, chars: 100, mentionsPerCv: 3 } as const;

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Milliseconds spent in each stage, echoed in the results' metadata. */
class StageClock {
  private last = performance.now();
  readonly stages: Record<string, number> = {};

  lap(stage: string): void {
    const now = performance.now();
    this.stages[stage] = Math.round(((this.stages[stage] ?? 0) + now - this.last) * 10) / 10;
    this.last = now;
  }
}

/** legs -> fusion -> rerank -> explained results, for each of the four search types. */
@Injectable()
export class SearchPipelineService {
  private readonly logger = new Logger(SearchPipelineService.name);

  constructor(
    @Inject(DENSE_CLIENT) private readonly dense: DenseClient,
    @Inject(SPARSE_CLIENT) private readonly sparse: SparseClient,
    @Inject(RERANKER_CLIENT) private readonly reranker: RerankerClient,
    private readonly documents: DocumentsRepository,
    private readonly texts: DocumentTexts,
  ) {}

  async run(search: SearchRecord): Promise<PipelineOutcome> {
    const clock = new StageClock();
    const parsed = parseQuery(search.query);
    let ranked: Ranked[];
    const metadata: Record<string, unknown> = { topK: search.topK, rerankTopN: null, reranker: null };
    // Query words the word vectors lack, read from the company's CVs by the dense leg, and then
    // by the reranker alike.
    let wordContexts = new Map<string, string>();
    const denseLeg = async (topK: number) => {
      const leg = await this.denseLeg(search, topK);
      if (leg && leg.wordContexts.size > 0) {
        wordContexts = leg.wordContexts;
        metadata.inducedWords = leg.inducedWords;
      }
      return leg?.ranked ?? null;
    };
    switch (search.searchType) {
      case 'dense': {
        ranked = (await denseLeg(search.topK)) ?? fail(NO_KNOWN_WORDS);
        clock.lap('retrieval');
        break;
      }
      case 'sparse': {
        if (parsed.parts.length === 0) fail(NO_KEYWORDS);
        ranked = await this.sparseLeg(search, parsed, search.topK);
        clock.lap('retrieval');
        break;
      }
      case 'builtin-rerank': {
        const candidates = (await denseLeg(Math.max(search.topK, MIN_RERANK_CANDIDATES['builtin-rerank']))) ?? fail(NO_KNOWN_WORDS);
        clock.lap('retrieval');
        const response = await this.reranker.rerankBuiltin(search.query, this.rerankCandidates(candidates), this.candidateTexts(search.companyId), search.rerankTopN, wordContexts);
        clock.lap('rerank');
        ranked = this.applyRerank(candidates, response);
        Object.assign(metadata, { rerankTopN: search.rerankTopN, reranker: this.describe(response), candidates: candidates.length });
        break;
      }
      case 'hybrid': {
        const depth = Math.max(search.topK, MIN_RERANK_CANDIDATES.hybrid);
        // Either leg may have nothing to search with; the other then runs alone.
        const [denseOrNone, sparseHits] = await Promise.all([
          denseLeg(depth),
          parsed.parts.length ? this.sparseLeg(search, parsed, depth) : Promise.resolve([]),
        ]);
        if (!denseOrNone && !parsed.parts.length) fail(NOTHING_TO_SEARCH);
        const denseHits = denseOrNone ?? [];
        const fused = reciprocalRankFusion([denseHits.map((h) => h.documentId), sparseHits.map((h) => h.documentId)]);
        const denseById = new Map(denseHits.map((h) => [h.documentId, h]));
        const sparseById = new Map(sparseHits.map((h) => [h.documentId, h]));
        const candidates: Ranked[] = fused.map((f) => {
          const d = denseById.get(f.id);
          const s = sparseById.get(f.id);
          return {
            documentId: f.id,
            score: f.normalized,
            scores: { ...(d ? { dense: d.scores.dense } : {}), ...(s ? { sparse: s.scores.sparse } : {}), fused: round4(f.normalized) },
            chunkIndex: d?.chunkIndex,
          };
        });
        clock.lap('retrieval');
        const response = await this.reranker.rerankExternal(search.query, this.rerankCandidates(candidates), this.candidateTexts(search.companyId), search.rerankTopN, wordContexts);
        clock.lap('rerank');
        ranked = this.applyRerank(candidates, response);
        Object.assign(metadata, {
          rerankTopN: search.rerankTopN,
          reranker: this.describe(response),
          fusion: { method: 'reciprocal-rank-fusion', k: RRF_K, denseCandidates: denseHits.length, sparseCandidates: sparseHits.length, fusedCandidates: candidates.length },
        });
        break;
      }
    }
    // A delete wins over any index lag: only documents still searchable become results.
    const ids = ranked.map((r) => r.documentId);
    const [searchable, contents] = await Promise.all([this.documents.getSearchable(search.companyId, ids), this.texts.contents(search.companyId, ids)]);
    const final = ranked.filter((r) => searchable.has(r.documentId) && contents.has(r.documentId));
    clock.lap('documents');
    const terms = queryTerms(parsed);
    const findQueryTerms = termFinder(terms); // its patterns are built once for all results
    const results = final.map((r, i) => {
      const { documentName, documentDate } = searchable.get(r.documentId) as { documentName: string; documentDate: string };
      const explained = this.explain(r, contents.get(r.documentId) as DocumentContent, parsed, terms, findQueryTerms);
      return { ...explained, rank: i + 1, documentId: r.documentId, documentName, documentDate };
    });
    clock.lap('explain');
    return { results, metadata: { ...metadata, stageTimingsMs: clock.stages } };
  }

  /**
   * The dense hits, or null when no word of the query is known (nothing to search with). Words
   * the vectors lack are searched again with their contexts from the company's CVs, when any CV
   * holds them: `wordContexts` is the text read for each, `inducedWords` names them with the
   * number of CVs read.
   */
  private async denseLeg(
    search: SearchRecord,
    topK: number,
  ): Promise<{ ranked: Ranked[]; wordContexts: Map<string, string>; inducedWords: Array<{ word: string; cvs: number }> } | null> {
    let result = await this.dense.search(search.companyId, search.query, topK);
    let contexts = new Map<string, WordContext>();
    if (result.unknownWords.length > 0) {
      // Reading words from CVs only improves a search that can run without it: a failure here does not fail it.
      contexts = await this.wordContexts(search.companyId, result.unknownWords.slice(0, INDUCED.words)).catch((error: unknown) => {
        this.logger.warn(`reading unknown query words from CVs failed, searching without them: ${error instanceof Error ? error.message : String(error)}`);
        return new Map<string, WordContext>();
      });
    }
    const wordContexts = new Map([...contexts].map(([word, c]) => [word, c.text]));
    if (wordContexts.size > 0) result = await this.dense.search(search.companyId, search.query, topK, wordContexts);
    if (result.noKnownWords) return null;
    const ranked = result.hits.map((h) => ({ documentId: h.documentId, score: clamp01(h.score), scores: { dense: round4(clamp01(h.score)) }, chunkIndex: h.chunkIndex }));
    return { ranked, wordContexts, inducedWords: [...contexts].map(([word, c]) => ({ word, cvs: c.cvs })) };
  }

  /** For each word, the text around its mentions in the company's CVs that hold it (the keyword index finds them). */
  private async wordContexts(companyId: string, words: string[]): Promise<Map<string, WordContext>> {
    const contexts = new Map<string, WordContext>();
    await Promise.all(
      words.map(async (word) => {
        const parsed = parseQuery(word);
        if (parsed.parts.length === 0) return;
        const hits = await this.sparse.search(companyId, parsed, INDUCED.cvs);
        const texts = await this.texts.texts(companyId, hits.map((h) => h.documentId));
        const findWord = termFinder(queryTerms(parsed));
        const windows: string[] = [];
        let cvs = 0;
        for (const text of texts.values()) {
          const mentions = findWord(text).slice(0, INDUCED.mentionsPerCv);
          for (const m of mentions) windows.push(text.slice(Math.max(0, m.start - INDUCED.chars), m.end + INDUCED.chars));
          if (mentions.length > 0) cvs++;
        }
        if (cvs > 0) contexts.set(word, { text: windows.join('\n'), cvs });
      }),
    );
    return contexts;
  }

  private async sparseLeg(search: SearchRecord, parsed: ParsedQuery, topK: number): Promise<Ranked[]> {
    const hits = await this.sparse.search(search.companyId, parsed, topK);
    return hits.map((h) => {
      const score = h.maxScore > 0 ? clamp01(h.score / h.maxScore) : 0;
      return { documentId: h.documentId, score, scores: { sparse: round4(score) } };
    });
  }

  private rerankCandidates(candidates: Ranked[]): RerankCandidate[] {
    return candidates.map((c) => ({ id: c.documentId, firstStageScore: c.score }));
  }

  /** The reranker reads only the texts it lacks; a CV whose text is gone (deleted meanwhile) drops out. */
  private candidateTexts(companyId: string): CandidateTexts {
    return (ids) => this.texts.texts(companyId, ids);
  }

  private applyRerank(candidates: Ranked[], response: RerankResponse): Ranked[] {
    const byId = new Map(candidates.map((c) => [c.documentId, c]));
    return response.results.map((r) => {
      const c = byId.get(r.id) as Ranked;
      return { ...c, score: clamp01(r.score), scores: { ...c.scores, rerank: round4(clamp01(r.score)) } };
    });
  }

  private describe(response: RerankResponse) {
    return { provider: response.provider, degraded: Boolean(response.degraded), ...(response.degraded ? { degradedReason: response.degraded.reason } : {}) };
  }

  private explain(
    r: Ranked,
    { text, chunks }: DocumentContent,
    parsed: ParsedQuery,
    terms: string[],
    findQueryTerms: (text: string) => Term[],
  ): Pick<StoredResult, 'score' | 'scores' | 'highlights' | 'matchedTerms'> {
    // Only the query's terms are looked for; matched terms and highlights share the answer.
    const analysed = findQueryTerms(text);
    const termSet = new Set(analysed.map((t) => t.term));
    // Quoted phrases need word adjacency, which only the full analysis knows; they are rare.
    const pairSet = parsed.parts.some((p) => p.phrase) ? new Set(bigrams(analyze(text).map((t) => t.term))) : new Set<string>();
    const matchedTerms = parsed.parts
      .filter((p) => (p.phrase ? bigrams(p.terms).every((b) => pairSet.has(b)) : p.terms.every((t) => termSet.has(t))))
      .map((p) => p.text);
    let highlights: Highlight[] = findHighlights(text, terms, 3, analysed);
    if (r.chunkIndex !== undefined && r.chunkIndex >= 0) {
      const span = chunks.find((c) => c.index === r.chunkIndex);
      if (span) {
        const inSpan = analysed
          .filter((t) => t.start >= span.start && t.end <= span.end)
          .map((t) => ({ ...t, start: t.start - span.start, end: t.end - span.start }));
        const inChunk = findHighlights(text.slice(span.start, span.end), terms, 1, inSpan).map((h) => ({ ...h, start: h.start + span.start, end: h.end + span.start }));
        const passage = inChunk[0] ?? { text: text.slice(span.start, Math.min(span.end, span.start + 240)), start: span.start, end: Math.min(span.end, span.start + 240), matches: [] };
        highlights = [passage, ...highlights.filter((h) => h.end <= passage.start || h.start >= passage.end)].slice(0, 3);
      }
    }
    return {
      score: round4(r.score),
      scores: r.scores,
      highlights,
      matchedTerms,
    };
  }
}

function fail(reason: string): never {
  throw new JobFailure(reason, false);
}
