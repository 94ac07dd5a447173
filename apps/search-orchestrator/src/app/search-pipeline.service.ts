import { Injectable } from '@nestjs/common';
import type { SearchRecord } from '@cs/records';
import type { FacetField } from '@cs/search-filters';
import { FacetCounting } from './stages/facet-counting';
import { searchCommand, type SearchCommand, type SearchOutcome } from './stages/search-command';
import { SkillPhrases, skillPhrasesOf } from './stages/skill-phrases';
import { RunBuiltinRerankSearch } from './use-cases/run-builtin-rerank-search/run-builtin-rerank-search.use-case';
import { RunDenseSearch } from './use-cases/run-dense-search/run-dense-search.use-case';
import { RunHybridSearch } from './use-cases/run-hybrid-search/run-hybrid-search.use-case';
import { RunMatchSearch } from './use-cases/run-match-search/run-match-search.use-case';
import { RunSimilarSearch } from './use-cases/run-similar-search/run-similar-search.use-case';
import { RunSparseSearch } from './use-cases/run-sparse-search/run-sparse-search.use-case';

/**
 * Runs a queued search through its type's use case: legs -> fusion -> rerank -> explained
 * results; and, when it asks for facets, the counts over the CVs that pass (beside the search)
 * and over its results. Before either, the CVs holding the filter's skills matched as text are
 * found, so that every leg and count applies them; the results' metadata names those skills.
 */
@Injectable()
export class SearchPipelineService {
  constructor(
    private readonly dense: RunDenseSearch,
    private readonly sparse: RunSparseSearch,
    private readonly hybrid: RunHybridSearch,
    private readonly builtinRerank: RunBuiltinRerankSearch,
    private readonly similar: RunSimilarSearch,
    private readonly match: RunMatchSearch,
    private readonly facets: FacetCounting,
    private readonly skillPhrases: SkillPhrases,
  ) {}

  run(search: SearchRecord): Promise<SearchOutcome> {
    return this.runCommand(searchCommand(search), search.facetFields);
  }

  /** A search as a command: a queued search's, or a saved search's run again. */
  async runCommand(queued: SearchCommand, facetFields: readonly FacetField[] = []): Promise<SearchOutcome> {
    const started = performance.now();
    const command = await this.skillPhrases.resolve(queued);
    const lookupMs = performance.now() - started;
    const outcome = await this.runWithFacets(command, facetFields);
    const skillsMatchedAsText = skillPhrasesOf(command.filter);
    if (skillsMatchedAsText.length === 0) return outcome;
    // Finding the phrases' CVs is part of retrieving them.
    return { ...outcome, metadata: { ...withRetrievalTime(outcome.metadata, lookupMs), skillsMatchedAsText } };
  }

  private async runWithFacets(command: SearchCommand, facetFields: readonly FacetField[]): Promise<SearchOutcome> {
    if (facetFields.length === 0) return this.execute(command);
    const passing = this.facets.passing(command, facetFields);
    // Awaited with the search, so that its failure is not left unhandled while the search runs.
    const [outcome] = await Promise.all([this.execute(command), passing]);
    const facets = await this.facets.count(
      command,
      facetFields,
      passing,
      outcome.results.map((r) => r.documentId),
    );
    return { ...outcome, facets };
  }

  private execute(command: SearchCommand): Promise<SearchOutcome> {
    // Exhaustive: a new search type without a use case fails to compile.
    switch (command.type) {
      case 'dense':
        return this.dense.execute(command);
      case 'sparse':
        return this.sparse.execute(command);
      case 'hybrid':
        return this.hybrid.execute(command);
      case 'builtin-rerank':
        return this.builtinRerank.execute(command);
      case 'similar':
        return this.similar.execute(command);
      case 'match':
        return this.match.execute(command);
    }
  }
}

/** The metadata with `ms` more in its retrieval stage (one decimal, as StageClock counts). */
function withRetrievalTime<M extends { stageTimingsMs: { retrieval: number } }>(metadata: M, ms: number): M {
  const retrieval = Math.round((metadata.stageTimingsMs.retrieval + ms) * 10) / 10;
  return { ...metadata, stageTimingsMs: { ...metadata.stageTimingsMs, retrieval } };
}
