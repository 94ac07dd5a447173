/** One hit as the comparison needs it. */
export interface ComparedHit {
  documentId: string;
  documentName: string | null;
}

/** One search of a group: its type and its hits, best first. */
export interface ComparedSearch {
  searchType: string;
  results: readonly ComparedHit[];
}

export interface PairOverlap {
  a: string;
  b: string;
  /** CVs in both searches' top N. */
  shared: number;
  /** The N the pair was compared over: the shorter of the two lists, at most the top N asked. */
  of: number;
}

export interface Overlap {
  /** The N of "top N". */
  top: number;
  pairs: PairOverlap[];
  /** CVs every search found in its top N, in the first search's order. */
  foundByAll: ComparedHit[];
}

/**
 * How far the searches of a group agree over what the user sees: for each pair, how many CVs
 * their top N share, and which CVs all of them have in their top N. Computed here, over the rows
 * shown, rather than read from the API's `comparison`, which covers every result of each search.
 */
export function overlapOf(searches: readonly ComparedSearch[], top: number): Overlap {
  const tops = searches.map((s) => ({ type: s.searchType, hits: s.results.slice(0, top) }));
  const ids = tops.map((t) => new Set(t.hits.map((h) => h.documentId)));
  const pairs: PairOverlap[] = [];
  for (let i = 0; i < tops.length; i++)
    for (let j = i + 1; j < tops.length; j++)
      pairs.push({
        a: tops[i].type,
        b: tops[j].type,
        shared: [...ids[i]].filter((id) => ids[j].has(id)).length,
        of: Math.min(ids[i].size, ids[j].size),
      });
  const foundByAll = tops.length ? tops[0].hits.filter((hit) => ids.every((set) => set.has(hit.documentId))) : [];
  return { top, pairs, foundByAll };
}
