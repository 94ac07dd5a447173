import { Injectable } from '@nestjs/common';
import { explainResults } from '../../stages/explain';
import { keywordQueryOf } from '../../stages/keyword-conditions';
import { inStageSpan } from '../../stages/stage-span';
import { ResultDocuments } from '../../stages/result-documents';
import type { SearchCommand, SearchOutcome } from '../../stages/search-command';
import { SparseRetrieval } from '../../stages/sparse-retrieval';
import { StageClock } from '../../stages/stage-clock';
import { NO_KEYWORDS, failUnsearchable } from '../../stages/unsearchable-query';

/** sparse: the CVs holding the query's keywords (in the keyword query language), by BM25, `topK` of them. */
@Injectable()
export class RunSparseSearch {
  constructor(
    private readonly sparseRetrieval: SparseRetrieval,
    private readonly resultDocuments: ResultDocuments,
  ) {}

  async execute(command: SearchCommand): Promise<SearchOutcome<'sparse'>> {
    const clock = new StageClock<'retrieval' | 'documents' | 'explain'>();
    const parsed = keywordQueryOf(command);
    if (parsed.parts.length === 0) failUnsearchable(NO_KEYWORDS);
    const candidates = await this.sparseRetrieval.retrieve(command, parsed, command.topK);
    clock.lap('retrieval');
    const documents = await this.resultDocuments.read(command, candidates);
    clock.lap('documents');
    const results = await inStageSpan(
      'explain',
      command,
      (r) => r.length,
      () => explainResults(documents, parsed),
    );
    clock.lap('explain');
    return { results, metadata: { topK: command.topK, rerankTopN: null, reranker: null, stageTimingsMs: clock.timings() } };
  }
}
