import { resolveParts, type Place } from '@cs/gazetteer';
import { SKILLS, SKILL_SYNONYMS, analyze, bigrams, headline, termsOf } from '@cs/text-analysis';
import { looksLikeName, looksLikePlace, readContact, seniorityOf, type StatedPlace } from './contact';
import { findDateRanges, yearsCovered, type DateRange } from './dates';
import { degreeOf } from './degree';
import { languagesOf } from './languages';
import { DOMAINS, INDUSTRIES } from './lexicons';
import { splitSections, type Section } from './sections';
import type { ContactInfo, ProfileInfo } from './types';

/**
 * Raised whenever `understandCv` reads something new or reads it differently: CVs stored by an
 * older version are read again from their stored text (the ingestion's profile refresh), so
 * filters and profiles agree across the archive.
 */
export const UNDERSTANDING_VERSION = 2;

export interface CvUnderstanding {
  /** Extractive: the CV's own summary sentences, or null. */
  summary: string | null;
  contact: ContactInfo | null;
  profile: ProfileInfo | null;
}

const SUMMARY_CHARS = 400;
const STACK_SIZE = 15;
const RECENT_SIZE = 8;

/** A phrase as the keys it is counted by: its one term, or its word pairs. */
const phraseKeys = (phrase: string): string[] => {
  const terms = analyze(phrase).map((t) => t.term);
  return terms.length === 1 ? terms : bigrams(terms);
};
const KEYS = new Map<string, string[]>(
  [...SKILLS, ...Object.values(DOMAINS).flat(), ...Object.values(INDUSTRIES).flat()].map((p) => [p, phraseKeys(p)]),
);

/** Skills whose name is also another word in lower case ("rest", "oracle"): counted only where written with their capitals. */
export const CAPITALISED_SKILLS: readonly string[] = ['REST', 'POS', 'Git', 'Oracle'];
/**
 * Skills that are also everyday words or letters ("Go", "Spring", "R", "Excel" the verb), even
 * when capitalised: counted only where the context makes them a skill (see `readsAsSkill`).
 */
export const EVERYDAY_SKILLS: readonly string[] = [
  'Go',
  'Access',
  'Word',
  'Spring',
  'Epic',
  'Lean',
  'R',
  'Swift',
  'Rust',
  'Sage',
  'Excel',
  'Outlook',
  'Spark',
];
const WRITTEN = new Map(
  [...CAPITALISED_SKILLS, ...EVERYDAY_SKILLS].map((name) => [name, new RegExp(`(?<![\\w.])${name}(?![\\w+#])`, 'g')]),
);
const AMBIGUOUS = new Map(EVERYDAY_SKILLS.map((name) => [name, WRITTEN.get(name)!]));
/** The first words of the lexicon's skills, lower-cased: a capitalised word after an ambiguous skill may continue it ("Lean Six Sigma"). */
const SKILL_STARTS = new Set(SKILLS.map((s) => s.split(/\s+/)[0].toLowerCase()));
/** Nouns that follow a product's name ("Oracle Database", "POS System"), not a proper name's second word. */
const PRODUCT_NOUNS = new Set([
  'system',
  'systems',
  'database',
  'databases',
  'framework',
  'server',
  'programming',
  'language',
  'development',
  'spreadsheets',
  'spreadsheet',
  'reports',
  'macros',
  'formulas',
  'manufacturing',
  'principles',
  'methodology',
  'methodologies',
  'practices',
  'techniques',
  'certification',
  'certified',
  'training',
  'tools',
]);
/** Vendors whose name before an ambiguous skill makes it the product ("Microsoft Word 2010", "MS-Access"). */
const VENDOR = /\b(?:Microsoft|MS|Apache|Adobe|Oracle|Sage)[\s-]*$/i;
/** How far either side of a mention, within its line, other skills make it a skill. */
const CONTEXT_CHARS = 120;

/**
 * How a one-word skill named for a thing is written (its name, plural, or a variant of the skills
 * vocabulary): stemming makes "Revitalized" `revit`, the term of Revit, so such a skill's term
 * counts only when one of its names is written in the text. Skills named for an activity
 * (Budgeting, Recruiting) are shown by any form of the word ("recruited staff").
 */
