import { degreeOf } from './degree';
import { splitSections } from './sections';

const AS_OF = new Date('2020-06-30');
/** The degree of a CV whose education section holds these lines. */
const degree = (...education: string[]) => {
  const text = ['Accountant', 'Experience', 'Acme Corp, Accountant, 2012 - Present', 'Education', ...education].join('\n');
  return degreeOf(text, splitSections(text), AS_OF);
};

describe('degreeOf: the highest degree stated as obtained', () => {
  it('reads degrees as CVs write them, spelled out or abbreviated', () => {
    expect(degree('Bachelor of Science : Accounting , 2010 State University')).toBe('bachelor');
    expect(degree('B.S. Elementary Education 1997 West Virginia University')).toBe('bachelor');
    expect(degree('BSc : Economics 1997 University of Ottawa')).toBe('bachelor');
    expect(degree('July 2008 to February 2012 BE COMPUTER SCIENCE Nagpur University')).toBe('bachelor');
    expect(degree('B.Com, LL.B., University of Calcutta')).toBe('bachelor');
    expect(degree('MBA , HR Walsh College')).toBe('master');
    expect(degree("Master's Degree : Education, Texas A&M University")).toBe('master');
    expect(degree('M.Ed. Technologies Enhanced Learning 2003 Seton Hill University')).toBe('master');
    expect(degree('MS : Accounting 2012 University of Texas')).toBe('master');
    expect(degree('MA English Literature, Boston College')).toBe('master');
    expect(degree('Ph.D. Chemistry, 2009, MIT')).toBe('doctorate');
    expect(degree('Associate of Applied Science 2001 Southwest Tennessee Community College')).toBe('associate');
    expect(degree('A.S. Degree : Business Administration')).toBe('associate');
    expect(degree('High School Diploma : 1985 Northwood High School')).toBe('high-school');
    expect(degree('GED State of Ohio 09/2000')).toBe('high-school');
  });

  it('takes the highest of several', () => {
    expect(degree('Associate of Arts, 2001', 'Bachelor of Arts : History, 2004', 'High School Diploma, 1998')).toBe('bachelor');
    expect(degree('B.S : Finance, 2009', 'MBA Carnegie Mellon University, 2013')).toBe('master');
  });

  it('counts professional doctorates when written as degrees, not Maryland or JD Edwards', () => {
    expect(degree('J.D., Georgetown University Law Center, 2005')).toBe('doctorate');
    expect(degree('Doctor of Pharmacy, University of Florida, 2011')).toBe('doctorate');
    expect(degree('Towson University, Baltimore, MD', 'Bachelor of Science : Nursing, 2008')).toBe('bachelor');
    expect(degree('Certificate in JD Edwards, 2010', 'BBA, 2006')).toBe('bachelor');
  });

  it('does not count a degree pursued, expected, in progress or studied without a degree', () => {
    expect(degree('Pursuing a Bachelor of Science in Nursing', 'High School Diploma, 2015')).toBe('high-school');
    expect(degree('MBA : Finance, Expected May 2021', 'Bachelor of Arts : Economics, 2015')).toBe('bachelor');
    expect(degree('Bachelor of Arts : Supply Chain Management 2017', 'In Progress.', 'High School Diploma 2010')).toBe('high-school');
    expect(degree('Master of Science : Accounting', 'Anticipated graduation date: May 2022', 'B.S. Accounting, 2016')).toBe('bachelor');
    expect(degree('PhD candidate in Physics, Stanford University', 'MSc Physics, 2016')).toBe('master');
    expect(degree('Some College (No Degree) : Bachelor of Science coursework, 2010', 'GED, 2005')).toBe('high-school');
    expect(degree('Bachelor of Science : Biology, 2019 - Present')).toBeNull();
  });

  it('keeps a degree whose next line opens an entry of its own', () => {
    expect(degree('Bachelor of Arts : Chemistry 08/1992 Virginia Tech', 'Currently Enrolled : Accounting 2018 Champlain College')).toBe(
      'bachelor',
    );
  });

  it('reads no degree from false friends', () => {
    expect(degree('Master Electrician License, State of Texas')).toBeNull();
    expect(degree('Certified Scrum Master (CSM), 2015')).toBeNull();
    expect(degree('MS Office, MS Excel training, 2012')).toBeNull();
    expect(degree('Northeastern University, Boston, MA', 'Jackson State University, Jackson, MS')).toBeNull();
    expect(degree('Trained AS A Business Analyst (BA) at Acme')).toBeNull();
    expect(degree('MA : Executive Leadership Management Programme, Babson College Executive Education, 2011')).toBeNull();
    expect(degree('Master of Ceremonies at the graduation of 2010')).toBeNull();
  });

  it('reads no degree from words outside an education section that are degrees only in one', () => {
    const text = 'Business Analyst\nExperience\nBA on the billing team, Jackson, MS, 2015 - 2019\nScrum Master for two teams.';
    expect(degreeOf(text, splitSections(text), AS_OF)).toBeNull();
    const spelled = 'Nurse\nSummary\nRegistered nurse with a Bachelor of Science in Nursing and ten years on the ward.';
    expect(degreeOf(spelled, splitSections(spelled), AS_OF)).toBe('bachelor');
  });

  it("is 'none' only where the CV says so, and null where it says nothing", () => {
    const none = 'Warehouse Associate\nSummary\nNo formal education; twenty years on the warehouse floor.';
    expect(degreeOf(none, splitSections(none), AS_OF)).toBe('none');
    const silent = 'Warehouse Associate\nExperience\nAcme, Associate, 2010 - 2015';
    expect(degreeOf(silent, splitSections(silent), AS_OF)).toBeNull();
  });
});
