import { JobFailure } from '@cs/contracts';

// Searches that cannot run because the query gives a leg nothing to search with: not retryable.
export const NO_KEYWORDS = 'the query has no searchable keywords (only stop words or punctuation); use skill and tool names';
export const NO_KNOWN_WORDS =
  "the query has no word the language model knows (even by its nearest spelling) or the company's CVs hold; describe the candidate in English words";
export const NOTHING_TO_SEARCH =
  "the query has no searchable keywords and no word the language model knows or the company's CVs hold; use skill, tool and role names";

/** Fails the search at once, not retryable: a retry would read the same query the same way. */
export function failUnsearchable(reason: string): never {
  throw new JobFailure(reason, false);
}
