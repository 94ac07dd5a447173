import type { api } from '@cs/contracts';
import { ApiError, withRateLimitRetry, type ApiClient } from './api';
import { FilterPanel } from './filter-panel';
import { waitFor } from './waiting';

type SearchType = api.SearchCreated['searchType'];

/** The contract's maximum time per type, plus room for the queue; past it the search is reported as given up on. */
const DEADLINE_MS: Record<SearchType, number> = {
  dense: 60_000,
  sparse: 60_000,
  'builtin-rerank': 60_000,
  hybrid: 75_000,
  similar: 60_000,
  match: 75_000,
};

/** Where a search tells the page how it goes: a status line. */
export interface SearchRunOptions {
  signal: AbortSignal;
  say: (text: string) => void;
}

/**
 * Creates a search (POST `path`), waiting out a 429 as `Retry-After` says. A 400 about the
 * filters is shown beside the filter panel, which names the field and keeps what was picked
 * ('filters refused'); any other refusal is said with the API's message and status (null).
 */
export async function startSearch(
  client: ApiClient,
  path: string,
  body: unknown,
  filters: FilterPanel,
  { signal, say }: SearchRunOptions,
): Promise<api.SearchCreated | 'filters refused' | null> {
  try {
    const created = await withRateLimitRetry(
      () => client.post<api.SearchCreated>(path, body, { signal }),
      (seconds, message) => say(`${message} Retrying in ${seconds} s.`),
      signal,
    );
    say(`running (expected ${created.body.estimatedTime})`);
    return created.body;
  } catch (error) {
    if (signal.aborted) throw error;
    if (error instanceof ApiError && error.status === 400 && FilterPanel.isAboutFilters(error.message)) {
      filters.refused(error.message);
      say('not started: the service refused the filters (400)');
      return 'filters refused';
    }
    say(`not started: ${error instanceof ApiError ? `${error.message} (${error.status})` : String(error)}`);
    return null;
  }
}

/**
 * Follows a search to its end (web/waiting.ts paces the reads) and reads its results; null when
 * it failed, having said why. Throws when it is given up on or aborted.
 */
export async function followSearch(
  client: ApiClient,
  search: Pick<api.SearchCreated, 'searchId' | 'searchType'>,
  { signal, say }: SearchRunOptions,
): Promise<api.SearchResults | null> {
  const id = encodeURIComponent(search.searchId);
  const final = await waitFor(
    (headers) =>
      withRateLimitRetry(
        () => client.get<api.SearchStatus>(`/v1/public/searches/${id}`, { headers, signal }),
        (seconds) => say(`reads paused ${seconds} s by the read limit`),
        signal,
        5,
      ),
    (s) => s.status === 'completed' || s.status === 'failed',
    {
      deadlineMs: DEADLINE_MS[search.searchType],
      signal,
      onRead: (s) => {
        if (s.status === 'initiated' || s.status === 'processing') say(`${s.status} (${s.estimatedCompletion} left)`);
      },
    },
  );
  if (final.status === 'failed') {
    say(`failed: ${final.error}${final.errorRetryable ? ' (a new search may succeed)' : ''}`);
    return null;
  }
  return (await client.get<api.SearchResults>(`/v1/public/searches/${id}/results`, { signal })).body;
}
