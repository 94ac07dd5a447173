import { Module, type DynamicModule } from '@nestjs/common';
import type { ModuleImport } from '@cs/wiring';
import { DocumentTexts } from './document-texts';
import { RunSearchHandler } from './run-search.handler';
import { SavedSearchRunner } from './saved-searches/saved-search-runner';
import { SearchMetrics } from './search-metrics';
import { SearchPipelineService } from './search-pipeline.service';
import { SearchWatchdogService } from './search-watchdog.service';
import { DenseRetrieval } from './stages/dense-retrieval';
import { FacetCounting } from './stages/facet-counting';
import { KeywordConditions } from './stages/keyword-conditions';
import { Reranking } from './stages/reranking';
import { ResultDocuments } from './stages/result-documents';
import { SkillPhrases } from './stages/skill-phrases';
import { SparseRetrieval } from './stages/sparse-retrieval';
import { RunBuiltinRerankSearch } from './use-cases/run-builtin-rerank-search/run-builtin-rerank-search.use-case';
import { RunDenseSearch } from './use-cases/run-dense-search/run-dense-search.use-case';
import { RunHybridSearch } from './use-cases/run-hybrid-search/run-hybrid-search.use-case';
import { RunMatchSearch } from './use-cases/run-match-search/run-match-search.use-case';
import { RunSimilarSearch } from './use-cases/run-similar-search/run-similar-search.use-case';
import { RunSparseSearch } from './use-cases/run-sparse-search/run-sparse-search.use-case';

const stages = [DocumentTexts, DenseRetrieval, SparseRetrieval, Reranking, ResultDocuments, FacetCounting, KeywordConditions, SkillPhrases];
const useCases = [RunDenseSearch, RunSparseSearch, RunHybridSearch, RunBuiltinRerankSearch, RunSimilarSearch, RunMatchSearch];

/**
 * Consumes search jobs: legs -> fusion -> rerank -> stored results (one use case per search
 * type); the watchdog; and the saved searches' runs over the CVs read since.
 */
@Module({
  providers: [...stages, ...useCases, SearchPipelineService, SearchMetrics, RunSearchHandler, SearchWatchdogService, SavedSearchRunner],
})
export class SearchOrchestratorModule {
  /** `ports` binds what its providers inject (see @cs/wiring's PortsModule). */
  static register(ports: ModuleImport): DynamicModule {
    return { module: SearchOrchestratorModule, imports: [ports] };
  }
}
