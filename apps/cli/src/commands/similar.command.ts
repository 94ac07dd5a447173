import { ConflictError, NotFoundError, type FacetField, type SearchFilters } from '@candidate-search/client/node';
import type { CliContext } from '../cli-context';
import { CliError, ExitCode } from '../exit-codes';
import { renderFacets } from '../output/search-format';
import { filterNames } from '../search/filter-flags';
import { rankingText, waitingLine } from './search.command';

export interface SimilarCommandOptions {
  topK?: number;
  /** Results shown (and fetched). */
  limit: number;
  timeoutSeconds: number;
  /** Conditions every result meets (from the filter flags); none when undefined. */
  filters?: SearchFilters;
  /** Profile fields to count over the CVs that pass the filters and over the results. */
  facets?: readonly FacetField[];
}

/** `similar <documentId>`: the company's CVs most like one of them, as a table (that CV is never among them). */
export async function runSimilar(ctx: CliContext, documentId: string, options: SimilarCommandOptions): Promise<ExitCode> {
  const { client } = await ctx.connect();
  const { filters, facets } = options;
  const clear = waitingLine(ctx, 'Searching (similar)…');
  const { search, page } = await client
    .similar(documentId, { topK: options.topK, filters, facets, limit: options.limit, timeoutMs: options.timeoutSeconds * 1000 })
    .catch((error: unknown) => {
      throw similarRefusal(error, documentId) ?? error;
    })
    .finally(clear);
  const terms = page.metadata.distinctiveTerms ?? [];
  ctx.out.result(page, () => {
    const lines = terms.length ? [`Its distinctive words: ${terms.join(', ')}`] : [];
    const ranking = rankingText(ctx, page, {
      head: `similar search: CVs like document ${documentId}${filters ? ` filtered by ${filterNames(filters)}` : ''}: ${page.totalResults} results in ${search.processingTimeMs} ms (search ${search.searchId})`,
      lines,
      none: `No other CV is like it${filters ? ' within the filters' : ''}.`,
      limit: options.limit,
    });
    return page.facets ? `${ranking}\n${renderFacets(page.facets, { filtered: filters !== undefined, width: ctx.out.width })}` : ranking;
  });
  return ExitCode.ok;
}

/**
 * What the API answers when it will not start from this document, in the CLI's words: none of
 * the company's (404), or not a read CV (409: still processing, invalid or failed). Undefined for
 * any other error, which is reported as every command reports it.
 */
function similarRefusal(error: unknown, documentId: string): CliError | undefined {
  if (error instanceof NotFoundError)
    return new CliError(
      `no document ${documentId} in this company (404)`,
      ExitCode.notFound,
      'candidate-search documents list shows the ids of its documents',
    );
  // A 409 with a search status is a results read, not the creation's refusal.
  if (error instanceof ConflictError && error.searchStatus === undefined)
    return new CliError(
      `${error.message} (409)`,
      ExitCode.notSearchable,
      `a CV still processing is searchable within seconds: candidate-search documents get ${documentId} shows its status; an invalid or failed one never is`,
    );
  return undefined;
}
