import { analyze, type Term } from './analyzer';

export interface Highlight {
  /** The passage, as it stands in the document text. */
  text: string;
  /** Offsets of the passage in the document's extracted text. */
  start: number;
  end: number;
  /** Offsets of the matched terms, relative to the passage. */
  matches: { start: number; end: number }[];
}

const WINDOW = 240;

/**
 * The passages holding the most distinct query terms. A window slides over the matches; the
 * best non-overlapping windows are returned, trimmed to word boundaries. `analysed` may carry
 * the text's terms when the caller has them already.
 */
export function findHighlights(
  text: string,
  queryTerms: readonly string[],
  limit = 3,
  analysed: readonly Term[] = analyze(text),
): Highlight[] {
  const wanted = new Set(queryTerms);
  const hits = analysed.filter((t) => wanted.has(t.term));
  if (hits.length === 0) return [];
  const candidates: { start: number; end: number; distinct: number; count: number }[] = [];
  let j = 0;
  for (let i = 0; i < hits.length; i++) {
    while (j < hits.length && hits[j].end - hits[i].start <= WINDOW) j++;
    const window = hits.slice(i, j);
    candidates.push({
      start: hits[i].start,
      end: hits[j - 1].end,
      distinct: new Set(window.map((h) => h.term)).size,
      count: window.length,
    });
  }
  candidates.sort((a, b) => b.distinct - a.distinct || b.count - a.count || a.start - b.start);
  const chosen: typeof candidates = [];
  for (const c of candidates) {
    if (chosen.length >= limit) break;
    if (chosen.some((o) => c.start < o.end + 40 && o.start < c.end + 40)) continue;
    chosen.push(c);
  }
  return chosen
    .sort((a, b) => a.start - b.start)
    .map((c) => {
      const pad = Math.max(0, Math.floor((WINDOW - (c.end - c.start)) / 2));
      let start = Math.max(0, c.start - pad);
      let end = Math.min(text.length, c.end + pad);
      while (start > 0 && start < c.start && !/\s/.test(text[start - 1])) start++;
      while (end < text.length && end > c.end && !/\s/.test(text[end])) end--;
      const matches = hits.filter((h) => h.start >= start && h.end <= end).map((h) => ({ start: h.start - start, end: h.end - start }));
      return { text: text.slice(start, end), start, end, matches };
    });
}
