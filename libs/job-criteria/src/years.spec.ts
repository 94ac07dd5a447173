import { yearsStated } from './years';

describe('yearsStated', () => {
  it.each([
    ['At least 2 years of general ledger accounting', [2]],
    ['3+ years of hands-on maintenance', [3]],
    ['5 or more years of progressive experience', [5]],
    ['Minimum of 4 years in consulting', [4]],
    ['3-5 years running a kitchen', [3]],
    ['two (2) years of retail', [2]],
    ['Five years of teaching', [5]],
    ['10+ yrs of Java', [10]],
    ['2.5 years of SQL', [2.5]],
    ['one year leading a team', [1]],
    ['5+ years,\n including 2 years supervising staff', [5, 2]],
  ])('reads %p as %p', (text, years) => {
    expect(yearsStated(text)).toEqual(years);
  });

  it.each([
    'Must be 18 years old',
    'at least 21 years of age',
    'obtain the certificate within 2 years',
    'less than 3 years of experience welcome',
    'We have served clients for 20 months',
    'Windows 2016 servers',
    'Budget of $20 years', // a sum, not a number of years
    'someone who has done it',
  ])('reads no minimum in %p', (text) => {
    expect(yearsStated(text)).toEqual([]);
  });

  it('reads a long run of spaces in linear time', () => {
    const started = Date.now();
    expect(yearsStated(`2${' '.repeat(50_000)}x 3 years`)).toEqual([3]);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
