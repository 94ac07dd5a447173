export {
  DEFAULT_RADIUS_KM,
  JobCriteria,
  MAX_LANGUAGES,
  MAX_POSTING_CHARS,
  MAX_SKILLS,
  MAX_TITLE_CHARS,
  MAX_WEIGHT,
  MAX_YEARS,
  SearchMatch,
  WeightedSkill,
} from './criteria';
export { SKILL_WEIGHTS, readJobCriteria } from './read-job-criteria';
export { STATUS_VALUE, criteriaAssessor, passage } from './assess-candidate';
export { CRITERION_WEIGHTS, criterionOf } from './criterion';
export type { AssessedCv } from './assess-candidate';
export { hardRequirements, withHardCriteria } from './hard-criteria';
export type { HardRequirement } from './hard-criteria';
