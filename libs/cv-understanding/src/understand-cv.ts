import { SKILLS, analyze, bigrams, headline, termsOf } from '@cs/text-analysis';
import { extractContact, seniorityOf } from './contact';
import { findDateRanges, yearsCovered, type DateRange } from './dates';
import { DOMAINS, INDUSTRIES } from './lexicons';
import { splitSections, type Section } from './sections';
import type { ContactInfo, ProfileInfo } from './types';

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

/**
 * Skills that are also everyday words ("Go", "REST", "Excel" the verb): counted only where
 * written with their capitals.
 */
const CASE_SENSITIVE = new Map(
  ['Go', 'REST', 'Access', 'Word', 'Spring', 'Epic', 'Lean', 'R', 'Swift', 'Rust', 'Sage', 'Excel', 'Outlook', 'Spark', 'POS', 'Git', 'Oracle'].map(
    (name) => [name, new RegExp(`(?<![\\w.])${name}(?![\\w+#])`, 'g')],
  ),
);

/** A text's analysed words and word pairs, for finding lexicon entries in it. */
class TermBag {
  private readonly counts = new Map<string, number>();

  constructor(private readonly text: string) {
    const terms = termsOf(text);
    for (const key of [...terms, ...bigrams(terms)]) this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** How often the phrase occurs (its rarest word pair, for several words). */
  count(phrase: string): number {
    const written = CASE_SENSITIVE.get(phrase);
    if (written) return this.text.match(written)?.length ?? 0;
    const keys = KEYS.get(phrase) ?? phraseKeys(phrase);
    if (keys.length === 0) return 0;
    return Math.min(...keys.map((k) => this.counts.get(k) ?? 0));
  }
}

const LEXICON_TERMS = new Map(SKILLS.map((s) => [s, (KEYS.get(s) ?? []).join('|')]));

/** Lexicon entries found in the text, most mentioned first; one entry per analysed form. */
function skillsIn(bag: TermBag, limit: number): string[] {
  const seen = new Set<string>();
  return SKILLS.map((skill, order) => ({ skill, order, count: bag.count(skill) }))
    .filter((s) => s.count > 0)
    .sort((a, b) => b.count - a.count || a.order - b.order)
    .filter((s) => {
      const key = LEXICON_TERMS.get(s.skill) as string;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, limit)
    .map((s) => s.skill);
}

/** The first sentences of a passage, whole, up to about `SUMMARY_CHARS`. */
function firstSentences(passage: string): string | null {
  const flat = passage.replace(/\s*\n\s*/g, ' ').replace(/\s+/g, ' ').trim();
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

function domainOf(title: string, bag: TermBag): string | null {
  const titleBag = new TermBag(title);
  let best: { domain: string; score: number } | null = null;
  for (const [domain, keywords] of Object.entries(DOMAINS)) {
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

const MANAGES_PEOPLE = /\b(managed|manage|managing|supervised|supervise|supervising|led|lead|leading|oversaw|oversee|directed|mentored|coached|hired)\b[^.\n]{0,60}?\b(team|teams|staff|employees|people|engineers|developers|associates|crew|department|reports|members|personnel|workers|\d+ )/i;

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
  const title = headline(header);
  const bag = new TermBag(text);

  const experience = sections.filter((s) => s.kind === 'experience');
  const datedText = experience.length ? experience.map((s) => s.body).join('\n') : sections.filter((s) => s.kind !== 'education').map((s) => s.body).join('\n');
  const ranges = findDateRanges(datedText, asOf);
  const experienceYears = ranges.length ? yearsCovered(ranges) : null;
  const recent = mostRecentJob(datedText, ranges);

  const seniority = seniorityOf(title) ?? (recent ? seniorityOf(recent.titleLine) : null);
  const seniorityLevel = seniority ?? (experienceYears === null ? null : experienceYears >= 8 ? 'senior' : experienceYears >= 3 ? 'mid' : 'junior');
  const domain = domainOf(title, bag);
  const hasWork = experience.length > 0 || ranges.length > 0;
  const managesByTitle = ['executive', 'director', 'manager'].includes(seniority ?? '');

  const profile: ProfileInfo = {
    domain,
    specialization: title && domain ? title.replace(/\s+/g, ' ') : null,
    seniorityLevel,
    experienceYears,
    technicalStack: skillsIn(bag, STACK_SIZE),
    industries: industriesOf(bag),
    recentExpertise: recent ? skillsIn(new TermBag(recent.body), RECENT_SIZE) : [],
    hasManagement: managesByTitle || MANAGES_PEOPLE.test(text) ? true : hasWork ? false : null,
  };
  const known = Object.values(profile).some((v) => (Array.isArray(v) ? v.length > 0 : v !== null));
  return { summary: summaryOf(sections), contact: extractContact(text, headerLines), profile: known ? profile : null };
}
