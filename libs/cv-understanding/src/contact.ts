import { SKILLS } from '@cs/text-analysis';
import { DOMAINS, SENIORITY } from './lexicons';
import type { ContactInfo } from './types';

const EMAIL = /[A-Z0-9._%+-]+@[A-Z0-9-]+(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}/i;
const LINKEDIN = /(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/in\/([A-Za-z0-9_%-]+)/i;
const PHONE = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d[\d\s.-]{6,}\d/g;
const US_STATES = new Set(
  'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC'.split(
    ' ',
  ),
);
const COUNTRIES = new Set([
  'Argentina',
  'Australia',
  'Austria',
  'Bangladesh',
  'Belgium',
  'Brazil',
  'Canada',
  'Chile',
  'China',
  'Colombia',
  'Czech Republic',
  'Denmark',
  'Egypt',
  'Finland',
  'France',
  'Germany',
  'Greece',
  'Hungary',
  'India',
  'Indonesia',
  'Ireland',
  'Israel',
  'Italy',
  'Japan',
  'Kenya',
  'Malaysia',
  'Mexico',
  'Netherlands',
  'New Zealand',
  'Nigeria',
  'Norway',
  'Pakistan',
  'Philippines',
  'Poland',
  'Portugal',
  'Romania',
  'Russia',
  'Saudi Arabia',
  'Singapore',
  'South Africa',
  'South Korea',
  'Spain',
  'Sweden',
  'Switzerland',
  'Turkey',
  'Ukraine',
  'United Arab Emirates',
  'UAE',
  'United Kingdom',
  'UK',
  'United States',
  'USA',
  'Vietnam',
  'Afghanistan',
  'Algeria',
  'Bahrain',
  'Bolivia',
  'Bulgaria',
  'Cambodia',
  'Costa Rica',
  'Croatia',
  'Cuba',
  'Cyprus',
  'Dominican Republic',
  'Ecuador',
  'Estonia',
  'Ethiopia',
  'Ghana',
  'Guatemala',
  'Haiti',
  'Honduras',
  'Hong Kong',
  'Iceland',
  'Iran',
  'Iraq',
  'Jamaica',
  'Jordan',
  'Kuwait',
  'Latvia',
  'Lebanon',
  'Lithuania',
  'Luxembourg',
  'Maldives',
  'Malta',
  'Morocco',
  'Nepal',
  'Oman',
  'Panama',
  'Peru',
  'Puerto Rico',
  'Qatar',
  'Serbia',
  'Slovakia',
  'Slovenia',
  'Sri Lanka',
  'Taiwan',
  'Tanzania',
  'Thailand',
  'Tunisia',
  'Uganda',
  'Uruguay',
  'Venezuela',
  'Zambia',
  'Zimbabwe',
]);
/** Words that make a line a job title or a heading rather than a person's name. */
const NOT_NAME_WORDS = new Set([
  ...Object.values(DOMAINS)
    .flat()
    .flatMap((k) => k.split(' ')),
  ...[
    'accountant',
    'manager',
    'engineer',
    'developer',
    'teacher',
    'chef',
    'nurse',
    'analyst',
    'specialist',
    'assistant',
    'associate',
    'director',
    'consultant',
    'administrator',
    'technician',
    'officer',
    'clerk',
    'representative',
    'coordinator',
    'designer',
    'advocate',
    'agent',
    'executive',
    'intern',
    'resume',
    'curriculum',
    'vitae',
    'summary',
    'profile',
    'senior',
    'junior',
    'lead',
    'staff',
    'head',
    'supervisor',
    'instructor',
    'professor',
    'worker',
    'operator',
    'driver',
    'owner',
    'president',
    'member',
    'volunteer',
    'company',
    'name',
    'city',
    'state',
    'contact',
    'phone',
    'email',
    'address',
    'objective',
    'experience',
    'skills',
    'skill',
    'education',
    'professional',
    'career',
    'details',
    'personal',
    'position',
    'applying',
    'application',
    'information',
    'work',
    'history',
    'employment',
    'languages',
    'projects',
    'references',
    'attendant',
    'cashier',
    'clerk',
    'storekeeper',
    'hygienist',
    'therapist',
    'inspector',
    'educator',
    'lecturer',
    'dealer',
    'photographer',
    'counselor',
    'machinist',
    'controller',
    'interviewer',
    'publicist',
    'sergeant',
    'advisor',
    'adviser',
    'aide',
    'tech',
    'salesman',
    'distributor',
    'hostess',
    'server',
    'bartender',
    'receptionist',
    'secretary',
    'principal',
    'superintendent',
    'fellow',
    'researcher',
    'scientist',
    'auditor',
    'bookkeeper',
    'baker',
    'pharmacist',
    'dentist',
    'surgeon',
    'paramedic',
    'mechanic',
    'plumber',
    'welder',
    'laborer',
    'custodian',
    'janitor',
    'housekeeper',
    'guard',
    'soldier',
    'lieutenant',
    'captain',
    'dispatcher',
    'planner',
    'buyer',
    'merchandiser',
    'stylist',
    'writer',
    'editor',
    'reporter',
    'producer',
    'journalist',
    'translator',
    'interpreter',
    'leader',
    'entrepreneur',
    'fellow',
    'programmer',
    'architect',
    'strategist',
    'generalist',
  ],
]);
/** A capitalised word of any alphabet's letters ("Müller", "Étienne", "O'Connor"), or one in capitals. */
const NAME_WORD = /^(?:\p{Lu}\p{Ll}+(?:['’-]\p{Lu}?\p{Ll}+)?|\p{Lu}{2,}(?:['’-]\p{Lu}+)?)$/u;

/** A name as written; one in capitals ("MÜLLER", "O'CONNOR") capitalised by its parts ("Müller", "O'Connor"). */
const titleCase = (word: string) =>
  word === word.toUpperCase()
    ? word.toLowerCase().replace(/(^|['’-])(\p{Ll})/gu, (_, before: string, letter: string) => before + letter.toUpperCase())
    : word;

/** Whether a line is two to four capitalised words that name no role: a person's name, or a title this cannot tell from one. */
export function looksLikeName(line: string): boolean {
  const words = line
    .replace(/^(name|candidate)\s*[:：]\s*/i, '')
    .trim()
    .split(/\s+/);
  return words.length >= 2 && words.length <= 4 && words.every((w) => NAME_WORD.test(w) && !NOT_NAME_WORDS.has(w.toLowerCase()));
}

/** The candidate's name, from a line of two to four capitalised words that name no role. */
function findName(headerLines: string[]): { firstName: string; lastName: string } | null {
  for (const line of headerLines) {
    if (!looksLikeName(line)) continue;
    const words = line
      .replace(/^(name|candidate)\s*[:：]\s*/i, '')
      .trim()
      .split(/\s+/);
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

/** Words of places larger than a city, or of what a header holds besides places. */
const NOT_CITY_WORDS = new Set([
  ...[
    'america',
    'americas',
    'europe',
    'asia',
    'africa',
    'oceania',
    'antarctica',
    'union',
    'middle',
    'midwest',
    'region',
    'county',
    'province',
    'district',
    'territory',
    'area',
    'coast',
    'republic',
    'kingdom',
    'states',
    'state',
    'city',
    'university',
    'college',
    'academy',
    'school',
    'institute',
    'hospital',
    'center',
    'centre',
    'avenue',
    'street',
    'road',
    'suite',
    'building',
    'floor',
    'pvt',
    'ltd',
    'inc',
    'llc',
    'corp',
    'group',
    'department',
    'office',
    'management',
    'medical',
    'science',
    'home',
    'knowledge',
    'email',
    'mail',
    'phone',
    'mobile',
    'address',
    'technology',
    'technologies',
    'solutions',
    'services',
    'systems',
    'international',
    'national',
    'global',
    'associates',
    'partners',
    'enterprises',
    'industries',
    'consulting',
    'agency',
    'bank',
    'church',
    'club',
    'foundation',
    'society',
    'association',
    'drive',
    'lane',
    'boulevard',
    'blvd',
    'highway',
    'parkway',
  ],
  ...NOT_NAME_WORDS,
  ...SKILLS.flatMap((s) => s.toLowerCase().split(/\s+/)),
]);
/** Places larger than a city that headers name before a country ("Karnataka, India", "California, USA"). */
const REGIONS = new Set([
  ...'Alabama Alaska Arizona Arkansas California Colorado Connecticut Delaware Florida Georgia Hawaii Idaho Illinois Indiana Iowa Kansas Kentucky Louisiana Maine Maryland Massachusetts Michigan Minnesota Mississippi Missouri Montana Nebraska Nevada Ohio Oklahoma Oregon Pennsylvania Tennessee Texas Utah Vermont Virginia Washington Wisconsin Wyoming'.split(
    ' ',
  ),
  ...[
    'New Hampshire',
    'New Jersey',
    'New Mexico',
    'New York',
    'North Carolina',
    'North Dakota',
    'Rhode Island',
    'South Carolina',
    'South Dakota',
    'West Virginia',
  ],
  ...[
    'Karnataka',
    'Maharashtra',
    'Punjab',
    'Tamil Nadu',
    'Kerala',
    'Gujarat',
    'Telangana',
    'Andhra Pradesh',
    'Uttar Pradesh',
    'West Bengal',
    'Rajasthan',
    'Sindh',
  ],
  ...[
    'Ontario',
    'Quebec',
    'British Columbia',
    'Alberta',
    'Manitoba',
    'Saskatchewan',
    'Nova Scotia',
    'England',
    'Scotland',
    'Wales',
    'Bavaria',
  ],
]);
/** A word of a place name: capitalised ("Fort Worth", "Winston-Salem", "O'Fallon"), or "St."/"Ft." and the like. */
const PLACE_WORD = /^(?:[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)*|(?:St|Ft|Mt)\.?)$/;

/**
 * Whether a text before a state or country looks like a city: capitalised words (not an
 * abbreviation such as "SQL" or "AP"), not a country, region or continent ("North America"), none
 * of them a word of a role, a skill, a heading or an organisation, and not only words the CV also
 * writes in lower case, which are common words ("Telemarketing").
 */
function looksLikeCity(city: string, region: string, text: string): boolean {
  const words = city.split(' ');
  if (!words.every((w) => PLACE_WORD.test(w) && !NOT_CITY_WORDS.has(w.toLowerCase()))) return false;
  // A state's name is a city's only before its own abbreviation ("New York, NY", "Washington, DC").
  if (COUNTRIES.has(city) || (REGIONS.has(city) && !US_STATES.has(region))) return false;
  const lower = new Set(text.match(/\b[a-z][a-z'-]+\b/g) ?? []);
  return !words.every((w) => lower.has(w.toLowerCase()));
}

/**
 * Whether a line can state where the candidate is: short and not a sentence (prose names
 * employers' and schools' places), and not a place of birth or a nationality.
 */
const ADDRESS_LINE = (line: string) =>
  line.length <= 100 &&
  line.trim().split(/\s+/).length <= 12 &&
  !/\.\s*$/.test(line) &&
  !/\b(?:birth|born|native|nationality|citizen)/i.test(line);

/** Whether a line is only a place: "Rehovot, Israel", "Austin, TX 78701". */
export function looksLikePlace(line: string): boolean {
  const m =
    /^([A-Z][\p{L}.'-]*(?: [A-Z][\p{L}.'-]*){0,3})\s*,\s*([A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+){0,2}|[A-Z]{2})(?:\s+\d{5}(?:-\d{4})?)?$/u.exec(
      line.trim(),
    );
  return m !== null && (US_STATES.has(m[2]) || COUNTRIES.has(m[2]));
}

/** A place as the CV's header states it: the city, the US state's code when it gives one ("TX"), and the country. */
export interface StatedPlace {
  city: string;
  region: string | null;
  country: string;
}

function findPlace(header: string, text: string): StatedPlace | null {
  // Contact lines are often several fields apart ("Birth year: 1990 | City: Haifa, Israel").
  const short = header
    .split(/\n|\s[|•·]\s/)
    .filter(ADDRESS_LINE)
    .join('\n');
  for (const m of short.matchAll(
    /([A-Z][A-Za-z.'-]+(?: [A-Z][A-Za-z.'-]+){0,2})\s*,\s*([A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+){0,2}|[A-Z]{2})\b(?![/&-])/g,
  )) {
    const [, city, region] = m;
    const state = US_STATES.has(region);
    const country = state ? 'United States' : COUNTRIES.has(region) ? region : null;
    if (country && looksLikeCity(city, region, text)) return { city, region: state ? region : null, country };
  }
  return null;
}

/**
 * Contact details from the CV's text, null when it holds none of them, and the place they state
 * with its region, which the contact's stored shape leaves out. `contactText` is where the CV
 * states its own details (the header before the first section, and any contact section): a
 * place named in the work history is an employer's, not where the candidate is.
 */
export function readContact(
  text: string,
  headerLines: string[],
  contactText: string = text.slice(0, 1500),
): { contact: ContactInfo | null; place: StatedPlace | null } {
  const header = text.slice(0, 1500);
  const email = EMAIL.exec(text)?.[0] ?? null;
  const linkedinId = LINKEDIN.exec(text)?.[1];
  // A name is read only from the first two lines, and only when contact details follow within the
  // first six: otherwise the opening lines are far more often a job title in capitals ("LINE
  // ATTENDANT") than a person.
  const top = headerLines.slice(0, 6).join('\n');
  const name = EMAIL.test(top) || LINKEDIN.test(top) || findPhone(top) ? findName(headerLines.slice(0, 2)) : null;
  const place = findPlace(contactText.slice(0, 1500), text);
  const contact: ContactInfo = {
    firstName: name?.firstName ?? null,
    lastName: name?.lastName ?? null,
    email,
    phone: findPhone(header),
    linkedin: linkedinId ? `https://www.linkedin.com/in/${linkedinId}` : null,
    location: place && { city: place.city, country: place.country },
  };
  return { contact: Object.values(contact).some((v) => v !== null) ? contact : null, place };
}

/** The seniority a job title states, if it states one. */
export function seniorityOf(title: string): string | null {
  return SENIORITY.find(([, pattern]) => pattern.test(title))?.[0] ?? null;
}
