import type { ProfileInfo } from '@cs/cv-understanding/types';
import { resolvePlace } from '@cs/gazetteer';
import type { CandidateMatch } from '@cs/search-domain';
import { criteriaAssessor, passage, STATUS_VALUE, type AssessedCv } from './assess-candidate';
import type { JobCriteria } from './criteria';

const NO_CRITERIA: JobCriteria = {
  title: null,
  summary: null,
  skills: { required: [], preferred: [] },
  experienceYears: null,
  seniority: null,
  location: null,
  degree: null,
  languages: [],
};

const PROFILE: ProfileInfo = {
  domain: null,
  specialization: null,
  seniorityLevel: null,
  experienceYears: null,
  technicalStack: [],
  skills: [],
  degree: null,
  languages: [],
  industries: [],
  recentExpertise: [],
  hasManagement: null,
  location: null,
};

const CV = `Senior Staff Accountant
Austin, TX

Experience
Staff Accountant, Company Name, 03/2019 to Present
Prepared journal entries and monthly general ledger reconciliations.
Reconciled bank accounts for three entities.

Accounts Clerk, Company Name, 01/2015 to 02/2019
Entered invoices.

Education
Bachelor of Science : Accounting, 2014

Languages
English, Spanish (fluent)
`;

const AS_OF = new Date('2026-11-01T00:00:00Z');

function assess(criteria: Partial<JobCriteria>, profile: Partial<ProfileInfo> | null, text = CV): CandidateMatch['criteria'] {
  const cv: AssessedCv = { text, profile: profile && { ...PROFILE, ...profile } };
  return criteriaAssessor(
    { ...NO_CRITERIA, ...criteria },
    resolvePlace(criteria.location && 'place' in criteria.location ? criteria.location.place : ''),
    AS_OF,
  )(cv).criteria;
}

/** Each evidence passage is the text at its offsets, and holds `words`. */
function expectEvidence(found: CandidateMatch['criteria'][number], text: string, words: RegExp): void {
  expect(found.evidence.length).toBeGreaterThan(0);
  for (const e of found.evidence) expect(text.slice(e.start, e.end)).toBe(e.text);
  expect(found.evidence[0].text).toMatch(words);
}

