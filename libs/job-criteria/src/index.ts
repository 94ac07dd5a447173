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
export { CRITERION_WEIGHTS, STATUS_VALUE, criteriaAssessor, passage } from './assess-candidate';
export type { AssessedCv } from './assess-candidate';
export { withHardCriteria } from './hard-criteria';
