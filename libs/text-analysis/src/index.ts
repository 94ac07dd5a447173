export { onePassTokenPattern, tokenize } from './tokenizer';
export type { Token } from './tokenizer';
export { LONE_SIGN, PLAIN_WORD, SYNONYM_RULES, analyze, bigrams, normalizeToken, termsOf } from './analyzer';
export type { SynonymRule, Term } from './analyzer';
export { parseQuery, queryTerms } from './query-parser';
export { documentTerms, queryWeights } from './document-terms';
export type { ParsedQuery, QueryPart } from './query-parser';
export { findHighlights } from './highlights';
export { findTerms, surfaceForms, termFinder } from './find-terms';
export type { Highlight } from './highlights';
export type { TextSpan } from './spans';
export { STOP_WORDS } from './stop-words';
export { headline } from './headline';
export { SKILL_SYNONYMS } from './synonyms';
export { SKILLS } from './skills';
export {
  KEYWORD_QUERY_LIMITS,
  KeywordQueryError,
  conditionJudge,
  conditionsOf,
  meetsCondition,
  meetsConditions,
  parseKeywordQuery,
} from './keyword-query';
export type { ConditionSubject, KeywordCondition, KeywordQuery, KeywordVocabulary } from './keyword-query';
export { partMatcher, sameWordForms } from './matched-terms';
export type { LocatedMatch, MatchedAs, TermMatch } from './matched-terms';
export { WORDNET_DETACHMENTS } from './wordnet-detachments';
