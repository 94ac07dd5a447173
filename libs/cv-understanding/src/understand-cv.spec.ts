import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { resolvePlace } from '@cs/gazetteer';
import { GeoPlace, ProfileInfo, findDateRanges, splitSections, understandCv, yearsCovered } from './index';

const EVAL = path.resolve(__dirname, '../../../../shared/eval');
const haveEval = existsSync(EVAL);
const withEval = haveEval ? it : it.skip;
if (!haveEval) console.log(`cv-understanding: ../shared/eval not found at ${EVAL}; real-CV cases skipped`);

const livecareer = (id: string) =>
  (
    readFileSync(path.join(EVAL, 'livecareer/resumes.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; text: string })
      .find((d) => d.id === id) as { text: string }
  ).text;

describe('understandCv on real CVs', () => {
  withEval('reads an anonymised accountant CV: summary, domain, skills, years; no contact invented', () => {
    const cv = understandCv(livecareer('10554236'), new Date('2018-12-31'));
    expect(cv.summary).toBe(
      'Financial Accountant specializing in financial planning, reporting and analysis within the Department of Defense.',
    );
    expect(cv.contact).toBeNull(); // the scrape removed names, e-mails and phones: nothing to report
    expect(cv.profile).toMatchObject({ domain: 'Accounting and finance', specialization: 'ACCOUNTANT' });
    expect(cv.profile?.technicalStack).toEqual(expect.arrayContaining(['General Ledger', 'Reconciliation', 'Accounts Payable']));
    expect(cv.profile?.experienceYears).toBeGreaterThan(5);
    expect(cv.profile?.hasManagement).not.toBeNull();
  });

  withEval('leaves a masked name unknown and keeps what a DOCX CV does say', async () => {
    const { extractText } = await import('@cs/document-parsing');
    const text = await extractText(
      readFileSync(path.join(EVAL, 'docx-cvs/7.docx')),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    const cv = understandCv(text, new Date('2023-06-30'));
    expect(cv.contact).toMatchObject({ firstName: null, lastName: null, location: { city: 'Netanya', country: 'Israel' } });
    expect(cv.profile).toMatchObject({ domain: 'Software engineering', specialization: 'FRONTEND DEVELOPER' });
    expect(cv.profile?.technicalStack.slice(0, 3)).toEqual(['React', 'JavaScript', 'C#']);
  });

  withEval('never fails and never invents a name on the whole livecareer set', () => {
    const texts = readFileSync(path.join(EVAL, 'livecareer/resumes.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { text: string }).text);
    let withDomain = 0;
    for (const text of texts) {
      const cv = understandCv(text, new Date('2018-12-31'));
      expect(cv.contact?.firstName ?? null).toBeNull(); // anonymised: no name may appear
      if (cv.profile?.domain) withDomain++;
    }
    expect(withDomain / texts.length).toBeGreaterThan(0.6);
  });
});

describe('understandCv on a written header', () => {
  const header = [
    'Jane Doe',
    'Senior Data Engineer',
    'jane.doe@example.com | +1 (415) 555-0134 | linkedin.com/in/janedoe',
    'San Francisco, CA',
    '',
  ].join('\n');
  const body = [
    'Summary',
    'Data engineer who builds reliable pipelines on AWS with Python and Spark. Led a team of 5 engineers.',
    'Experience',
    'Acme Corp, Senior Data Engineer, Jan 2019 - Present',
    'Built Kafka and Spark pipelines in Python on AWS.',
    'Beta Inc, Data Engineer, 03/2015 to 12/2018',
    'Wrote SQL and Python ETL jobs.',
    'Education',
    'BSc Computer Science, 2010 - 2014',
  ].join('\n');

  it('reads the contact block, the summary and the profile', () => {
    const cv = understandCv(header + body, new Date('2024-06-30'));
    expect(cv.contact).toEqual({
      firstName: 'Jane',
      lastName: 'Doe',
      email: 'jane.doe@example.com',
      phone: '+1 (415) 555-0134',
      linkedin: 'https://www.linkedin.com/in/janedoe',
      location: { city: 'San Francisco', country: 'United States' },
    });
    expect(cv.summary).toBe('Data engineer who builds reliable pipelines on AWS with Python and Spark. Led a team of 5 engineers.');
    expect(cv.profile).toMatchObject({ seniorityLevel: 'senior', experienceYears: 9.3, hasManagement: true });
    expect(cv.profile?.recentExpertise).toEqual(expect.arrayContaining(['Kafka', 'Spark', 'Python', 'AWS']));
    expect(cv.profile?.recentExpertise).not.toContain('SQL'); // only the latest job's
    expect(cv.profile?.location).toMatchObject({ kind: 'city', city: 'San Francisco', regionCode: 'CA', countryCode: 'US' });
    expect(ProfileInfo.parse(cv.profile)).toEqual(cv.profile);
  });

  it('reads names written in letters beyond ASCII, and the role on the line after them', () => {
    for (const [line, firstName, lastName] of [
      ['Anna Müller', 'Anna', 'Müller'],
      ['Étienne Rousseau', 'Étienne', 'Rousseau'],
      ['Łukasz Nowak-Żak', 'Łukasz', 'Nowak-Żak'],
    ]) {
      const cv = understandCv(
        `${line}\nSenior Accountant\nZürich, Switzerland | cv@example.com\n\nSummary\nChartered accountant for ten years.`,
      );
      expect(cv.contact).toMatchObject({ firstName, lastName });
      expect(cv.profile?.specialization).toBe('Senior Accountant');
    }
  });

  it('ends "Present" at the date the CV was written, not today', () => {
    expect(understandCv(header + body, new Date('2021-06-30')).profile?.experienceYears).toBe(6.3);
  });

  it('gives nulls for a text that says nothing about its author', () => {
    expect(understandCv('Lorem ipsum dolor sit amet.')).toEqual({ summary: null, contact: null, profile: null });
  });
});

describe('technicalStack: skills that are also everyday words', () => {
  const stack = (text: string) => understandCv(text, new Date('2020-06-30')).profile?.technicalStack ?? [];

  it("leaves out a skill's name used as an abbreviation, a date or a proper name", () => {
    const text = [
      'Staff Accountant',
      'Experience',
      'Acme Corp, Staff Accountant, Jan 2010 - Present',
      'Handled A/R and A/P, R&D tax credits and month-end close in QuickBooks.',
      'Taught the Go Math curriculum to grade 3 during Spring 2005.',
      'Assisted the R.N. on duty; joined the Go-Live team.',
    ].join('\n');
    expect(stack(text)).toEqual(expect.arrayContaining(['QuickBooks']));
    for (const word of ['R', 'Go', 'Spring']) expect(stack(text)).not.toContain(word);
  });

  it("counts it in a skills section, beside other skills, or after its vendor's name", () => {
    const text = [
      'Data Analyst',
      'Skills',
      'R, Tableau, SQL',
      'Experience',
      'Beta Inc, Developer, 2015 - 2019',
      'Built services in Go and Python; Spring Boot and Spring MVC on Java.',
      'Kept budgets in MS-Excel; wrote reports in Microsoft Word 2010.',
    ].join('\n');
    expect(stack(text)).toEqual(expect.arrayContaining(['R', 'Go', 'Spring', 'Excel', 'Word', 'Python', 'Tableau']));
  });

  it('counts a skill named for a thing only where one of its names is written, not a word of the same stem', () => {
    const text = [
      'Project Coordinator',
      'Experience',
      'Acme, Coordinator, 2012 - 2018',
      'Revitalized client routines with agility; reacting to change.',
      'Drew plans in AutoCAD; recruited staff. Studied at the University of Rail Transport.',
    ].join('\n');
    expect(stack(text)).toEqual(expect.arrayContaining(['AutoCAD', 'Recruiting']));
    for (const skill of ['Revit', 'Agile', 'React', 'Rails']) expect(stack(text)).not.toContain(skill);
  });

  it('does not count an everyday word alone on its line, even capitalised', () => {
    const text = [
      'Teacher',
      'Experience',
      'Lincoln School, Teacher, 2012 - 2018',
      'Spring semester: planned lessons.',
      'Access to the building for parents.',
    ].join('\n');
    expect(stack(text)).not.toEqual(expect.arrayContaining(['Spring']));
    expect(stack(text)).not.toContain('Access');
  });
});

describe('skills: every skill of the vocabulary the CV writes', () => {
  const profile = (text: string) => understandCv(text, new Date('2020-06-30')).profile;

  it('lists them all, most mentioned first, where the stack keeps fifteen', () => {
    const many = ['Java', 'Python', 'SQL', 'Docker', 'Kubernetes', 'Jenkins', 'Git', 'Jira', 'Kafka', 'Redis', 'MongoDB', 'MySQL'];
    const more = ['PostgreSQL', 'Terraform', 'Ansible', 'Linux', 'Tableau', 'Hadoop'];
    const text = [
      'Engineer',
      'Skills',
      [...many, ...more].join(', '),
      'Experience',
      'Acme, Engineer, 2015 - 2019',
      'Built Python and SQL services.',
    ].join('\n');
    const p = profile(text);
    expect(p?.skills).toHaveLength(many.length + more.length);
    expect(p?.skills.slice(0, 2)).toEqual(['Python', 'SQL']);
    expect(p?.technicalStack).toEqual(p?.skills.slice(0, 15));
  });

  it('lists a skill where one of its names or a synonym is written, not another form of its word', () => {
    const text = [
      'Recruiter',
      'Experience',
      'Acme, Recruiter, 2012 - 2018',
      'Recruited staff and prepared budgets on Amazon Web Services.',
    ].join('\n');
    const p = profile(text);
    expect(p?.technicalStack).toEqual(expect.arrayContaining(['Recruiting', 'AWS']));
    expect(p?.skills).toContain('AWS');
    expect(p?.skills).not.toContain('Recruiting');
    expect(p?.skills).not.toContain('Budgeting');
  });

  it('reads the degree and the languages beside them', () => {
    const text = [
      'Accountant',
      'Experience',
      'Acme, Accountant, 2012 - 2018',
      'Education',
      'Bachelor of Science : Accounting, 2011',
      'Languages',
      'Fluent in Spanish and English',
    ].join('\n');
    expect(profile(text)).toMatchObject({ degree: 'bachelor', languages: ['Spanish', 'English'] });
  });
});

describe('contact.location: a city must look like one', () => {
  const locationOf = (line: string) =>
    understandCv(['Jane Doe', 'Accountant', 'jane@example.com', line, 'Summary', 'Accountant who keeps the general ledger.'].join('\n'))
      .contact?.location ?? null;

  it('reads a city before a state or a country', () => {
    expect(locationOf('Toronto, Canada')).toEqual({ city: 'Toronto', country: 'Canada' });
    expect(locationOf('New York, NY 10001')).toEqual({ city: 'New York', country: 'United States' });
    expect(locationOf('Washington, DC')).toEqual({ city: 'Washington', country: 'United States' });
    expect(locationOf('Winston-Salem, NC')).toEqual({ city: 'Winston-Salem', country: 'United States' });
  });

  it('reads no city from a region, a continent, a country, an abbreviation or common words', () => {
    expect(locationOf('Sales across North America, Canada and Mexico')).toBeNull();
    expect(locationOf('Karnataka, India')).toBeNull();
    expect(locationOf('Washington, USA')).toBeNull(); // the state, or the city: not said
    expect(locationOf('Brazil, China')).toBeNull();
    expect(locationOf('Tools: Oracle, SQL, MS Office')).toBeNull(); // MS is also Mississippi
    expect(locationOf('Cash Handling, Call Center, Telemarketing, HI/Lo Driver')).toBeNull();
    expect(locationOf('Customer Service, Canada')).toBeNull();
  });

  it("reads it where the CV states its own details, not an employer's place or a place of birth", () => {
    expect(locationOf('Birth year: 1990 | City: Haifa, Israel | LinkedIn')).toEqual({ city: 'Haifa', country: 'Israel' });
    expect(locationOf('Place of Birth: Hyderabad, India')).toBeNull();
    expect(locationOf('I have worked at Gala & Company (Nairobi, Kenya), an audit firm, since 2012.')).toBeNull();
    const inHistory = ['Jane Doe', 'Accountant', 'jane@example.com', 'Experience', 'Acme Corp, Austin, TX, 2010 - 2015'].join('\n');
    expect(understandCv(inHistory).contact?.location).toBeNull();
  });
});

describe('profile.location: the stated place, geocoded', () => {
  const understand = (line: string) =>
    understandCv(['Jane Doe', 'Accountant', 'jane@example.com', line, 'Summary', 'Accountant who keeps the general ledger.'].join('\n'));
  const placeOf = (line: string) => understand(line).profile?.location ?? null;

  it('resolves the city with its region, which the contact leaves out', () => {
    const austin = understand('Austin, TX 78701');
    expect(austin.contact?.location).toEqual({ city: 'Austin', country: 'United States' });
    expect(austin.profile?.location).toEqual(resolvePlace('Austin, TX'));
    expect(austin.profile?.location).toMatchObject({ kind: 'city', city: 'Austin', region: 'Texas', regionCode: 'TX', countryCode: 'US' });
    expect(placeOf('Austin, MN')).toMatchObject({ city: 'Austin', regionCode: 'MN' });
    expect(placeOf('New York, NY 10001')).toMatchObject({ kind: 'city', city: 'New York City', regionCode: 'NY' });
    expect(placeOf('Washington, DC')).toMatchObject({ kind: 'city', regionCode: 'DC' });
    expect(placeOf('Toronto, Canada')).toMatchObject({ kind: 'city', city: 'Toronto', regionCode: 'ON', countryCode: 'CA' });
    expect(placeOf('Birth year: 1990 | City: Haifa, Israel | LinkedIn')).toMatchObject({ kind: 'city', city: 'Haifa', countryCode: 'IL' });
    expect(placeOf('London, UK')).toMatchObject({ kind: 'city', city: 'London', countryCode: 'GB' });
  });

  it('keeps the state or country the CV names when the gazetteer does not list the city', () => {
    expect(placeOf('Kiriat Yam, Israel')).toMatchObject({ kind: 'country', city: null, countryCode: 'IL' });
    expect(placeOf('Smallville, TX')).toMatchObject({ kind: 'region', city: null, regionCode: 'TX', countryCode: 'US' });
  });

  it('is null when the CV states no place, or one that is not its own', () => {
    expect(placeOf('Karnataka, India')).toBeNull();
    expect(placeOf('Place of Birth: Hyderabad, India')).toBeNull();
    const inHistory = ['Jane Doe', 'Accountant', 'jane@example.com', 'Experience', 'Acme Corp, Austin, TX, 2010 - 2015'].join('\n');
    expect(understandCv(inHistory).profile?.location ?? null).toBeNull();
  });

  it('makes a profile of a CV that states only a place', () => {
    const cv = understandCv('Jane Doe\njane@example.com\nAustin, TX');
    expect(cv.profile).toEqual({
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
      location: resolvePlace('Austin, TX'),
    });
  });

  it("stores the gazetteer's places under the profile's strict schema", () => {
    for (const text of ['Austin, TX', 'Texas', 'United States', 'Bangalore, Karnataka, India'])
      expect(GeoPlace.parse(resolvePlace(text))).toEqual(resolvePlace(text));
  });
});

describe('profile.specialization: a job title, never a name', () => {
  it('skips the name a text CV opens with and takes the title after it', () => {
    const text = [
      'John Smith',
      'Software Engineer',
      'john.smith@example.com | +1 (415) 555-0134',
      'Summary',
      'Software engineer who builds Java and React applications.',
    ].join('\n');
    const cv = understandCv(text);
    expect(cv.contact).toMatchObject({ firstName: 'John', lastName: 'Smith' });
    expect(cv.profile?.specialization).toBe('Software Engineer');
  });

  it('leaves it null when the name is followed by no title, with or without contact details', () => {
    const body = [
      'Summary',
      'Accountant who keeps the general ledger, reconciliations and accounts payable.',
      'Experience',
      'Acme, 2010 - 2015',
    ].join('\n');
    expect(understandCv(`Karla Lee\n${body}`).profile).toMatchObject({ domain: 'Accounting and finance', specialization: null });
    expect(understandCv(`Karla Lee\nkarla@example.com\n${body}`).profile).toMatchObject({
      domain: 'Accounting and finance',
      specialization: null,
    });
  });

  it('skips a headline that is where the candidate lives', () => {
    const body = ['Software engineer who builds Java and React applications for banks.', 'Skills', 'Java, React, SQL'].join('\n');
    expect(understandCv(`Rehovot, Israel\nSenior Software Engineer\n${body}`).profile?.specialization).toBe('Senior Software Engineer');
    expect(understandCv(`Austin, TX 78701\n${body}`).profile?.specialization).toBeNull();
  });

  it('leaves it null when the first line is a list or a heading rather than a title', () => {
    const text = [
      'TECHNICAL SKILLS • Tally • SPSS Education Details',
      'B.Com from Mumbai University',
      'Accountant keeping the general ledger and reconciliations; audit and tax.',
    ].join('\n');
    expect(understandCv(text).profile?.specialization).toBeNull();
  });
});

describe('dates and sections', () => {
  it('finds employment ranges in the usual spellings and counts overlaps once', () => {
    const ranges = findDateRanges('10/2012 to 11/2015; Jan 2014 - Mar 2016; 2017 – present; 2020-2018', new Date('2019-06-15'));
    expect(ranges).toHaveLength(3); // 2020-2018 runs backwards
    expect(yearsCovered(ranges)).toBe(6); // 10/2012..03/2016 and 01/2017..06/2019: 42 + 30 months
  });

  it('reads "Education and Courses" as education, whose dates are no employment', () => {
    expect(splitSections('Developer\nEDUCATION AND COURSES\n2010 - 2014: Bachelor').map((s) => s.kind)).toEqual(['other', 'education']);
    const cv = understandCv(
      'Developer\nExperience\n2019 - 2021: Developer, Acme\nEducation & Courses\n2010 - 2014: Bachelor',
      new Date('2021-12-31'),
    );
    expect(cv.profile?.experienceYears).toBe(2);
  });

  it('reads an end known only by its year (a bare year, or January) as the year, and months in full otherwise', () => {
    const years = (text: string, asOf = '2019-06-30') => yearsCovered(findDateRanges(text, new Date(asOf)));
    expect(years('2006 - 2012')).toBe(6);
    expect(years('January 2006 - January 2012')).toBe(6);
    expect(years('01/2006 to 01/2012')).toBe(6);
    expect(years('Jan 2014 - Mar 2014')).toBe(0.3); // three months
    expect(years('March 2010 - 2011')).toBe(0.8); // March to December
    expect(years('2000 - 2005; 2005 - 2009')).toBe(9); // one job after another, counted once
    expect(years('2014 - 2014')).toBe(0.1); // within one year: its first month
  });

  it('reads "till date", a month joined to its year and a year after an apostrophe', () => {
    const asOf = new Date('2019-01-31');
    expect(yearsCovered(findDateRanges('Duration: Feb 2017 to Till Date', asOf))).toBe(2);
    expect(yearsCovered(findDateRanges("From Aug '17 till date", asOf))).toBe(1.5);
    expect(yearsCovered(findDateRanges('Jan-2015 to Dec-2016', asOf))).toBe(2);
    expect(findDateRanges("Aug 17, 2015 and '98", asOf)).toEqual([]); // a day, not a year
  });

  it('splits at a "… Details" heading glued to the end of the line before it', () => {
    const text = 'Hard and ethical worker.Education Details \nJanuary 2013 to January 2016 B.E. Nagpur University\nTesting engineer';
    expect(splitSections(text).map((s) => [s.kind, s.heading])).toEqual([
      ['other', ''],
      ['education', 'Education Details'],
    ]);
    expect(splitSections('Updated the company details\nAcme').map((s) => s.kind)).toEqual(['other']);
  });

  it('splits at headings of any case, with or without a colon', () => {
    const sections = splitSections('ACCOUNTANT\nSUMMARY:\nDoes books.\nWork History\nAcme 2010-2012\nskills\nExcel');
    expect(sections.map((s) => [s.kind, s.body])).toEqual([
      ['other', 'ACCOUNTANT'],
      ['summary', 'Does books.'],
      ['experience', 'Acme 2010-2012'],
      ['skills', 'Excel'],
    ]);
  });
});
