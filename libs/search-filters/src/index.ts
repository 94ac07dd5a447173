export {
  DEGREE_LEVELS,
  MAX_FILTER_DOCUMENT_IDS,
  MAX_FILTER_NAMES,
  MAX_TEXT_SKILLS,
  MAX_TEXT_SKILL_CVS,
  SENIORITY_LEVELS,
  SearchFilters,
  monthIndex,
} from './filters-body';
export type { DegreeLevel } from './filters-body';
export {
  MAX_COUNTED_REQUIREMENTS,
  NO_ATTRIBUTES,
  countRequirements,
  distanceKm,
  excludingDocuments,
  isEmptyFilter,
  passesFilter,
  phraseHolderIds,
} from './search-filter';
export type {
  GeoPoint,
  LocationFilter,
  PhraseHolderIds,
  Range,
  RequirementCounts,
  SearchAttributes,
  SearchFilter,
  SkillsFilter,
} from './search-filter';
export { AttributeIndex } from './attribute-index';
export { InvalidFilterError, compileFilters } from './compile-filters';
export type { FilterVocabulary, PlaceResolver, ResolvedPlace } from './compile-filters';
export { searchAttributesOf, storedAttributeFields } from './search-attributes';
export type { FilterableProfile } from './search-attributes';
export { foldName, skillKey, skillName } from './skill-keys';
export {
  SearchAttributesSchema,
  SearchFilterSchema,
  attributesFromJson,
  attributesToJson,
  facetCountsFromJson,
  facetCountsToJson,
  facetFieldsOf,
  filterFromJson,
  filterToJson,
  requirementsFromJson,
} from './wire';
export { FACET_FIELDS, FacetCount, FacetCounts, TOP_SKILLS, YEAR_BANDS, countFacets, ordered as orderedFacetCounts } from './facets';
export type { FacetField } from './facets';
