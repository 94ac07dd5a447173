import { Injectable } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { MIN_RERANK_CANDIDATES } from '@cs/search-domain';
import { InjectConfig } from '@cs/service-kit';
import { parseQuery } from '@cs/text-analysis';
import { DenseRetrieval, denseMetadataOf } from '../../stages/dense-retrieval';
import { explainResults } from '../../stages/explain';
import { inStageSpan } from '../../stages/stage-span';
import { fuseLegs } from '../../stages/fusion';
import { Reranking } from '../../stages/reranking';
import { ResultDocuments } from '../../stages/result-documents';
import type { SearchCommand, SearchOutcome } from '../../stages/search-command';
import { SparseRetrieval } from '../../stages/sparse-retrieval';
import { StageClock } from '../../stages/stage-clock';
import { NOTHING_TO_SEARCH, failUnsearchable } from '../../stages/unsearchable-query';

/**
 * hybrid: both legs (at least the domain's minimum each), fused, then reranked by the external
 * provider (the builtin reranker when it fails, degraded), `rerankTopN` of them.
 */
@Injectable()
export class RunHybridSearch {
  constructor(
    private readonly denseRetrieval: DenseRetrieval,
    private readonly sparseRetrieval: SparseRetrieval,
    private readonly reranking: Reranking,
    private readonly resultDocuments: ResultDocuments,
    @InjectConfig('rankingTuning') private readonly tuning: Pick<AppConfig['rankingTuning'], 'hybridDenseShare'>,
  ) {}

  async execute(command: SearchCommand): Promise<SearchOutcome<'hybrid'>> {
    const clock = new StageClock<'retrieval' | 'rerank' | 'documents' | 'explain'>();
    const parsed = parseQuery(command.query);
    const depth = Math.max(command.topK, MIN_RERANK_CANDIDATES.hybrid);
    // Either leg may have nothing to search with; the other then runs alone.
    const [denseLeg, sparseHits] = await Promise.all([
      this.denseRetrieval.retrieve(command, depth),
      parsed.parts.length ? this.sparseRetrieval.retrieve(command, parsed, depth) : Promise.resolve([]),
    ]);
    if (denseLeg.noKnownWords && !parsed.parts.length) failUnsearchable(NOTHING_TO_SEARCH);
    const { candidates, fusion } = await inStageSpan(
      'fusion',
      command,
      (fused) => fused.candidates.length,
      () => fuseLegs(denseLeg.candidates, sparseHits, this.tuning.hybridDenseShare),
    );
    clock.lap('retrieval');
    const { ranked, reranker } = await this.reranking.external(command, candidates, denseLeg);
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
