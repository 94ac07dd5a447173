import { FacetCounts } from '@cs/search-filters/facets';
import { z } from 'zod';

/**
 * A result as a completed search stores it; the CV's contents (summary, contact, profile, text)
 * are joined from the document when read. libs/contracts builds the API's result item from these
 * fields, and the records read stored results back against this schema.
 */

/** A passage of the CV that shows why it matched. */
export const Highlight = z.strictObject({
  text: z.string(),
  start: z.int().meta({ description: 'Offset in the document’s extractedText' }),
  end: z.int(),
  matches: z.array(z.strictObject({ start: z.int(), end: z.int() })).meta({ description: 'Offsets of the matched terms in text' }),
});
export type Highlight = z.infer<typeof Highlight>;

/** How the CV holds one of its matchedTerms (docs/api.md, "matchedTerms"). */
export const TermMatch = z.strictObject({
  term: z.string().meta({ description: 'The matchedTerms entry: a query part as written' }),
  as: z.enum(['exact', 'inflection', 'synonym']).meta({
    description: 'exact: as written, case aside; inflection: a regular inflection of the same word; synonym: another spelling of a skill',
  }),
  text: z.string().meta({ description: 'The CV’s words that hold it, as the CV writes them' }),
});
export type TermMatch = z.infer<typeof TermMatch>;

export const StoredResult = z.strictObject({
  rank: z.int().min(1),
  documentId: z.uuid(),
  documentName: z.string(),
  documentDate: z.string(),
  score: z.number().min(0).max(1).meta({ description: 'The last stage’s score, comparable within one search' }),
  scores: z
    .strictObject({
      dense: z.number().optional(),
      sparse: z.number().optional(),
      fused: z.number().optional(),
      rerank: z.number().optional(),
    })
    .meta({ description: 'The stage scores that produced it' }),
  highlights: z.array(Highlight),
  matchedTerms: z.array(z.string()),
  /** Absent from results stored before it was kept. */
  matchedAs: z
    .array(TermMatch)
    .optional()
    .meta({ description: 'How the CV holds each of matchedTerms, in their order; absent from results of searches run before it' }),
});
export type StoredResult = z.infer<typeof StoredResult>;

/** A search's stored results, best first. */
export const StoredResults = z.array(StoredResult);

/** A search's facets: each asked field's values counted over the CVs that pass its filters, and over its results. */
export const SearchFacets = z
  .strictObject({
    passing: FacetCounts.meta({ description: 'Over the company’s CVs that pass the filters (all of them without filters)' }),
    results: FacetCounts.meta({ description: 'Over the search’s results (all of them, not one page)' }),
  })
  .meta({ id: 'SearchFacets' });
export type SearchFacets = z.infer<typeof SearchFacets>;
