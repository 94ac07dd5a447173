import type { SearchRecord } from '@cs/records';
import { SEARCH_TYPES, type SearchType } from '@cs/search-domain';
import { SearchPipelineService } from './search-pipeline.service';
import type { SearchCommand, SearchOutcome } from './stages/search-command';
import type { RunBuiltinRerankSearch } from './use-cases/run-builtin-rerank-search/run-builtin-rerank-search.use-case';
import type { RunDenseSearch } from './use-cases/run-dense-search/run-dense-search.use-case';
import type { RunHybridSearch } from './use-cases/run-hybrid-search/run-hybrid-search.use-case';
import type { RunSparseSearch } from './use-cases/run-sparse-search/run-sparse-search.use-case';

/** A use case that records the command it ran. */
function recording(type: SearchType, ran: [SearchType, SearchCommand][]) {
  return {
    execute: async (command: SearchCommand) => {
      ran.push([type, command]);
      return { results: [], metadata: { topK: command.topK } } as unknown as SearchOutcome;
    },
  };
}

describe('SearchPipelineService', () => {
  it.each(SEARCH_TYPES)('runs a %s search through its own use case, with the search as a command', async (type) => {
    const ran: [SearchType, SearchCommand][] = [];
    const pipeline = new SearchPipelineService(
      recording('dense', ran) as RunDenseSearch,
      recording('sparse', ran) as RunSparseSearch,
      recording('hybrid', ran) as RunHybridSearch,
      recording('builtin-rerank', ran) as RunBuiltinRerankSearch,
    );
    const search = {
      id: 's-1',
      companyId: 'c-1',
      searchGroupId: 'g-1',
      searchType: type,
      query: 'nurse',
      topK: 12,
      rerankTopN: 7,
    } as SearchRecord;
    await pipeline.run(search);
    expect(ran).toEqual([[type, { type, companyId: 'c-1', query: 'nurse', topK: 12, rerankTopN: 7 }]]);
  });
});
