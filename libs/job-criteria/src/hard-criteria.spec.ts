import type { JobCriteria } from './criteria';
import { hardRequirements, withHardCriteria } from './hard-criteria';

const CRITERIA: JobCriteria = {
  title: 'Staff Accountant',
  summary: null,
  skills: {
    required: [
      { name: 'General Ledger', weight: 1 },
      { name: 'payroll', weight: 0.8 },
    ],
    preferred: [{ name: 'CPA', weight: 0.5 }],
  },
  experienceYears: { min: 3 },
  seniority: 'senior',
  location: { place: 'Austin, TX', radiusKm: 50 },
  degree: { min: 'bachelor' },
  languages: ['Spanish'],
};

describe('hardRequirements', () => {
  it('lists each requirement a filter applies, named as assessments name it; the title, preferred skills and seniority only weigh', () => {
    expect(hardRequirements(null, CRITERIA)).toEqual([
      { criterion: { kind: 'skill', name: 'General Ledger', required: true, weight: 1 }, filters: { skills: { all: ['General Ledger'] } } },
      { criterion: { kind: 'skill', name: 'payroll', required: true, weight: 0.8 }, filters: { skills: { all: ['payroll'] } } },
      { criterion: { kind: 'experienceYears', name: '3+ years', required: true, weight: 1 }, filters: { experienceYears: { gte: 3 } } },
      { criterion: { kind: 'degree', name: 'bachelor or above', required: true, weight: 0.5 }, filters: { degree: { gte: 'bachelor' } } },
      {
        criterion: { kind: 'location', name: 'Austin, TX within 50 km', required: true, weight: 1 },
        filters: { location: { near: 'Austin, TX', radiusKm: 50 } },
      },
      { criterion: { kind: 'language', name: 'Spanish', required: true, weight: 0.5 }, filters: { languages: { all: ['Spanish'] } } },
    ]);
  });

  it('leaves out a field the client’s filters set, zero years, and remote work', () => {
    const kinds = hardRequirements(
      { experienceYears: { gte: 1 }, degree: { gte: 'master' } },
      { ...CRITERIA, location: { remote: true } },
    ).map((r) => r.criterion.kind);
    expect(kinds).toEqual(['skill', 'skill', 'language']);
    expect(hardRequirements(null, { ...CRITERIA, experienceYears: { min: 0 } }).map((r) => r.criterion.kind)).not.toContain(
      'experienceYears',
    );
  });
});

describe('withHardCriteria', () => {
  it('joins the required skills and languages to the client’s, and sets the rest unless the client did', () => {
    expect(withHardCriteria({ skills: { all: ['excel', 'payroll'], none: ['sales'] }, degree: { gte: 'master' } }, CRITERIA)).toEqual({
      skills: { all: ['excel', 'payroll', 'General Ledger'], none: ['sales'] },
      degree: { gte: 'master' },
      experienceYears: { gte: 3 },
      location: { near: 'Austin, TX', radiusKm: 50 },
      languages: { all: ['Spanish'] },
    });
    expect(withHardCriteria(null, { ...CRITERIA, skills: { required: [], preferred: [] }, languages: [], location: null })).toEqual({
      experienceYears: { gte: 3 },
      degree: { gte: 'bachelor' },
    });
  });
});
