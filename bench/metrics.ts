/** Relevance metrics as ../shared/eval/README.md defines them. */

export type Qrels = Map<string, Map<string, number>>;

/** TREC qrels: `query 0 docid grade` per line. */
export function parseQrels(text: string): Qrels {
  const qrels: Qrels = new Map();
  for (const line of text.split('\n')) {
    const [query, , doc, grade] = line.trim().split(/\s+/);
    if (!query || !doc) continue;
    if (!qrels.has(query)) qrels.set(query, new Map());
    qrels.get(query)?.set(doc, Number(grade));
  }
  return qrels;
}

/** nDCG@k with gains 2^grade - 1 and a log2 discount; `minGrade` 2 counts grade 2 only. */
export function ndcgAt(ranking: readonly string[], judged: ReadonlyMap<string, number>, k: number, minGrade = 1): number {
  const gain = (g: number) => (g >= minGrade ? 2 ** g - 1 : 0);
  const dcg = ranking.slice(0, k).reduce((sum, doc, i) => sum + gain(judged.get(doc) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...judged.values()]
    .map(gain)
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Relevant (grade >= 1) found in the top k over all relevant. */
export function recallAt(ranking: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  const relevant = [...judged.values()].filter((g) => g >= 1).length;
  if (relevant === 0) return 0;
  return ranking.slice(0, k).filter((doc) => (judged.get(doc) ?? 0) >= 1).length / relevant;
}

/** 1 / rank of the first relevant document. */
export function reciprocalRank(ranking: readonly string[], judged: ReadonlyMap<string, number>): number {
  const at = ranking.findIndex((doc) => (judged.get(doc) ?? 0) >= 1);
  return at < 0 ? 0 : 1 / (at + 1);
}
