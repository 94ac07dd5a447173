import type { StoredResult } from '@cs/search-domain';
import {
  findHighlights,
  partMatcher,
  queryTerms,
  type Highlight,
  type LocatedMatch,
  type ParsedQuery,
  type Term,
  type TermMatch,
} from '@cs/text-analysis';
import { round4 } from './candidate';
import type { ResultDocument } from './result-documents';

/**
 * The stored results, ranked from 1: each with its scores, highlights and the query parts it holds
 * (`matchedTerms`, and how in `matchedAs`), by the rules of docs/api.md: as written, as an
 * inflection of the same word or as a skill synonym, never by stem alone. Highlights mark the
 * same occurrences.
 */
export function explainResults(documents: readonly ResultDocument[], parsed: ParsedQuery): StoredResult[] {
  const terms = queryTerms(parsed);
  const matchParts = partMatcher(parsed); // its patterns are built once for all results
  return documents.map((d, i) => ({
    ...explain(d, terms, matchParts),
    rank: i + 1,
    documentId: d.candidate.documentId,
    documentName: d.documentName,
    documentDate: d.documentDate,
  }));
}

function explain(
  { candidate, content: { text, chunks } }: ResultDocument,
  terms: string[],
  matchParts: (text: string) => { matched: LocatedMatch[]; marks: Term[] },
): Pick<StoredResult, 'score' | 'scores' | 'highlights' | 'matchedTerms' | 'matchedAs'> {
  // Only the query's terms are looked for; matched terms and highlights share the answer.
  const { matched, marks: analysed } = matchParts(text);
  let highlights: Highlight[] = findHighlights(text, terms, 3, analysed);
  // A dense match's best chunk is its first highlight: where the query fits the CV best.
  if (candidate.chunkIndex !== undefined && candidate.chunkIndex >= 0) {
    const span = chunks.find((c) => c.index === candidate.chunkIndex);
    if (span) {
      const inSpan = analysed
        .filter((t) => t.start >= span.start && t.end <= span.end)
        .map((t) => ({ ...t, start: t.start - span.start, end: t.end - span.start }));
      const inChunk = findHighlights(text.slice(span.start, span.end), terms, 1, inSpan).map((h) => ({
        ...h,
        start: h.start + span.start,
        end: h.end + span.start,
      }));
      const passage = inChunk[0] ?? {
        text: text.slice(span.start, Math.min(span.end, span.start + 240)),
        start: span.start,
        end: Math.min(span.end, span.start + 240),
        matches: [],
      };
      highlights = [passage, ...highlights.filter((h) => h.end <= passage.start || h.start >= passage.end)].slice(0, 3);
    }
  }
  return {
    score: round4(candidate.score),
    scores: candidate.scores,
    highlights,
    matchedTerms: matched.map((m) => m.term),
    matchedAs: matched.map(({ term, as, text: written }): TermMatch => ({ term, as, text: written })),
  };
}
