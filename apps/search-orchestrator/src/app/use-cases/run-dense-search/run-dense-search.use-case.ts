import { Injectable } from '@nestjs/common';
import { parseQuery } from '@cs/text-analysis';
import { DenseRetrieval, denseMetadataOf } from '../../stages/dense-retrieval';
import { explainResults } from '../../stages/explain';
import { inStageSpan } from '../../stages/stage-span';
import { ResultDocuments } from '../../stages/result-documents';
import type { SearchCommand, SearchOutcome } from '../../stages/search-command';
import { StageClock } from '../../stages/stage-clock';
import { NO_KNOWN_WORDS, failUnsearchable } from '../../stages/unsearchable-query';

/** dense: the CVs closest in meaning to the query, `topK` of them. */
@Injectable()
export class RunDenseSearch {
  constructor(
    private readonly denseRetrieval: DenseRetrieval,
    private readonly resultDocuments: ResultDocuments,
  ) {}

  async execute(command: SearchCommand): Promise<SearchOutcome<'dense'>> {
    const clock = new StageClock<'retrieval' | 'documents' | 'explain'>();
    const parsed = parseQuery(command.query);
    const leg = await this.denseRetrieval.retrieve(command, command.topK);
    if (leg.noKnownWords) failUnsearchable(NO_KNOWN_WORDS);
    clock.lap('retrieval');
    const documents = await this.resultDocuments.read(command, leg.candidates);
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
      metadata: { topK: command.topK, rerankTopN: null, reranker: null, ...denseMetadataOf(leg), stageTimingsMs: clock.timings() },
    };
  }
}