const SKILL_NAMES = new Map(
  SKILLS.filter((s) => (KEYS.get(s) ?? []).length === 1 && !s.includes(' ') && !s.endsWith('ing')).map((s) => {
    const term = KEYS.get(s)![0];
    const names = [s, ...(SKILL_SYNONYMS[term] ?? SKILL_SYNONYMS[s.toLowerCase()] ?? [])].map((n) =>
      n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'),
    );
    return [s, new RegExp(`(?<![\\p{L}\\p{N}])(?:${[...new Set(names)].join('|')})s?(?![\\p{L}\\p{N}])`, 'iu')] as const;
  }),
);
/**
 * Domain keywords that stemming would merge with other words are counted as written (and their
 * plural): "accountant" is `account` to the index, which counts a salesman's "accounts" too.
 */
const AS_WRITTEN = new Map(
  Object.values(DOMAINS)
    .flat()
    .filter((k) => !k.includes(' ') && (KEYS.get(k) ?? [k])[0] !== k.toLowerCase())
    .map((k) => [k, new RegExp(`\\b${k}s?\\b`, 'gi')]),
);
/** A text's analysed words and word pairs, for finding lexicon entries in it. */
class TermBag {
  private readonly counts = new Map<string, number>();

  /** `skillSpans`: offsets of the text's skills sections, where a skill's name is read as one. */
  constructor(
    private readonly text: string,
    private readonly skillSpans: readonly (readonly [number, number])[] = [],
  ) {
    const terms = termsOf(text);
    for (const key of [...terms, ...bigrams(terms)]) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** How often the phrase occurs (its rarest word pair, for several words). */
  count(phrase: string): number {
    const written = WRITTEN.get(phrase);
    if (written)
      return [...this.text.matchAll(written)].filter((m) => !AMBIGUOUS.has(phrase) || this.readsAsSkill(m.index, phrase.length)).length;
    const surface = AS_WRITTEN.get(phrase);
    if (surface) return this.text.match(surface)?.length ?? 0;
    const keys = KEYS.get(phrase) ?? phraseKeys(phrase);
    if (keys.length === 0) return 0;
    const count = Math.min(...keys.map((k) => this.counts.get(k) ?? 0));
    const named = SKILL_NAMES.get(phrase);
    return count > 0 && named && !named.test(this.text) ? 0 : count;
  }

  /**
   * Whether an ambiguous skill's mention is the skill: written as a name of its own (see
   * `standsAsName`), and after a vendor's name ("MS Excel"), in a skills section, or beside
   * another skill on its line. Everyday uses are far more common than the skill, so a bare
   * mention is not enough.
   */
  private readsAsSkill(start: number, length: number): boolean {
    if (!standsAsName(this.text, start, length)) return false;
    if (VENDOR.test(this.text.slice(Math.max(0, start - 12), start))) return true;
    if (this.skillSpans.some(([from, to]) => start >= from && start < to)) return true;
    const end = start + length;
    const lineStart = Math.max(this.text.lastIndexOf('\n', start) + 1, start - CONTEXT_CHARS);
    const lineEnd = this.text.indexOf('\n', end);
    return hasOtherSkill(
      `${this.text.slice(lineStart, start)}\n${this.text.slice(end, Math.min(lineEnd < 0 ? this.text.length : lineEnd, end + CONTEXT_CHARS))}`,
    );
  }
}

/**
 * Whether an ambiguous skill's name at `start` is written as the name, not as part of something
 * else: an abbreviation ("A/R", "R&D", "SAP R/3", "R.N."), a compound ("Go-live"), a date
 * ("Spring 2005", though "Microsoft Word 2010" is a version) or a proper name ("Go Math",
 * "Spring Valley"; a skill or a product noun may follow: "Lean Six Sigma", "Oracle Database").
 */
function standsAsName(text: string, start: number, length: number): boolean {
  const end = start + length;
  const before = text.slice(Math.max(0, start - 40), start);
  const after = text.slice(end, end + 40);
  if (/(?:^|[^\p{L}])\p{L}\s*[/&]\s*$/u.test(before) || /^\s*[/&]\s*[\p{L}\d](?![\p{L}\d])/u.test(after)) return false;
  // A vendor's name says it is the product, whatever follows ("MS-Word", "Microsoft Word 2010").
  if (VENDOR.test(before)) return true;
  if (/^-\p{L}/u.test(after) || /\p{L}-$/u.test(before)) return false;
  // A one-letter name joined to anything is an initial or an abbreviation.
  if (length === 1 && (/[/&.-]\s*$/.test(before) || /^\s*[/&.-]/.test(after))) return false;
  if (/^\s*'?\d{2,4}\b/.test(after)) return false;
  const next = /^ ([A-Z][a-z]+)/.exec(after)?.[1].toLowerCase();
  return !next || SKILL_STARTS.has(next) || PRODUCT_NOUNS.has(next);
}

/** Whether a passage names a skill of the lexicon: one that is no everyday word, or an ambiguous one written as its name. */
function hasOtherSkill(passage: string): boolean {
  // Not `termsOf`: its few remembered texts are the CVs' own, which indexing reads again.
  const terms = analyze(passage).map((t) => t.term);
  const keys = new Set([...terms, ...bigrams(terms)]);
  if (UNAMBIGUOUS_KEYS.some((ks) => ks.every((k) => keys.has(k)))) return true;
  return [...AMBIGUOUS].some(([name, pattern]) => [...passage.matchAll(pattern)].some((m) => standsAsName(passage, m.index, name.length)));
}

const LEXICON_TERMS = new Map(SKILLS.map((s) => [s, (KEYS.get(s) ?? []).join('|')]));
const UNAMBIGUOUS_KEYS = SKILLS.filter((s) => !AMBIGUOUS.has(s))
  .map((s) => KEYS.get(s) ?? [])
  .filter((ks) => ks.length > 0);

/**
 * Each skill's names as a CV may write them: its own and the skills vocabulary's synonyms of it
 * ("SQL Server" is also "MSSQL", "Microsoft SQL Server"), as words, a plural too, in any case.
 */
const WRITTEN_NAMES = new Map(
  SKILLS.map((skill) => {
    const own = skill.toLowerCase();
    const names = new Set([own]);
    for (const [canonical, variants] of Object.entries(SKILL_SYNONYMS))
      if (canonical === own || variants.includes(own)) [canonical, ...variants].forEach((n) => names.add(n));
    const alternatives = [...names].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+'));
    return [skill, new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?:s|es)?(?![\\p{L}\\p{N}])`, 'iu')] as const;
  }),
);

/** Lexicon entries found in the text, most mentioned first; one entry per analysed form. */
function skillsIn(bag: TermBag, limit: number): string[] {
  const seen = new Set<string>();
  return SKILLS.map((skill, order) => ({ skill, order, count: bag.count(skill) }))
    .filter((s) => s.count > 0)
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .filter((s) => {
      const key = LEXICON_TERMS.get(s.skill)!;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, limit)
    .map((s) => s.skill);
}

/** The first sentences of a passage, whole, up to about `SUMMARY_CHARS`. */
function firstSentences(passage: string): string | null {
  const flat = passage
    .replace(/\s*\n\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.split(' ').length < 6) return null;
  if (flat.length <= SUMMARY_CHARS) return flat;
  const cut = flat.slice(0, SUMMARY_CHARS);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '));
  return end > 80 ? cut.slice(0, end + 1) : `${cut.slice(0, cut.lastIndexOf(' '))}…`;
}

function summaryOf(sections: Section[]): string | null {
  const summary = sections.find((s) => s.kind === 'summary');
  if (summary) return firstSentences(summary.body);
  // No summary section: a prose paragraph in the header (after the name and headline), if any.
  const header = sections.find((s) => s.kind === 'other' && s.start === 0);
  const prose = header?.body.split(/\n\s*\n|\n/).find((p) => p.split(/\s+/).length >= 12 && /[.!?]$/.test(p.trim()));
  return prose ? firstSentences(prose) : null;
}

/** Words that make a line a heading or a list rather than a job title ("TECHNICAL SKILLS • SPSS"). */
const NOT_TITLE = /[•*·▪■●:@|]|https?:|www\.|\b(?:skills?|details|qualifications?|objective|summary|resume|curriculum vitae|references)\b/i;

/** Whether a line can be a job title: short, not a sentence, a list, a heading or contact details. */
export function looksLikeTitle(line: string): boolean {
  const words = line.split(/\s+/).filter(Boolean);
  return (
    words.length > 0 &&
    words.length <= 12 &&
    line.length <= 100 &&
    !/[.!?]$/.test(line) &&
    !NOT_TITLE.test(line) &&
    !/\d[\d\s().-]{6,}\d/.test(line)
  );
}

/**
 * The role the CV states in its header: its headline (the first line), unless that is the
 * candidate's name or where they live, as text CVs often open; then the next line, when it is a
 * title and not itself a name. Null when neither is a title.
 */
function roleOf(headline: string, headerLines: readonly string[]): string | null {
  const title = headline.replace(/\s+/g, ' ').trim();
  if (!title) return null;
  if (!looksLikeName(title) && !looksLikePlace(title)) return looksLikeTitle(title) ? title : null;
  const lines = headerLines.map((l) => l.replace(/\s+/g, ' ').trim()).filter((l) => /\p{L}.*\p{L}/u.test(l));
  const next = lines[lines.indexOf(title) + 1];
  return next && looksLikeTitle(next) && !looksLikeName(next) && !looksLikePlace(next) ? next : null;
}

/**
 * Each domain's keywords, less the phrases that analysis shortens to one word: "IT manager" loses
 * its stop word "it" and would count every "manager".
 */
const DOMAIN_KEYWORDS = Object.entries(DOMAINS).map(
  ([domain, keywords]) => [domain, keywords.filter((k) => !k.includes(' ') || analyze(k).length === k.split(' ').length)] as const,
);

function domainOf(title: string, bag: TermBag): string | null {
  const titleBag = new TermBag(title);
  let best: { domain: string; score: number } | null = null;
  for (const [domain, keywords] of DOMAIN_KEYWORDS) {
    const score = keywords.reduce((s, k) => s + 3 * Math.min(1, titleBag.count(k)) + Math.min(3, bag.count(k)), 0);
    if (!best || score > best.score) best = { domain, score };
  }
  return best && best.score >= 4 ? best.domain : null;
}

function industriesOf(bag: TermBag): string[] {
  return Object.entries(INDUSTRIES)
    .map(([industry, words]) => ({ industry, count: words.reduce((s, w) => s + bag.count(w), 0) }))
    .filter((i) => i.count >= 2)
    .sort((a, b) => b.count - a.count)
    .slice(0, 3)
    .map((i) => i.industry);
}

const MANAGES_PEOPLE =
  /\b(managed|manage|managing|supervised|supervise|supervising|led|lead|leading|oversaw|oversee|directed|mentored|coached|hired)\b[^.\n]{0,60}?\b(team|teams|staff|employees|people|engineers|developers|associates|crew|department|reports|members|personnel|workers|\d+ )/i;

/** The job whose dates end last: its line (for the title) and its text up to the next job. */
function mostRecentJob(text: string, ranges: DateRange[]): { titleLine: string; body: string } | null {
  if (ranges.length === 0) return null;
  const byOffset = [...ranges].sort((a, b) => a.offset - b.offset);
  const latest = [...ranges].sort((a, b) => b.end - a.end || b.start - a.start)[0];
  const next = byOffset.find((r) => r.offset > latest.offset);
  const lineStart = text.lastIndexOf('\n', latest.offset) + 1;
  const lineEnd = text.indexOf('\n', latest.offset);
  return {
    titleLine: text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd),
    body: text.slice(lineStart, next ? next.offset : Math.min(text.length, lineStart + 3000)),
  };
}

/**
 * The stated place as the gazetteer knows it: the city, or, for a city it does not list (under
 * 1,000 people), the state or country the CV names beside it; null when it knows neither.
 */
function geocode(place: StatedPlace): Place | null {
  return resolveParts(place) ?? resolveParts({ region: place.region, country: place.country });
}

/**
 * Reads a CV's text for its summary, contact details and profile. Everything is taken from the
 * text (curated lexicons say what counts as a skill or an industry); what the text does not say
 * stays null or empty, never guessed from elsewhere.
 */
export function understandCv(text: string, asOf: Date = new Date()): CvUnderstanding {
  // "Present" means the day the CV was written, which is `asOf` (the document's date).
  if (!text.trim()) return { summary: null, contact: null, profile: null };
  const sections = splitSections(text);
  const header = sections.find((s) => s.start === 0 && s.kind === 'other')?.body ?? '';
  const headerLines = header.split('\n').slice(0, 6);
  // The role line is in the header; a CV that opens with a section heading states none there.
  const title = roleOf(headline(header), headerLines) ?? '';
  const skillSpans = sections.filter((s) => s.kind === 'skills').map((s) => [s.start, s.end] as const);
  const bag = new TermBag(text, skillSpans);

  const experience = sections.filter((s) => s.kind === 'experience');
  const datedText = experience.length
    ? experience.map((s) => s.body).join('\n')
    : sections
        .filter((s) => s.kind !== 'education')
        .map((s) => s.body)
        .join('\n');
  const ranges = findDateRanges(datedText, asOf);
  const experienceYears = ranges.length ? yearsCovered(ranges) : null;
  const recent = mostRecentJob(datedText, ranges);

  const seniority = seniorityOf(title) ?? (recent ? seniorityOf(recent.titleLine) : null);
  const seniorityLevel =
    seniority ?? (experienceYears === null ? null : experienceYears >= 8 ? 'senior' : experienceYears >= 3 ? 'mid' : 'junior');
  const domain = domainOf(title, bag);
  const hasWork = experience.length > 0 || ranges.length > 0;
  const managesByTitle = ['executive', 'director', 'manager'].includes(seniority ?? '');

  // A contact section's first lines: livecareer's "Personal Information" goes on in prose. The
  // header ends where dates begin, when a work history follows it under no heading we know.
  const dated = /\b(?:0?[1-9]|1[0-2])[/.](?:19|20)\d{2}\b|\b(?:19|20)\d{2}\s*(?:-|–|—|to)\s*(?:(?:19|20)\d{2}|present|current|now)\b/i.exec(
    header,
  );
  const ownHeader = dated ? header.slice(0, header.lastIndexOf('\n', dated.index) + 1) : header;
  const contactText = [
    ownHeader,
    ...sections.filter((s) => s.kind === 'contact').map((s) => s.body.split('\n').slice(0, 4).join('\n')),
  ].join('\n');
  const { contact, place } = readContact(text, headerLines, contactText);

  const profile: ProfileInfo = {
    domain,
    specialization: title && domain ? title : null,
    seniorityLevel,
    experienceYears,
    technicalStack: skillsIn(bag, STACK_SIZE),
    // A filter's answer must be checkable in the text: a skill read only from another form of its
    // word ("budgets" for Budgeting, "recruited" for Recruiting) ranks in the stack but is not listed.
    skills: skillsIn(bag, SKILLS.length).filter((skill) => WRITTEN_NAMES.get(skill)!.test(text)),
    degree: degreeOf(text, sections, asOf),
    languages: languagesOf(text, sections),
    industries: industriesOf(bag),
    recentExpertise: recent ? skillsIn(new TermBag(recent.body), RECENT_SIZE) : [],
    hasManagement: managesByTitle || MANAGES_PEOPLE.test(text) ? true : hasWork ? false : null,
    location: place && geocode(place),
  };
  const known = Object.values(profile).some((v) => (Array.isArray(v) ? v.length > 0 : v !== null));
  return { summary: summaryOf(sections), contact, profile: known ? profile : null };
}
