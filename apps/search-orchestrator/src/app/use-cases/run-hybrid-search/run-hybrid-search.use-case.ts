import { Injectable } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { MIN_RERANK_CANDIDATES } from '@cs/search-domain';
import { InjectConfig } from '@cs/service-kit';
import { DenseRetrieval, denseMetadataOf } from '../../stages/dense-retrieval';
import { explainResults } from '../../stages/explain';
import { KeywordConditions, keywordQueryOf } from '../../stages/keyword-conditions';
import { inStageSpan } from '../../stages/stage-span';
import { fuseLegsInSpan } from '../../stages/fusion';
import { Reranking } from '../../stages/reranking';
import { ResultDocuments } from '../../stages/result-documents';
import type { SearchCommand, SearchOutcome } from '../../stages/search-command';
import { SparseRetrieval } from '../../stages/sparse-retrieval';
import { StageClock } from '../../stages/stage-clock';
import { NOTHING_TO_SEARCH, failUnsearchable } from '../../stages/unsearchable-query';

/**
 * hybrid: both legs (at least the domain's minimum each), fused, then reranked by the external
 * provider (the builtin reranker when it fails, degraded), `rerankTopN` of them. The query is in
 * the keyword query language: the keyword leg applies its + and - clauses, the dense leg and the
 * reranker read its positive words only, and the dense candidates are held to the clauses too.
 */
@Injectable()
export class RunHybridSearch {
  constructor(
    private readonly denseRetrieval: DenseRetrieval,
    private readonly sparseRetrieval: SparseRetrieval,
    private readonly reranking: Reranking,
    private readonly resultDocuments: ResultDocuments,
    private readonly keywordConditions: KeywordConditions,
    @InjectConfig('rankingTuning') private readonly tuning: Pick<AppConfig['rankingTuning'], 'hybridDenseShare'>,
  ) {}

  async execute(command: SearchCommand): Promise<SearchOutcome<'hybrid'>> {
    const clock = new StageClock<'retrieval' | 'rerank' | 'documents' | 'explain'>();
    const parsed = keywordQueryOf(command);
    // What meaning is read from: the query without its operators and excluded words (`-php` is no wish for PHP).
    const meaning: SearchCommand = { ...command, query: parsed.positiveText };
    const depth = Math.max(command.topK, MIN_RERANK_CANDIDATES.hybrid);
    // Either leg may have nothing to search with; the other then runs alone.
    const [denseFound, sparseHits] = await Promise.all([
      this.denseRetrieval.retrieve(meaning, depth),
      parsed.parts.length ? this.sparseRetrieval.retrieve(command, parsed, depth) : Promise.resolve([]),
    ]);
    if (denseFound.noKnownWords && !parsed.parts.length) failUnsearchable(NOTHING_TO_SEARCH);
    const denseLeg = await this.keywordConditions.holdDenseLeg(command, parsed, denseFound, sparseHits);
    const { candidates, fusion } = await fuseLegsInSpan(command, denseLeg.candidates, sparseHits, this.tuning.hybridDenseShare);
    clock.lap('retrieval');
    const { ranked, reranker } = await this.reranking.external(meaning, candidates, denseLeg);
    clock.lap('rerank');
    const documents = await this.resultDocuments.read(command, ranked);
    clock.lap('documents');
    const results = await inStageSpan(
      'explain',
      command,
      (r) => r.length,
      () => explainResults(documents, parsed),
    );
    clock.lap('explain');
    return {
      results,
      metadata: {
        topK: command.topK,
        rerankTopN: command.rerankTopN,
        reranker,
        ...denseMetadataOf(denseLeg),
        fusion,
        stageTimingsMs: clock.timings(),
      },
    };
  }
}
