export {
  DEFAULT_RADIUS_KM,
  JobCriteria,
  MAX_LANGUAGES,
  MAX_SKILLS,
  MAX_TITLE_CHARS,
  MAX_WEIGHT,
  MAX_YEARS,
  WeightedSkill,
} from './criteria';
export { MAX_POSTING_CHARS, SKILL_WEIGHTS, readJobCriteria } from './read-job-criteria';
