import { JobCriteria, MAX_POSTING_CHARS, MAX_SKILLS } from './criteria';
import { SKILL_WEIGHTS, readJobCriteria } from './read-job-criteria';

const POSTING = `Senior Payroll Accountant
Location: Denver, CO

We are growing our finance team. You will own the payroll close for 1,200 employees and reconcile payroll liabilities every month.

Requirements
- Bachelor's degree in accounting or a related field
- 5+ years of payroll accounting experience
- Payroll tax filings and wage garnishments
- Advanced Excel; ADP or Workday
- Fluent in English and Spanish

Nice to have
- CPA
- Experience with multi-state payroll tax filings
- Master's degree
`;

const skill = (list: JobCriteria['skills']['required'], name: string) => list.find((s) => s.name === name);

describe('readJobCriteria', () => {
  it('reads a lone half of a surrogate pair as the replacement character, and edited criteria holding one are refused', () => {
    const criteria = readJobCriteria('Accountant \uD800\n\nWe close the books \uDC00 monthly.\n\nRequirements\n- GAAP');
    expect(JSON.stringify(criteria)).not.toMatch(/\\ud[89a-f]/i);
    expect(criteria.summary).toBe('We close the books \uFFFD monthly.');
    expect(JobCriteria.safeParse({ ...criteria, title: 'Accountant \uD800' }).success).toBe(false);
  });

  it('keeps the work as the posting describes it, at most 500 characters cut at a word, and null without a description', () => {
    expect(readJobCriteria(POSTING).summary).toMatch(/^We are growing our finance team\..*reconcile payroll liabilities every month\.$/);
    const long = readJobCriteria(`Accountant\n\n${'We close the books. '.repeat(60)}\n\nRequirements\n- GAAP`).summary ?? '';
    expect(long.length).toBeLessThanOrEqual(500);
    expect(long).toMatch(/^We close the books\..*books\.$/);
    expect(readJobCriteria('Accountant\n\nRequirements\n- GAAP').summary).toBeNull();
  });

  it('reads every criterion a posting states', () => {
    const criteria = readJobCriteria(POSTING);
    expect(criteria).toMatchObject({
      title: 'Senior Payroll Accountant',
      experienceYears: { min: 5 },
      seniority: 'senior',
      location: { place: 'Denver, Colorado, United States', radiusKm: 50 },
      degree: { min: 'bachelor' },
      languages: ['English', 'Spanish'],
    });
    expect(criteria.skills.required.map((s) => s.name)).toEqual([
      'Payroll',
      'accounting',
      'tax filings',
      'wage garnishments',
      'Excel',
      'ADP',
      'Workday',
      'finance',
      'reconcile',
      'liabilities',
    ]);
    expect(criteria.skills.preferred.map((s) => s.name)).toEqual(['CPA', 'multi-state']);
    expect(JobCriteria.parse(criteria)).toEqual(criteria);
  });

  it('weighs requirements, the description and nice-to-haves, more for phrases repeated or in the title', () => {
    const { skills } = readJobCriteria(POSTING);
    // Required, in the title, and mentioned four times (+0.5 at most).
    expect(skill(skills.required, 'Payroll')?.weight).toBe(SKILL_WEIGHTS.required + SKILL_WEIGHTS.inTitle + SKILL_WEIGHTS.repeatedAtMost);
    // Required, mentioned twice: once in the nice-to-haves.
    expect(skill(skills.required, 'tax filings')?.weight).toBe(SKILL_WEIGHTS.required + SKILL_WEIGHTS.repeated);
    expect(skill(skills.required, 'Excel')?.weight).toBe(SKILL_WEIGHTS.required);
    expect(skill(skills.required, 'liabilities')?.weight).toBe(SKILL_WEIGHTS.described);
    expect(skill(skills.preferred, 'CPA')?.weight).toBe(SKILL_WEIGHTS.preferred);
    // Weightiest first.
    const weights = skills.required.map((s) => s.weight);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
  });

  it('weighs the description as requirements when the posting lists none', () => {
    const { skills, experienceYears } = readJobCriteria(
      'Line Cook\nWe need a line cook with 2 years of experience in a busy kitchen. Knife skills and ServSafe certification.',
    );
    expect(skill(skills.required, 'ServSafe')?.weight).toBe(SKILL_WEIGHTS.required);
    expect(experienceYears).toEqual({ min: 2 });
  });

  it('leaves null or empty what the posting does not say', () => {
    expect(readJobCriteria('We are hiring!\nCome and work with us.')).toEqual({
      title: null,
      summary: 'We are hiring! Come and work with us.',
      skills: { required: [], preferred: [] },
      experienceYears: null,
      seniority: null,
      location: null,
      degree: null,
      languages: [],
    });
    expect(readJobCriteria('')).toMatchObject({ title: null, skills: { required: [], preferred: [] } });
  });

  it('reads the seniority from the title, never from the years', () => {
    expect(readJobCriteria('Lead Data Engineer\nRequirements\n- 2+ years of SQL').seniority).toBe('lead');
    expect(readJobCriteria('Finance Manager').seniority).toBe('manager');
    expect(readJobCriteria('Data Engineer\nRequirements\n- 8+ years of SQL')).toMatchObject({
      seniority: null,
      experienceYears: { min: 8 },
    });
    expect(readJobCriteria('Data Engineer\nRequirements\n- 1 year of SQL').seniority).toBeNull();
    expect(readJobCriteria('Data Engineer\nRequirements\n- SQL').seniority).toBeNull();
  });

  it('reads the largest minimum of years the requirements state, not the nice-to-haves', () => {
    const criteria = readJobCriteria(
      'Team Leader\nRequirements\n- Min. 3 years in a call center, of which at least 1 year leading a team\nNice to have\n- 10 years in banking',
    );
    expect(criteria.experienceYears).toEqual({ min: 3 });
  });

  it('reads the lowest degree the requirements name, and none from the nice-to-haves', () => {
    expect(readJobCriteria("Analyst\nRequirements\n- Bachelor's or Master's degree in statistics").degree).toEqual({ min: 'bachelor' });
    expect(readJobCriteria('Analyst\nRequirements\n- B.S. in agronomy').degree).toEqual({ min: 'bachelor' });
    expect(readJobCriteria('Clerk\nRequirements\n- High school diploma or GED').degree).toEqual({ min: 'high-school' });
    expect(readJobCriteria('Analyst\nRequirements\n- SQL\nNice to have\n- MBA').degree).toBeNull();
  });

  it('reads spoken languages the posting requires, not those it would like', () => {
    expect(readJobCriteria('Agent\nRequirements\n- Fluent in French and German').languages).toEqual(['French', 'German']);
    const criteria = readJobCriteria('Agent\nRequirements\n- Customer service\nNice to have\n- Bilingual (English/Spanish)');
    expect(criteria.languages).toEqual([]);
    expect(criteria.skills.preferred.map((s) => s.name)).toEqual(['bilingual', 'English', 'Spanish']);
  });

  it('reads remote work, then no place', () => {
    expect(readJobCriteria('Support Engineer\nThis is a fully remote role. Our office is based in Austin, TX.').location).toEqual({
      remote: true,
    });
  });

  it(`keeps the ${MAX_SKILLS} weightiest skills of each list`, () => {
    const many = Array.from({ length: 80 }, (_, i) => `- ${['alpha', 'bravo', 'charlie', 'delta', 'echo'][i % 5]}${i} widgets`);
    const { skills } = readJobCriteria(`Widget Maker\nRequirements\n${many.join('\n')}\n- alpha0 widgets again\nBonus\n${many.join('\n')}`);
    expect(skills.required).toHaveLength(MAX_SKILLS);
    // The one mentioned twice first; phrases named in both lists are required only.
    expect(skills.required[0]).toEqual({ name: 'alpha0 widgets', weight: SKILL_WEIGHTS.required + SKILL_WEIGHTS.repeated * 2 });
    expect(skills.preferred).toEqual([]);
  });
});

