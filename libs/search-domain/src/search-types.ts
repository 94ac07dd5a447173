export const SEARCH_TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank', 'similar', 'match'] as const;
/** The types whose body carries a query; `similar` starts from one of the company's CVs instead, `match` from a job posting's criteria. */
export const QUERY_SEARCH_TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank'] as const satisfies readonly SearchType[];
export type QuerySearchType = (typeof QUERY_SEARCH_TYPES)[number];
export type SearchType = (typeof SEARCH_TYPES)[number];
export type SearchStatus = 'initiated' | 'processing' | 'completed' | 'failed';

/** The contract's "maximum expected" times: past these the watchdog fails a search. */
export const MAX_PROCESSING_MS: Readonly<Record<SearchType, number>> = {
  dense: 30_000,
  sparse: 30_000,
  'builtin-rerank': 30_000,
  hybrid: 45_000,
  similar: 30_000,
  match: 45_000,
};

/** The contract's typical ranges: the ceiling of every estimate we give. */
export const CONTRACT_ESTIMATE: Readonly<Record<SearchType, { text: string; maxMs: number }>> = {
  dense: { text: '5 to 10 seconds', maxMs: 10_000 },
  sparse: { text: '5 to 10 seconds', maxMs: 10_000 },
  'builtin-rerank': { text: '10 to 20 seconds', maxMs: 20_000 },
  hybrid: { text: '15 to 30 seconds', maxMs: 30_000 },
  similar: { text: '5 to 10 seconds', maxMs: 10_000 },
  match: { text: '10 to 20 seconds', maxMs: 20_000 },
};

export const DEFAULT_TOP_K = 20;

/**
 * Least number of first-stage candidates the reranking searches read, whatever `top_k` asks:
 * relevant CVs that one stage ranks 100th to 300th are found by the reranker only if it sees
 * them. The effective counts are echoed in the results' `metadata`.
 */
export const MIN_RERANK_CANDIDATES: Readonly<Record<'builtin-rerank' | 'hybrid', number>> = { 'builtin-rerank': 200, hybrid: 300 };

/** Candidates each leg of a `similar` search gives to the fusion, whatever `top_k` asks (as hybrid's legs). */
export const MIN_SIMILAR_CANDIDATES = 300;
export const DEFAULT_RERANK_TOP_N = 30;

/**
 * `match`: candidates each leg gives to the fusion (as hybrid's legs), how many of the fused ones
 * the reranker reads, and how many of its best are assessed against the criteria at least (all
 * `top_k` when it asks for more): assessing reads each CV's whole text.
 */
export const MATCH_CANDIDATES = { legs: 300, reranked: 100, assessed: 50 } as const;

export const isSearchType = (value: string): value is SearchType => (SEARCH_TYPES as readonly string[]).includes(value);

function describeDuration(ms: number): string {
  if (ms < 1000) return 'under 1 second';
  const seconds = Math.ceil(ms / 1000);
  return seconds === 1 ? 'about 1 second' : `about ${seconds} seconds`;
}

function p90(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))];
}

/**
 * An honest estimate from the recent processing times of a type (their 90th percentile),
 * never above the contract's range; the contract's range when nothing was measured yet.
 */
export function estimateTime(type: SearchType, recentMs: readonly number[]): string {
  const ceiling = CONTRACT_ESTIMATE[type];
  if (recentMs.length === 0) return ceiling.text;
  const expected = p90(recentMs);
  return expected >= ceiling.maxMs ? ceiling.text : describeDuration(expected);
}

/** Rough time left for a running search. */
export function estimateRemaining(type: SearchType, recentMs: readonly number[], elapsedMs: number): string {
  const expected = recentMs.length ? Math.min(p90(recentMs), CONTRACT_ESTIMATE[type].maxMs) : CONTRACT_ESTIMATE[type].maxMs;
  return describeDuration(Math.max(0, expected - elapsedMs));
}
