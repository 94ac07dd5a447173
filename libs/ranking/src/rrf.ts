/** Reciprocal rank fusion's constant: the standard 60 (Cormack et al., 2009). */
export const RRF_K = 60;

export interface Fused {
  id: string;
  /** Sum of 1 / (k + rank) over the lists that hold the id. */
  score: number;
  /** The fused score over its maximum (first in every list): 0..1. */
  normalized: number;
  /** 1-based rank in each list, null where the list lacks it. */
  ranks: (number | null)[];
}

/** Fuses ranked lists of ids; an id found by several lists outranks one found by one. */
export function reciprocalRankFusion(lists: readonly (readonly string[])[], k = RRF_K): Fused[] {
  const fused = new Map<string, Fused>();
  lists.forEach((list, which) => {
    list.forEach((id, i) => {
      let entry = fused.get(id);
      if (!entry) {
        entry = { id, score: 0, normalized: 0, ranks: lists.map(() => null) };
        fused.set(id, entry);
      }
      entry.score += 1 / (k + i + 1);
      entry.ranks[which] = i + 1;
    });
  });
  const best = lists.length / (k + 1);
  return [...fused.values()]
    .map((f) => ({ ...f, normalized: f.score / best }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}
