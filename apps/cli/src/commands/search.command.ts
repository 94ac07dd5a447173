import { SEARCH_TYPES, type GroupResults, type SearchFilters, type SearchResults, type SearchType } from '@candidate-search/client/node';
import type { CliContext } from '../cli-context';
import { ExitCode } from '../exit-codes';
import { renderOverlap, renderSearchTable, renderSideBySide } from '../output/search-format';
import { filterNames } from '../search/filter-flags';
import { overlapOf } from '../search/overlap';

export const SEARCH_CHOICES = [...SEARCH_TYPES, 'all'] as const;
export type SearchChoice = (typeof SEARCH_CHOICES)[number];

export interface SearchCommandOptions {
  topK?: number;
  rerankTopN?: number;
  /** Results shown (and fetched) per search. */
  limit: number;
  timeoutSeconds: number;
  /** Conditions every result meets (from the filter flags); none when undefined. */
  filters?: SearchFilters;
}

/** A line on a terminal's stderr while a search runs, cleared when it ends. */
export function waitingLine(ctx: CliContext, text: string): () => void {
  if (!ctx.out.interactive) return () => undefined;
  ctx.out.stderr.write(text);
  return () => ctx.out.stderr.write('\r\u001b[K');
}

/** `search <type|all> <query>`: one search type as a table, or all four side by side with their overlap. */
export async function runSearch(ctx: CliContext, choice: SearchChoice, query: string, options: SearchCommandOptions): Promise<ExitCode> {
  const { client } = await ctx.connect();
  const timeoutMs = options.timeoutSeconds * 1000;
  const { filters } = options;
  const filtered = filters ? ` filtered by ${filterNames(filters)}` : '';
  if (choice !== 'all') {
    const clear = waitingLine(ctx, `Searching (${choice})…`);
    const { search, page } = await client
      .search(choice, query, { topK: options.topK, rerankTopN: options.rerankTopN, filters, limit: options.limit, timeoutMs })
      .finally(clear);
    ctx.out.result(page, () =>
      rankingText(ctx, page, {
        head: `${choice} search for "${query}"${filtered}: ${page.totalResults} results in ${search.processingTimeMs} ms (search ${search.searchId})`,
        none: `No CV matched${filters ? ' the query and the filters' : ''}.`,
        limit: options.limit,
      }),
    );
    return ExitCode.ok;
  }

  const clear = waitingLine(ctx, `Searching (${SEARCH_TYPES.join(', ')})…`);
  const group = await client.group(query, { topK: options.topK, rerankTopN: options.rerankTopN, filters, timeoutMs }).finally(clear);
  const searches = orderedSearches(group).map((s) => ({ ...s, results: s.results.slice(0, options.limit) }));
  const overlap = overlapOf(searches, options.limit);
  const failed = searches.filter((s) => s.status === 'failed');
  ctx.out.result(
    {
      searchGroupId: group.searchGroupId,
      query: group.query,
      groupStatus: group.groupStatus,
      searches,
      overlap: { ...overlap, foundByAll: overlap.foundByAll.map(({ documentId, documentName }) => ({ documentId, documentName })) },
    },
    () => {
      const timings = searches
        .map((s) =>
          s.status === 'completed'
            ? `${s.searchType} ${s.totalResults ?? 0} in ${s.processingTimeMs ?? 0} ms`
            : `${s.searchType} ${s.status}`,
        )
        .join(', ');
      const lines = [`"${query}"${filtered} by all four search types (group ${group.searchGroupId}): ${timings}`];
      lines.push(renderSideBySide(searches, { limit: options.limit, width: ctx.out.width }));
      for (const s of failed) lines.push(`${s.searchType} failed: ${s.error ?? 'no reason given'}`);
      lines.push(renderOverlap(overlap, searches.length));
      return lines.join('\n');
    },
  );
  if (failed.length === 0) return ExitCode.ok;
  // A failure that a new search would repeat is the query's; any other is the service's.
  return failed.some((s) => s.errorRetryable) ? ExitCode.unavailable : ExitCode.usage;
}

/** One search's ranking as a table under its head line (lines of its own between them), or `none` when it found nothing. */
export function rankingText(
  ctx: CliContext,
  page: SearchResults,
  text: { head: string; lines?: readonly string[]; none: string; limit: number },
): string {
  const body = page.results.length ? renderSearchTable(page, { limit: text.limit, width: ctx.out.width }) : text.none;
  return [text.head, ...(text.lines ?? []), body].join('\n');
}

/** The group's searches in the order of the four types (the order the columns have everywhere), any other type after them. */
function orderedSearches(group: GroupResults): GroupResults['searches'] {
  const rank = (type: SearchType) => {
    const at = (SEARCH_TYPES as readonly SearchType[]).indexOf(type);
    return at < 0 ? SEARCH_TYPES.length : at;
  };
  return [...group.searches].sort((a, b) => rank(a.searchType) - rank(b.searchType));
}
