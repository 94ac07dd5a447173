import { invalid } from '@cs/contracts';
import type { SearchType } from '@cs/search-domain';
import { skillKey } from '@cs/search-filters';
import { KeywordQueryError, parseKeywordQuery } from '@cs/text-analysis';

/**
 * Sparse and hybrid queries are in the keyword query language (docs/api.md): a malformed one is
 * the client's 400 when the search is created, naming the character where it goes wrong, not a
 * search that fails later. The query is stored as written; the orchestrator parses it again.
 * Dense and builtin-rerank read the query as text, so any query is theirs.
 */
export function checkKeywordQuery(searchType: SearchType, query: string): void {
  if (searchType !== 'sparse' && searchType !== 'hybrid') return;
  try {
    parseKeywordQuery(query, { skillKey });
  } catch (error) {
    if (error instanceof KeywordQueryError) throw invalid(`query ${error.message}`);
    throw error;
  }
}
