import type { ComparedHit, Overlap } from '../search/overlap';
import { flexibleWidth, formatScore, renderTable, truncate } from './table';

export const STAGES = ['dense', 'sparse', 'fused', 'rerank'] as const;
export type Stage = (typeof STAGES)[number];

/** One result row as the tables need it (a subset of the API's result item). */
export interface ScoredHit extends ComparedHit {
  rank: number;
  score: number;
  scores: Partial<Record<Stage, number>>;
  documentDeleted?: boolean;
}

export interface ScoredSearch {
  searchType: string;
  results: readonly ScoredHit[];
}

const nameOf = (hit: ScoredHit) =>
  hit.documentDeleted ? `(deleted) ${hit.documentName ?? ''}`.trim() : (hit.documentName ?? hit.documentId);

/**
 * One search's results: rank, document name and score, and each stage's score when the search
 * had more than one stage (hybrid: dense, sparse, fused, rerank; builtin-rerank: dense, rerank).
 */
export function renderSearchTable(search: ScoredSearch, options: { limit: number; width: number }): string {
  const rows = search.results.slice(0, options.limit);
  const stages = STAGES.filter((stage) => rows.some((hit) => hit.scores[stage] !== undefined));
  const shownStages = stages.length > 1 ? stages : [];
  const rankWidth = Math.max(4, String(rows.at(-1)?.rank ?? 0).length);
  const nameWidth = flexibleWidth(options.width, [rankWidth, 5, ...shownStages.map((s) => Math.max(5, s.length))], 1);
  return renderTable({
    head: ['Rank', 'Document', 'Score', ...shownStages],
    rows: rows.map((hit) => [
      String(hit.rank),
      truncate(nameOf(hit), nameWidth),
      formatScore(hit.score),
      ...shownStages.map((stage) => formatScore(hit.scores[stage])),
    ]),
    alignRight: [0, 2, ...shownStages.map((_, i) => 3 + i)],
  });
}

/** The searches of a group side by side: a row per rank, a column per search holding name and score. */
export function renderSideBySide(searches: readonly ScoredSearch[], options: { limit: number; width: number }): string {
  const depth = Math.min(options.limit, Math.max(0, ...searches.map((s) => s.results.length)));
  const rankWidth = Math.max(4, String(depth).length);
  const cellWidth = flexibleWidth(options.width, [rankWidth], searches.length, 12);
  const scoreWidth = 5;
  const cell = (hit: ScoredHit | undefined) =>
    hit ? `${truncate(nameOf(hit), cellWidth - scoreWidth - 1).padEnd(cellWidth - scoreWidth - 1)} ${formatScore(hit.score)}` : '';
  return renderTable({
    head: ['Rank', ...searches.map((s) => s.searchType)],
    rows: Array.from({ length: depth }, (_, i) => [String(i + 1), ...searches.map((s) => cell(s.results[i]))]),
    alignRight: [0],
  });
}

/** Each pair's shared CVs in its top N, then the CVs every search found. */
export function renderOverlap(overlap: Overlap, searchCount: number): string {
  const table = renderTable({
    head: ['Pair', `Shared in top ${overlap.top}`],
    rows: overlap.pairs.map((p) => [`${p.a} & ${p.b}`, `${p.shared}/${p.of}`]),
    alignRight: [1],
  });
  const names = overlap.foundByAll.map((hit) => hit.documentName ?? hit.documentId);
  const all = searchCount === 4 ? 'all four' : `all ${searchCount}`;
  return `${table}\nFound by ${all} (${names.length}): ${names.length ? names.join(', ') : 'none'}`;
}

/** Counts of one profile field's values, most frequent first. */
type FieldCounts = Partial<Record<string, readonly { value: string; count: number }[]>>;

/** A search's `facets`: counts over the CVs that pass its filters and over its results. */
export interface FacetCounts {
  passing: { cvs: number; fields: FieldCounts };
  results: { cvs: number; fields: FieldCounts };
}

/** The facets as a row per field: its values and their counts among the CVs that pass the filters (all, unfiltered), and among the results. */
export function renderFacets(facets: FacetCounts, options: { filtered: boolean; width: number }): string {
  const fields = [...new Set([...Object.keys(facets.passing.fields), ...Object.keys(facets.results.fields)])];
  const list = (counts: FieldCounts[string]) => (counts?.length ? counts.map((c) => `${c.value} ${c.count}`).join(', ') : 'none');
  const fieldWidth = Math.max(5, ...fields.map((field) => field.length));
  const cellWidth = flexibleWidth(options.width, [fieldWidth], 2, 12);
  return renderTable({
    head: ['Field', `${options.filtered ? 'Passing the filters' : 'All CVs'} (${facets.passing.cvs})`, `Results (${facets.results.cvs})`],
    rows: fields.map((field) => [field, list(facets.passing.fields[field]), list(facets.results.fields[field])]),
    colWidths: [fieldWidth + 2, cellWidth + 2, cellWidth + 2],
    wrap: true,
    compact: false,
  });
}
