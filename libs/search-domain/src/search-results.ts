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

/** The kinds of criterion a job posting's criteria hold, each assessed on its own. */
export const CRITERION_KINDS = ['title', 'skill', 'experienceYears', 'seniority', 'location', 'degree', 'language'] as const;
export type CriterionKind = (typeof CRITERION_KINDS)[number];
/** met; partly (docs/api.md says when, for each kind); missing; unknown: the CV does not say. */
export const CRITERION_STATUSES = ['met', 'partly', 'missing', 'unknown'] as const;
export const CriterionStatus = z.enum(CRITERION_STATUSES);

/** A passage of the CV's text that shows how it meets a criterion. */
export const Evidence = z.strictObject({
  text: z.string(),
  start: z.int().meta({ description: 'Offset in the document’s extractedText' }),
  end: z.int(),
});
export type Evidence = z.infer<typeof Evidence>;

export const Criterion = z
  .strictObject({
    kind: z.enum(CRITERION_KINDS),
    name: z.string().meta({ description: 'What is asked, as a recruiter reads it: the skill, "2+ years", "bachelor", the place' }),
    required: z.boolean().meta({ description: 'A requirement of the posting (strict searches filter on these), not a nice-to-have' }),
    weight: z.number(),
  })
  .meta({ id: 'Criterion' });
export type Criterion = z.infer<typeof Criterion>;

export const CriterionAssessment = z.strictObject({
  criterion: Criterion,
  status: CriterionStatus,
  evidence: z.array(Evidence).meta({ description: 'Where the CV shows it, at most 3 passages; empty when missing or unknown' }),
});
export type CriterionAssessment = z.infer<typeof CriterionAssessment>;

/** How a CV meets a `match` search's criteria. */
export const CandidateMatch = z
  .strictObject({
    score: z.number().min(0).max(1).meta({ description: 'The criteria met, by weight: met counts 1, partly and unknown 0.5, missing 0' }),
    criteria: z.array(CriterionAssessment),
  })
  .meta({ id: 'CandidateMatch' });
export type CandidateMatch = z.infer<typeof CandidateMatch>;

/** Most near misses a match search reports. */
export const MAX_NEAR_MISSES = 10;

/**
 * Beyond a match search's ranking: how many CVs its requirements keep out, one requirement at a
 * time, and the best candidates who miss exactly one.
 */
export const MatchOutcome = z
  .strictObject({
    candidatesMeetingAll: z.int().min(0).meta({
      description: 'The company’s CVs that pass the search’s own filters and every requirement below, as strict filters apply them',
    }),
    relaxations: z
      .array(
        z.strictObject({
          criterion: Criterion,
          additionalCandidates: z.int().min(0).meta({
            description: 'The CVs that pass everything else and fail this requirement alone: what loosening it would add',
          }),
        }),
      )
      .meta({
        description:
          'One per requirement a filter can apply (required skills, years, degree, place, languages; not the years, degree or place when the search’s own filters set that field), most candidates kept out first',
      }),
    nearMisses: z
      .array(
        z.strictObject({
          documentId: z.uuid(),
          documentName: z.string(),
          score: z.number().min(0).max(1),
          missing: Criterion,
          match: CandidateMatch,
        }),
      )
      .max(MAX_NEAR_MISSES)
      .meta({
        description: `The best assessed candidates with exactly one required criterion missing (unknown is not missing), best first, at most ${MAX_NEAR_MISSES}`,
      }),
  })
  .meta({ id: 'MatchOutcome' });
export type MatchOutcome = z.infer<typeof MatchOutcome>;

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
      criteria: z.number().optional(),
    })
    .meta({ description: 'The stage scores that produced it' }),
  highlights: z.array(Highlight),
  matchedTerms: z.array(z.string()),
  /** Absent from results stored before it was kept. */
  matchedAs: z
    .array(TermMatch)
    .optional()
    .meta({ description: 'How the CV holds each of matchedTerms, in their order; absent from results of searches run before it' }),
  match: CandidateMatch.optional().meta({ description: 'match searches: the criteria the CV meets and misses' }),
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
