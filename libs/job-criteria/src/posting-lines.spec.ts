import { headingKind, postingParts } from './posting-lines';

describe('postingParts', () => {
  it('reads the title line and the parts under their headings', () => {
    const { title, clauses, hasRequirements } = postingParts(
      [
        'Payroll Specialist',
        '',
        'You will run payroll for 400 employees.',
        '',
        'What you bring:',
        '- Payroll processing in ADP',
        '* Garnishments and tax filings',
        '',
        'Bonus points',
        '• Workday',
        '',
        'Benefits',
        '- Dental plan',
      ].join('\n'),
    );
    expect(title).toBe('Payroll Specialist');
    expect(hasRequirements).toBe(true);
    expect(clauses).toEqual([
      { text: 'You will run payroll for 400 employees.', kind: 'description' },
      { text: 'Payroll processing in ADP', kind: 'required' },
      { text: 'Garnishments and tax filings', kind: 'required' },
      { text: 'Workday', kind: 'preferred' },
      { text: 'Dental plan', kind: 'other' },
    ]);
  });

  it.each([
    ['Requirements', 'required'],
    ['QUALIFICATIONS:', 'required'],
    ['Must have', 'required'],
    ["What you'll need", 'required'],
    ['Minimum Qualifications', 'required'],
    ['Education & Experience', 'required'],
    ['Technical Skills', 'required'],
    ['Nice to have', 'preferred'],
    ['Nice-to-haves:', 'preferred'],
    ['Preferred qualifications', 'preferred'],
    ['Bonus', 'preferred'],
    ['Responsibilities', 'description'],
    ["What you'll do", 'description'],
    ['About us', 'other'],
    ['Benefits:', 'other'],
  ] as const)('reads %p as a %s heading', (line, kind) => {
    expect(headingKind(line)).toBe(kind);
  });

  it('reads no heading in a requirement line or a long line', () => {
    expect(headingKind('Requirements gathering with stakeholders')).toBeNull();
    expect(headingKind(`Requirements ${'x'.repeat(80)}`)).toBeNull();
  });

  it('reads a heading with its text on the same line', () => {
    const { clauses } = postingParts("Network Engineer\nWhat you'll do: patch servers and keep backups tested.\nSalary: competitive");
    expect(clauses).toEqual([
      { text: 'patch servers and keep backups tested.', kind: 'description' },
      { text: 'competitive', kind: 'other' },
    ]);
  });

  it('moves a requirement that is a plus to the preferred part', () => {
    const { clauses } = postingParts(
      'Cashier\nRequirements\n- Cash handling\n- Retail experience is a plus\n- Bachelor’s degree preferred; high school diploma required',
    );
    expect(clauses.map((c) => [c.text, c.kind])).toEqual([
      ['Cash handling', 'required'],
      ['Retail experience is a plus', 'preferred'],
      ['Bachelor’s degree preferred', 'preferred'],
      ['high school diploma required', 'required'],
    ]);
  });

  it('reads a title after its label, and none from a sentence, a heading or a list', () => {
    expect(postingParts('Job title: Senior Data Engineer\nRequirements').title).toBe('Senior Data Engineer');
    expect(postingParts('We are hiring a nurse for our clinic\n').title).toBeNull();
    expect(postingParts('Requirements\n- SQL').title).toBeNull();
    expect(postingParts('Our clinic needs a nurse. Apply today.').title).toBeNull();
    expect(postingParts('Skills: SQL, Python').title).toBeNull();
    expect(postingParts('').title).toBeNull();
  });

  it('reads the whole posting as its description when it has no headings', () => {
    const { clauses, hasRequirements } = postingParts('Line Cook\nWe need a line cook with 2 years of experience. Knife skills a must.');
    expect(hasRequirements).toBe(false);
    expect(clauses.map((c) => c.kind)).toEqual(['description', 'description']);
  });
});