describe('criteriaAssessor', () => {
  it('skill: met as written or as an inflection, partly by stem or by half its words, missing otherwise; evidence is the line that shows it', () => {
    const [ledger, reconciliation, payroll, bankStatements, cpa] = assess(
      {
        skills: {
          required: [
            { name: 'general ledger', weight: 1 },
            { name: 'reconciliation', weight: 1 },
            { name: 'payroll', weight: 1 },
          ],
          preferred: [
            { name: 'bank statements', weight: 0.5 },
            { name: 'CPA', weight: 0.5 },
          ],
        },
      },
      {},
    );
    expect(ledger).toMatchObject({ criterion: { kind: 'skill', name: 'general ledger', required: true }, status: 'met' });
    expectEvidence(ledger, CV, /monthly general ledger reconciliations/);
    expect(reconciliation.status).toBe('met'); // "reconciliations", an inflection
    expect(payroll).toEqual({ criterion: expect.objectContaining({ name: 'payroll' }), status: 'missing', evidence: [] });
    expect(bankStatements).toMatchObject({ criterion: { required: false }, status: 'partly' }); // "bank" alone
    expectEvidence(bankStatements, CV, /bank accounts/);
    expect(cpa.status).toBe('missing');

    const [accounting] = assess({ skills: { required: [{ name: 'accounting', weight: 1 }], preferred: [] } }, {}, 'Senior accountant.');
    expect(accounting.status).toBe('partly'); // the stem only: accountant is another word than accounting
  });

  it('title: met by a line holding all its words, partly by half of them, missing otherwise', () => {
    const [met] = assess({ title: 'Staff Accountant' }, {});
    expect(met.status).toBe('met');
    expectEvidence(met, CV, /Staff Accountant/);
    const [partly] = assess({ title: 'Payroll Accountant' }, {});
    expect(partly.status).toBe('partly');
    const [missing] = assess({ title: 'Software Engineer' }, {});
    expect(missing.status).toBe('missing');
  });

  it('experienceYears: met at the minimum, partly within a quarter of it, missing below, unknown when the CV states none; evidence is the dates', () => {
    const years = (experienceYears: number | null) => assess({ experienceYears: { min: 8 } }, { experienceYears })[0];
    const met = years(11);
    expect(met).toMatchObject({ criterion: { kind: 'experienceYears', name: '8+ years', required: true }, status: 'met' });
    expectEvidence(met, CV, /03\/2019 to Present/);
    expect(met.evidence[1].text).toMatch(/01\/2015 to 02\/2019/);
    expect(years(6).status).toBe('partly');
    expect(years(5).status).toBe('missing');
    expect(years(null)).toMatchObject({ status: 'unknown', evidence: [] });
  });

  it('seniority: met at or above, partly one level below, missing further, unknown when the CV states none', () => {
    const level = (seniorityLevel: string | null) => assess({ seniority: 'senior' }, { seniorityLevel })[0];
    const met = level('senior');
    expect(met.status).toBe('met');
    expectEvidence(met, CV, /^Senior Staff Accountant$/);
    expect(level('lead').status).toBe('met');
    expect(level('mid').status).toBe('partly');
    expect(level('junior').status).toBe('missing');
    expect(level(null).status).toBe('unknown');
  });

  it('location: met within the radius, partly within twice it or in the region of a CV naming no city, missing further, unknown without a place', () => {
    const place = (name: string | null) => {
      const at = name === null ? null : resolvePlace(name);
      return assess({ location: { place: 'Austin, Texas, United States', radiusKm: 80 } }, { location: at })[0];
    };
    const met = place('Round Rock, TX');
    expect(met).toMatchObject({ criterion: { kind: 'location', required: true }, status: 'met' });
    const austin = place('Austin, TX');
    expectEvidence(austin, CV, /^Austin, TX$/);
    expect(place('San Antonio, TX').status).toBe('partly'); // about 120 km, within twice the radius
    expect(place('Texas').status).toBe('partly');
    expect(place('Denver, CO').status).toBe('missing');
    expect(place(null)).toMatchObject({ status: 'unknown', evidence: [] });
  });

  it('degree: met at or above, partly one level below, missing further, unknown when the CV states none; evidence is where the CV writes it', () => {
    const degree = (held: ProfileInfo['degree']) => assess({ degree: { min: 'bachelor' } }, { degree: held })[0];
    const met = degree('bachelor');
    expect(met).toMatchObject({ criterion: { kind: 'degree', name: 'bachelor or above' }, status: 'met' });
    expectEvidence(met, CV, /Bachelor of Science/);
    expect(degree('associate').status).toBe('partly');
    expect(degree('high-school').status).toBe('missing');
    expect(degree(null).status).toBe('unknown');
  });

  it('language: met when the CV claims it, missing when it claims others, unknown when it claims none', () => {
    const language = (languages: string[]) => assess({ languages: ['Spanish'] }, { languages })[0];
    const met = language(['English', 'Spanish']);
    expect(met.status).toBe('met');
    expectEvidence(met, CV, /Spanish/);
    expect(CV.slice(met.evidence[0].start, met.evidence[0].end)).toContain('Spanish');
    expect(language(['English']).status).toBe('missing');
    expect(language([]).status).toBe('unknown');
  });

  it('scores the criteria by weight: met 1, partly and unknown half, missing nothing', () => {
    const assessCv = criteriaAssessor(
      {
        ...NO_CRITERIA,
        skills: { required: [{ name: 'general ledger', weight: 2 }], preferred: [{ name: 'payroll', weight: 1 }] },
        experienceYears: { min: 3 },
      },
      null,
      AS_OF,
    );
    const { score } = assessCv({ text: CV, profile: { ...PROFILE, experienceYears: null } });
    expect(score).toBeCloseTo((2 * STATUS_VALUE.met + 1 * STATUS_VALUE.missing + 1 * STATUS_VALUE.unknown) / 4, 4);
    expect(assessCv({ text: CV, profile: null }).criteria.map((c) => c.status)).toEqual(['met', 'missing', 'unknown']);
  });

  it('cuts a long line to a passage around what it shows', () => {
    const text = `${'word '.repeat(200)}general ledger${' more'.repeat(200)}`;
    const at = text.indexOf('general ledger');
    const p = passage(text, at, at + 'general ledger'.length);
    expect(p.text).toContain('general ledger');
    expect(p.text.length).toBeLessThanOrEqual(200);
    expect(text.slice(p.start, p.end)).toBe(p.text);
  });
});
