import { Injectable } from '@nestjs/common';
import { MIN_RERANK_CANDIDATES } from '@cs/search-domain';
import { parseQuery } from '@cs/text-analysis';
import { DenseRetrieval, denseMetadataOf } from '../../stages/dense-retrieval';
import { explainResults } from '../../stages/explain';
import { inStageSpan } from '../../stages/stage-span';
import { Reranking } from '../../stages/reranking';
import { ResultDocuments } from '../../stages/result-documents';
import type { SearchCommand, SearchOutcome } from '../../stages/search-command';
import { StageClock } from '../../stages/stage-clock';
import { NO_KNOWN_WORDS, failUnsearchable } from '../../stages/unsearchable-query';

/** builtin-rerank: dense's candidates (at least the domain's minimum) rescored by the builtin reranker, `rerankTopN` of them. */
@Injectable()
export class RunBuiltinRerankSearch {
  constructor(
    private readonly denseRetrieval: DenseRetrieval,
    private readonly reranking: Reranking,
    private readonly resultDocuments: ResultDocuments,
  ) {}

  async execute(command: SearchCommand): Promise<SearchOutcome<'builtin-rerank'>> {
    const clock = new StageClock<'retrieval' | 'rerank' | 'documents' | 'explain'>();
    const parsed = parseQuery(command.query);
    const depth = Math.max(command.topK, MIN_RERANK_CANDIDATES['builtin-rerank']);
    const leg = await this.denseRetrieval.retrieve(command, depth);
    if (leg.noKnownWords) failUnsearchable(NO_KNOWN_WORDS);
    clock.lap('retrieval');
    const { ranked, reranker } = await this.reranking.builtin(command, leg.candidates, leg);
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
        ...denseMetadataOf(leg),
        candidates: leg.candidates.length,
        stageTimingsMs: clock.timings(),
      },
    };
  }
}
