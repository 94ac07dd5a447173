import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '@cs/config';
import { SPARSE_CLIENT, type SparseClient } from '@cs/ports';
import { DISTINCTIVE_TERMS } from '@cs/ranking';
import { MIN_SIMILAR_CANDIDATES } from '@cs/search-domain';
import { InjectConfig } from '@cs/service-kit';
import { surfaceForms, type ParsedQuery } from '@cs/text-analysis';
import { DocumentTexts } from '../../document-texts';
import { DenseRetrieval } from '../../stages/dense-retrieval';
import { explainResults } from '../../stages/explain';
import { fuseLegsInSpan } from '../../stages/fusion';
import { ResultDocuments } from '../../stages/result-documents';
import type { SearchCommand, SearchOutcome } from '../../stages/search-command';
import { SparseRetrieval } from '../../stages/sparse-retrieval';
import { StageClock } from '../../stages/stage-clock';
import { inStageSpan } from '../../stages/stage-span';
import { failUnsearchable } from '../../stages/unsearchable-query';

/**
 * similar: the CVs most like one of the company's CVs. Its own whole-document vector is the
 * dense leg's query, its most distinctive words (DISTINCTIVE_TERMS) the keyword leg's; the legs
 * are fused as hybrid's are. No reranker: it reads a query, and here there is none. The CV
 * itself is kept out by the command's filter, so it never takes a place in the top K.
 */
@Injectable()
export class RunSimilarSearch {
  constructor(
    private readonly denseRetrieval: DenseRetrieval,
    private readonly sparseRetrieval: SparseRetrieval,
    private readonly resultDocuments: ResultDocuments,
    private readonly texts: DocumentTexts,
    @Inject(SPARSE_CLIENT) private readonly sparse: SparseClient,
    @InjectConfig('rankingTuning') private readonly tuning: Pick<AppConfig['rankingTuning'], 'hybridDenseShare'>,
  ) {}

  async execute(command: SearchCommand): Promise<SearchOutcome<'similar'>> {
    const clock = new StageClock<'retrieval' | 'documents' | 'explain'>();
    const seed = command.similarTo;
    if (!seed) throw new Error('a similar search without the CV it starts from');
    const depth = Math.max(command.topK, MIN_SIMILAR_CANDIDATES);
    const [seedText, terms] = await Promise.all([
      this.texts.texts(command.companyId, [seed]).then((found) => found.get(seed)),
      this.sparse.distinctiveTerms(command.companyId, seed, DISTINCTIVE_TERMS.limit),
    ]);
    if (seedText === undefined) failUnsearchable(`the CV ${seed} this search starts from was deleted`);
    const words = surfaceForms(seedText, terms);
    // The words as a keyword query: each its own part, already analysed.
    const query: ParsedQuery = { raw: words.join(', '), parts: words.map((text, i) => ({ text, terms: [terms[i]], phrase: false })) };
    const [denseLeg, sparseHits] = await Promise.all([
      this.denseRetrieval.retrieveSimilar(command, seed, depth),
      query.parts.length ? this.sparseRetrieval.retrieve(command, query, depth) : Promise.resolve([]),
    ]);
    if (denseLeg.noKnownWords && query.parts.length === 0)
      failUnsearchable(`the CV ${seed} has neither a vector nor words other CVs hold: there is nothing to compare it by`);
    const { candidates, fusion } = await fuseLegsInSpan(command, denseLeg.candidates, sparseHits, this.tuning.hybridDenseShare);
    clock.lap('retrieval');
    const documents = await this.resultDocuments.read(command, candidates.slice(0, command.topK));
    clock.lap('documents');
    const results = await inStageSpan(
      'explain',
      command,
      (r) => r.length,
      () => explainResults(documents, query),
    );
    clock.lap('explain');
    return {
      results,
      metadata: {
        topK: command.topK,
        rerankTopN: null,
        reranker: null,
        similarTo: seed,
        distinctiveTerms: words,
        denseModel: denseLeg.model,
        fusion,
        stageTimingsMs: clock.timings(),
      },
    };
  }
}
