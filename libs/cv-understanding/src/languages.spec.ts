import { languagesOf } from './languages';
import { splitSections } from './sections';

const languages = (...lines: string[]) => {
  const text = lines.join('\n');
  return languagesOf(text, splitSections(text));
};

describe('languagesOf: the spoken languages a CV claims', () => {
  it('reads every language of a languages section, English included, in order', () => {
    expect(languages('Consultant', 'Languages', 'Fluent in Spanish * Proficient in French * Basic Portuguese')).toEqual([
      'Spanish',
      'French',
      'Portuguese',
    ]);
    expect(languages('Accountant', 'Languages', 'Bilingual English/Spanish', 'French Mother Tongue')).toEqual([
      'English',
      'Spanish',
      'French',
    ]);
  });

  it('reads a "Languages:" label and the lists after it, not programming languages', () => {
    expect(languages('Personal Profile', 'Language Known : English & Hindi', 'Marital Status : Single')).toEqual(['English', 'Hindi']);
    expect(languages('Programming Languages: Java, Python, C++', 'Language Known: Basics of C, CPP, Java')).toEqual([]);
  });

  it('reads a claim in prose or a skills list', () => {
    expect(languages('Advocate', 'Summary', 'Native and fluent Spanish speaker who has lived abroad.')).toEqual(['Spanish']);
    expect(languages('Banker', 'Summary', 'Fluent in four Indian languages - Hindi, Tamil, Telugu and Kannada.')).toEqual([
      'Hindi',
      'Tamil',
      'Telugu',
      'Kannada',
    ]);
    expect(languages('Clerk', 'Skills', 'Data entry, Spanish speaking, Customer service')).toEqual(['Spanish']);
    expect(languages('Clerk', 'Skills', 'Filing, Korean (conversational), Excel')).toEqual(['Korean']);
  });

  it('counts a language the candidate teaches or translates', () => {
    expect(languages('SPANISH TEACHER', 'Experience', 'Spanish Teacher 2003 - 2019, Lincoln Middle School')).toEqual(['Spanish']);
    expect(languages('Teacher', 'Experience', 'Taught Italian as a foreign language; translated brochures into Portuguese.')).toEqual([
      'Italian',
      'Portuguese',
    ]);
  });

  it('reads nothing from nationality words, places, schools or customers', () => {
    expect(
      languages(
        'Chef',
        'Experience',
        'Sous chef at a Four Star French restaurant; executed sauces with Nuevo French techniques.',
        'Assisted Spanish speaking customers and served Spanish-speaking families.',
        'Education',
        'German International School, 1999',
        'Interests',
        'Languages History Futbol Markets',
      ),
    ).toEqual([]);
    expect(languages('Detailer', 'Experience', 'Applied polish and wax to vehicles; basic polish of chrome.')).toEqual([]);
  });
});
