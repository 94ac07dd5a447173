import { skillPhrases } from './skill-phrases';

const names = (clause: string) => skillPhrases(clause).map((p) => p.name);

describe('skillPhrases', () => {
  it('names the vocabulary’s skills as the vocabulary does, through its synonyms', () => {
    expect(names('Hands-on k8s, ReactJS and ML in production')).toEqual(['Kubernetes', 'React', 'Machine Learning', 'production']);
    expect(names('Knowledge of a/p and g/l')).toEqual(['Accounts Payable', 'General Ledger']);
  });

  it('names a synonym key the skills list lacks as the posting writes it', () => {
    expect(names('Daily use of KPIs; USDA-funded projects')).toEqual(['KPIs', 'USDA']);
  });

  it('reads the noun phrases of a requirement, without the generic words around them', () => {
    expect(names('Hands-on preparation of journal entries, accruals and bank reconciliations')).toEqual([
      'preparation of journal entries',
      'accruals',
      'bank',
      'Reconciliation',
    ]);
    expect(names('Strong working knowledge of the month-end close and fixed asset schedules')).toEqual([
      'month-end close',
      'fixed asset schedules',
    ]);
    expect(names('Proven ability to explain research findings clearly to growers')).toEqual(['research findings', 'growers']);
  });

  it('keeps two words joined by "of" together', () => {
    expect(names('Comfortable with a point of sale system')).toEqual(['point of sale']);
    expect(names('Minimum of 2 years')).toEqual([]);
  });

  it('keeps a long run’s last three words, parting a name from what follows it', () => {
    expect(names('Valid state teaching certificate')).toEqual(['state teaching certificate']);
    expect(names('Air Force aviation maintenance background')).toEqual(['Air Force', 'aviation maintenance']);
  });

  it('drops words that say nothing alone, and adjectives left before a skill', () => {
    expect(names('Systems administration and management')).toEqual([]);
    expect(names('Coordinates the annual external audit')).toEqual(['Auditing']);
  });

  it('reads an everyday word as a skill only as its name, not as a sentence’s first word', () => {
    const vocabulary = (clause: string) =>
      skillPhrases(clause)
        .filter((p) => p.vocabulary)
        .map((p) => p.name);
    expect(vocabulary('Advanced Excel and Word')).toEqual(['Excel', 'Word']);
    expect(vocabulary('Excel, Word and PowerPoint')).toEqual(['Excel', 'Word', 'PowerPoint']);
    expect(vocabulary('Rust')).toEqual(['Rust']);
    expect(vocabulary('excel at customer service')).toEqual(['Customer Service']);
    expect(vocabulary('Access to reliable transportation')).toEqual([]);
    expect(vocabulary('Go-live support for SAP R/3')).toEqual(['SAP']);
    // As a phrase of the posting, a skill's name keeps its capital.
    expect(names('Excel skills')).toEqual(['Excel']);
  });

  it('keeps a name’s number, and a slash compound analysis keeps whole', () => {
    expect(names('Office 365 and Read 180')).toEqual(['Office 365', 'Read 180']);
    expect(names('A/B tests; DNS/DHCP')).toEqual(['A/B tests', 'DNS', 'DHCP']);
  });

  it('writes a word capitalised as its sentence’s first in lower case, and a name as it is', () => {
    expect(names('Troubleshooting of hydraulic systems')).toEqual(['troubleshooting of hydraulic']);
    expect(names('Group Policy and Common Core')).toEqual(['Group Policy', 'Common Core']);
    expect(skillPhrases('Riverside Health System staff').map((p) => p.properName)).toEqual([true]);
  });

  it('tells two spellings of one phrase apart by their analysed terms, not their letters', () => {
    const [a] = skillPhrases('lesson plans');
    const [b] = skillPhrases('Lesson Planning');
    expect(a.key).toBe(b.key);
  });
});
