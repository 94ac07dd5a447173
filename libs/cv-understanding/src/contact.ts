import { DOMAINS, SENIORITY } from './lexicons';
import type { ContactInfo } from './types';

const EMAIL = /[A-Z0-9._%+-]+@[A-Z0-9-]+(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}/i;
const LINKEDIN = /(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/([A-Za-z0-9_%-]+)/i;
const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d[\d\s.-]{6,}\d/g;
const US_STATES = new Set('AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC'.split(' '));
const COUNTRIES = new Set([
  'Argentina', 'Australia', 'Austria', 'Bangladesh', 'Belgium', 'Brazil', 'Canada', 'Chile', 'China', 'Colombia', 'Czech Republic', 'Denmark',
  'Egypt', 'Finland', 'France', 'Germany', 'Greece', 'Hungary', 'India', 'Indonesia', 'Ireland', 'Israel', 'Italy', 'Japan', 'Kenya', 'Malaysia',
  'Mexico', 'Netherlands', 'New Zealand', 'Nigeria', 'Norway', 'Pakistan', 'Philippines', 'Poland', 'Portugal', 'Romania', 'Russia',
  'Saudi Arabia', 'Singapore', 'South Africa', 'South Korea', 'Spain', 'Sweden', 'Switzerland', 'Turkey', 'Ukraine', 'United Arab Emirates',
  'UAE', 'United Kingdom', 'UK', 'United States', 'USA', 'Vietnam',
]);
/** Words that make a line a job title or a heading rather than a person's name. */
const NOT_NAME_WORDS = new Set([
  ...Object.values(DOMAINS).flat().flatMap((k) => k.split(' ')),
  ...['accountant', 'manager', 'engineer', 'developer', 'teacher', 'chef', 'nurse', 'analyst', 'specialist', 'assistant', 'associate',
    'director', 'consultant', 'administrator', 'technician', 'officer', 'clerk', 'representative', 'coordinator', 'designer', 'advocate',
    'agent', 'executive', 'intern', 'resume', 'curriculum', 'vitae', 'summary', 'profile', 'senior', 'junior', 'lead', 'staff', 'head',
    'supervisor', 'instructor', 'professor', 'worker', 'operator', 'driver', 'owner', 'president', 'member', 'volunteer', 'company', 'name',
    'city', 'state', 'contact', 'phone', 'email', 'address', 'objective', 'experience', 'skills', 'skill', 'education', 'professional',
    'career', 'details', 'personal', 'position', 'applying', 'application', 'information', 'work', 'history', 'employment', 'languages', 'projects', 'references'],
]);
const NAME_WORD = /^(?:[A-Z][a-z]+(?:['’-][A-Z]?[a-z]+)?|[A-Z]{2,}(?:['’-][A-Z]+)?)$/;

const titleCase = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/** The candidate's name, from a line of two to four capitalised words that name no role. */
function findName(headerLines: string[]): { firstName: string; lastName: string } | null {
  for (const line of headerLines) {
    const words = line.replace(/^(name|candidate)\s*[:：]\s*/i, '').trim().split(/\s+/);
    if (words.length < 2 || words.length > 4) continue;
    if (!words.every((w) => NAME_WORD.test(w) && !NOT_NAME_WORDS.has(w.toLowerCase()))) continue;
    return { firstName: titleCase(words[0]), lastName: titleCase(words[words.length - 1]) };
  }
  return null;
}

function findPhone(text: string): string | null {
  for (const m of text.matchAll(PHONE)) {
    const digits = m[0].replace(/\D/g, '');
    // Ten to fifteen digits, not a date range such as 2012-2015 or 01/2019 - 03/2021.
    if (digits.length < 10 || digits.length > 15 || /\b(19|20)\d{2}\s*[-–]\s*(19|20)\d{2}\b/.test(m[0])) continue;
    return m[0].trim();
  }
  return null;
}

function findLocation(header: string): { city: string | null; country: string | null } | null {
  for (const m of header.matchAll(/([A-Z][A-Za-z.'-]+(?: [A-Z][A-Za-z.'-]+){0,2})\s*,\s*([A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+){0,2}|[A-Z]{2})\b/g)) {
    const [, city, region] = m;
    if (city === 'City' || region === 'State') continue; // anonymised placeholders
    if (US_STATES.has(region)) return { city, country: 'United States' };
    if (COUNTRIES.has(region)) return { city, country: region };
  }
  return null;
}

/** Contact details from the CV's text; null when it holds none of them. */
export function extractContact(text: string, headerLines: string[]): ContactInfo | null {
  const header = text.slice(0, 1500);
  const email = EMAIL.exec(text)?.[0] ?? null;
  const linkedinId = LINKEDIN.exec(text)?.[1];
  // A name is read only from the first two lines, and only when contact details follow within the
  // first six: otherwise the opening lines are far more often a job title in capitals ("LINE
  // ATTENDANT") than a person.
  const top = headerLines.slice(0, 6).join('\n');
  const name = EMAIL.test(top) || LINKEDIN.test(top) || findPhone(top) ? findName(headerLines.slice(0, 2)) : null;
  const contact: ContactInfo = {
    firstName: name?.firstName ?? null,
    lastName: name?.lastName ?? null,
    email,
    phone: findPhone(header),
    linkedin: linkedinId ? `https://www.linkedin.com/in/${linkedinId}` : null,
    location: findLocation(header),
  };
  return Object.values(contact).some((v) => v !== null) ? contact : null;
}

/** The seniority a job title states, if it states one. */
export function seniorityOf(title: string): string | null {
  return SENIORITY.find(([, pattern]) => pattern.test(title))?.[0] ?? null;
}