describe('JobCriteria', () => {
  const valid = readJobCriteria(POSTING);

  it('accepts criteria a recruiter edited within bounds', () => {
    const edited = {
      ...valid,
      skills: { required: [{ name: 'Kronos', weight: 3 }], preferred: [] },
      location: { remote: true },
      seniority: null,
    };
    expect(JobCriteria.parse(edited)).toEqual(edited);
  });

  it.each([
    ['an unknown key', { ...valid, salary: 1 }],
    ['a weight of 0', { ...valid, skills: { required: [{ name: 'SQL', weight: 0 }], preferred: [] } }],
    ['a blank skill', { ...valid, skills: { required: [{ name: '  ', weight: 1 }], preferred: [] } }],
    ['a skill of 101 characters', { ...valid, skills: { required: [{ name: 'x'.repeat(101), weight: 1 }], preferred: [] } }],
    [
      'too many skills',
      { ...valid, skills: { required: Array.from({ length: MAX_SKILLS + 1 }, () => ({ name: 'SQL', weight: 1 })), preferred: [] } },
    ],
    ['an unknown seniority', { ...valid, seniority: 'guru' }],
    ['an unknown degree', { ...valid, degree: { min: 'wizard' } }],
    ['negative years', { ...valid, experienceYears: { min: -1 } }],
    ['remote false', { ...valid, location: { remote: false } }],
    ['a place and remote', { ...valid, location: { place: 'Austin', radiusKm: 50, remote: true } }],
    ['a radius of 0', { ...valid, location: { place: 'Austin', radiusKm: 0 } }],
    ['a missing field', { ...valid, languages: undefined }],
  ])('refuses %s', (_, edited) => {
    expect(JobCriteria.safeParse(edited).success).toBe(false);
  });
});

