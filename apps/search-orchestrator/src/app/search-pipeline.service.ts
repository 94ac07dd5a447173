import { Injectable } from '@nestjs/common';
import type { SearchRecord } from '@cs/records';
import { searchCommand, type SearchOutcome } from './stages/search-command';
import { RunBuiltinRerankSearch } from './use-cases/run-builtin-rerank-search/run-builtin-rerank-search.use-case';
import { RunDenseSearch } from './use-cases/run-dense-search/run-dense-search.use-case';
import { RunHybridSearch } from './use-cases/run-hybrid-search/run-hybrid-search.use-case';
import { RunSparseSearch } from './use-cases/run-sparse-search/run-sparse-search.use-case';

/** Runs a queued search through its type's use case: legs -> fusion -> rerank -> explained results. */
@Injectable()
export class SearchPipelineService {
  constructor(
    private readonly dense: RunDenseSearch,
    private readonly sparse: RunSparseSearch,
    private readonly hybrid: RunHybridSearch,
    private readonly builtinRerank: RunBuiltinRerankSearch,
  ) {}

  run(search: SearchRecord): Promise<SearchOutcome> {
    const command = searchCommand(search);
    // Exhaustive: a new search type without a use case fails to compile.
    switch (search.searchType) {
      case 'dense':
        return this.dense.execute(command);
      case 'sparse':
        return this.sparse.execute(command);
      case 'hybrid':
        return this.hybrid.execute(command);
      case 'builtin-rerank':
        return this.builtinRerank.execute(command);
    }
  }
}
