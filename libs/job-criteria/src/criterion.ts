import type { Criterion } from '@cs/search-domain';
import type { WeightedSkill } from './criteria';

/** The weight of each criterion kind that is not a skill (a skill carries its own). */
export const CRITERION_WEIGHTS = { title: 1, experienceYears: 1, seniority: 0.5, location: 1, degree: 0.5, language: 0.5 } as const;

/**
 * Each criterion as results name it, built in one place: an assessment's criterion and a
 * relaxation's are the same object, so that a client can match them.
 */
export const criterionOf = {
  title: (title: string): Criterion => ({ kind: 'title', name: title, required: false, weight: CRITERION_WEIGHTS.title }),
  skill: (skill: WeightedSkill, required: boolean): Criterion => ({ kind: 'skill', name: skill.name, required, weight: skill.weight }),
  experienceYears: (min: number): Criterion => ({
    kind: 'experienceYears',
    name: `${min}+ years`,
    required: true,
    weight: CRITERION_WEIGHTS.experienceYears,
  }),
  seniority: (level: string): Criterion => ({ kind: 'seniority', name: level, required: false, weight: CRITERION_WEIGHTS.seniority }),
  location: (place: string, radiusKm: number): Criterion => ({
    kind: 'location',
    name: `${place} within ${radiusKm} km`,
    required: true,
    weight: CRITERION_WEIGHTS.location,
  }),
  degree: (level: string): Criterion => ({ kind: 'degree', name: `${level} or above`, required: true, weight: CRITERION_WEIGHTS.degree }),
  language: (language: string): Criterion => ({ kind: 'language', name: language, required: true, weight: CRITERION_WEIGHTS.language }),
};
