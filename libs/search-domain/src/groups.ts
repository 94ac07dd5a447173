import type { SearchStatus, SearchType } from './search-types';

export type GroupStatus = 'processing' | 'completed' | 'failed' | 'partial';

/** processing while any search runs; else completed (all), failed (all) or partial (a mix). */
export function groupStatus(statuses: readonly SearchStatus[]): GroupStatus {
  if (statuses.some((s) => s === 'initiated' || s === 'processing')) return 'processing';
  if (statuses.every((s) => s === 'completed')) return 'completed';
  if (statuses.every((s) => s === 'failed')) return 'failed';
  return 'partial';
}

export interface ComparedSearch {
  searchId: string;
  searchType: SearchType;
  /** Document ids in rank order. */
  documentIds: readonly string[];
}

export interface Comparison {
  pairs: {
    searchIds: [string, string];
    searchTypes: [SearchType, SearchType];
    overlap: number;
    jaccard: number;
  }[];
  /** Documents that every compared search found. */
  foundByAll: string[];
  /** Each document's 1-based rank per search id, null where that search did not find it. */
  documents: { documentId: string; ranks: Record<string, number | null> }[];
}

/** Side-by-side view of completed searches: pairwise overlap and each document's ranks. */
export function compareSearches(searches: readonly ComparedSearch[]): Comparison {
  const sets = searches.map((s) => new Set(s.documentIds));
  const pairs: Comparison['pairs'] = [];
  for (let i = 0; i < searches.length; i++) {
    for (let j = i + 1; j < searches.length; j++) {
      const overlap = [...sets[i]].filter((id) => sets[j].has(id)).length;
      const union = sets[i].size + sets[j].size - overlap;
      pairs.push({
        searchIds: [searches[i].searchId, searches[j].searchId],
        searchTypes: [searches[i].searchType, searches[j].searchType],
        overlap,
        jaccard: union === 0 ? 0 : Math.round((overlap / union) * 1e4) / 1e4,
      });
    }
  }
  const allIds = [...new Set(searches.flatMap((s) => s.documentIds))];
  const foundByAll = searches.length === 0 ? [] : allIds.filter((id) => sets.every((set) => set.has(id)));
  const documents = allIds.map((documentId) => ({
    documentId,
    ranks: Object.fromEntries(
      searches.map((s) => {
        const at = s.documentIds.indexOf(documentId);
        return [s.searchId, at < 0 ? null : at + 1];
      }),
    ),
  }));
  return { pairs, foundByAll, documents };
}