describe('readJobCriteria on hostile postings', () => {
  /** Reads a posting, and answers its criteria with the time it took. */
  const timed = (text: string) => {
    const started = process.hrtime.bigint();
    const criteria = readJobCriteria(text);
    return { criteria, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };
  // Generous: other work shares the machine's cores. Linear reading takes well under a second.
  const BOUND_MS = 5000;

  beforeAll(() => readJobCriteria(POSTING));

  it('reads a posting of one 20,000-letter word', () => {
    const { criteria, ms } = timed('a'.repeat(MAX_POSTING_CHARS));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(criteria.skills).toEqual({ required: [], preferred: [] });
  });

  it('reads a posting of one word repeated', () => {
    const { criteria, ms } = timed('workday '.repeat(MAX_POSTING_CHARS / 8));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(criteria.skills.required.map((s) => s.name)).toEqual(['Workday']);
  });

  it('reads a posting naming 5,000 skills, keeping the weightiest', () => {
    const names = ['Java', 'Python', 'SQL', 'Kubernetes', 'React', 'Tableau', 'Docker', 'AWS', 'Azure', 'Terraform'];
    const text = `Engineer\nRequirements\n${Array.from({ length: 5000 }, (_, i) => `${names[i % names.length]} ${i}`).join(', ')}`;
    const { criteria, ms } = timed(text);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(criteria.skills.required.length).toBeLessThanOrEqual(MAX_SKILLS);
    expect(criteria.skills.required.map((s) => s.name)).toEqual(expect.arrayContaining(['Java', 'Kubernetes', 'Terraform']));
  });

  it('reads 5,000 one-skill lines, keeping 30', () => {
    const text = `Engineer\nRequirements\n${Array.from({ length: 5000 }, (_, i) => `- tool${i}`).join('\n')}`;
    const { criteria, ms } = timed(text);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(criteria.skills.required).toHaveLength(MAX_SKILLS);
  });

  it('reads a posting in a language the vocabulary does not know', () => {
    const german = 'Wir suchen einen erfahrenen Buchhalter mit mindestens drei Jahren Berufserfahrung in der Finanzbuchhaltung. ';
    const { criteria, ms } = timed(german.repeat(200));
    expect(ms).toBeLessThan(BOUND_MS);
    expect(JobCriteria.safeParse(criteria).success).toBe(true);
    const chinese = timed('招聘高级软件工程师，负责后端开发。要求：五年以上经验。'.repeat(800));
    expect(chinese.ms).toBeLessThan(BOUND_MS);
    expect(chinese.criteria.skills.required.length).toBeLessThanOrEqual(MAX_SKILLS);
  });

  it.each([
    ['spaces', `2${' '.repeat(MAX_POSTING_CHARS)}years`],
    ['bullets', '- \n'.repeat(7000)],
    ['numbers', '3+ years '.repeat(2500)],
    ['places', 'Austin, TX, '.repeat(1800)],
    ['"of" chains', 'point of sale of '.repeat(1250)],
    ['slashes', 'a/'.repeat(10000)],
    ['hyphens', 'a-'.repeat(10000)],
    ['dots', 'a.'.repeat(10000)],
    ['capitalised words', 'Austin '.repeat(2857)],
    ['languages', 'Fluent in Spanish, French and German. '.repeat(550)],
    ['headings', 'Requirements:\n'.repeat(1500)],
  ])('reads a posting of %s in bounded time', (_, text) => {
    const { criteria, ms } = timed(text);
    expect(ms).toBeLessThan(BOUND_MS);
    expect(JobCriteria.safeParse(criteria).success).toBe(true);
  });

  it(`reads only the first ${MAX_POSTING_CHARS} characters`, () => {
    const text = `Analyst\nRequirements\n- SQL\n${' '.repeat(MAX_POSTING_CHARS)}\n- Tableau`;
    expect(readJobCriteria(text).skills.required.map((s) => s.name)).toEqual(['SQL']);
  });
});
