import type { Section } from './sections';
import type { Degree } from './types';

type Level = Exclude<Degree, 'none'>;

/** One way of writing a degree; some are degrees only where a CV lists its education ("Masters", "High School"). */
interface DegreeWord {
  level: Level;
  pattern: RegExp;
  educationOnly?: true;
}

const RANK: Record<Level, number> = { 'high-school': 1, associate: 2, bachelor: 3, master: 4, doctorate: 5 };

/** Before a degree's abbreviation: not inside a word or another abbreviation ("M.B.A." holds no "B.A."). */
const START = '(?<![\\p{L}\\p{N}.&/])';
/** After it: not inside a word, and not joined to another abbreviation ("B.S.N." is not "B.S."). */
const END = '(?![\\p{L}\\p{N}]|\\.[\\p{L}\\p{N}])';
const word = (source: string, flags = 'gu'): RegExp => new RegExp(`${START}(?:${source})${END}`, flags);

/**
 * Abbreviations that name nothing else, with or without their dots, in any case after a capital
 * ("M.Tech", "MTECH", "B.com", "Mba"); those that are also words ("Med", "Mph") only in capitals
 * or as the degree writes them ("M.Ed", "MPH").
 */
const dotsOptional = (forms: string[]) => forms.map((f) => f.replace(/\./g, '\\.?')).join('|');
const abbreviations = (level: Level, forms: string[], wordLike: string[] = []): DegreeWord[] => [
  ...(forms.length ? [{ level, pattern: word(`(?=\\p{Lu})(?:${dotsOptional(forms)})`, 'giu') }] : []),
  ...(wordLike.length ? [{ level, pattern: word(dotsOptional(wordLike.flatMap((f) => [f, f.toUpperCase()]))) }] : []),
];

/**
 * Two-letter abbreviations that are also other things (MS Office, Boston MA, Mississippi, BA the
 * business analyst, the word AS): read only in an education section, in capitals, as a degree is
 * written ("MS : Accounting", "BS in Nursing", "MA English", "BS, 2010"), never after a comma or
 * "in" (a state) nor before a product or a ZIP code.
 */
const PRODUCT = '(?:Office|Excel|Word|Access|Outlook|PowerPoint|Project|Visio|SQL|Dynamics|Teams|Windows|DOS|Paint|Publisher|Exchange)';
const twoLetters = (level: Level, letters: string[]): DegreeWord => ({
  level,
  educationOnly: true,
  pattern: new RegExp(
    `(?<![\\p{L}\\p{N}.&/]|,\\s*|\\bin\\s+|\\b[A-Z]{2,}\\s+)(?:${letters.join('|')})(?=\\s*[:(]|[ \\t]*[,–-][ \\t]*[A-Z\\d]|[ \\t]+(?:in|of|degree)\\b|[ \\t]+(?!${PRODUCT}\\b)[A-Z][\\p{L}]+)(?![ \\t]*\\d{5})`,
    'gu',
  ),
});

const DEGREE_WORDS: readonly DegreeWord[] = [
  // Professional doctorates (MD, JD, PharmD...) are doctor's degrees; bare MD and JD are
  // Maryland and JD Edwards, so they count only with their dots.
  { level: 'doctorate', pattern: word('Ph\\.?\\s?D\\.?|Doctorate|Doctoral\\s+degree|Juris\\s+Doctor', 'giu') },
  { level: 'doctorate', pattern: word('Doctor\\s+of\\s+(?!Ceremonies)[A-Z][a-z]+') },
  {
    level: 'doctorate',
    pattern: word(
      'M\\.D\\.|J\\.D\\.|Ed\\.\\s?D\\.?|Psy\\.\\s?D\\.?|Pharm\\.\\s?D\\.?|D\\.N\\.P\\.?|D\\.P\\.T\\.?|D\\.D\\.S\\.?|D\\.V\\.M\\.?',
    ),
  },
  ...abbreviations('doctorate', ['PsyD', 'PharmD', 'DNP', 'DPT', 'DDS', 'DVM'], ['EdD']),
  // "Master of Science", "Master's", "Masters in": never "Scrum Master", "Master Electrician", "master data".
  {
    level: 'master',
    pattern: word("Master(?:'s|’s|s)?\\s+(?:of|in)(?=\\s+(?!Ceremonies\\b)\\p{L})|Master(?:'s|’s|s)?\\s+degree|Master(?:'s|’s)", 'giu'),
  },
  { level: 'master', pattern: word('Master\\s*(?=:)|Masters|MASTERS?\\s*(?=:)'), educationOnly: true },
  { level: 'master', pattern: word('M\\.\\s?S\\.?|M\\.\\s?A\\.?|LL\\.M\\.?') },
  ...abbreviations(
    'master',
    ['M.B.A', 'EMBA', 'M.Sc', 'M.Eng', 'M.Tech', 'M.C.A', 'M.Com', 'M.F.A', 'M.S.W', 'M.S.N', 'M.Phil', 'M.H.A'],
    ['M.Ed', 'M.P.H', 'M.P.A', 'M.Acc'],
  ),
  twoLetters('master', ['MS', 'MA']),
  { level: 'bachelor', pattern: word("Bachelor(?:'s|’s|s)?\\s+(?:of|in|degree)|Bachelor(?:'s|’s)", 'giu') },
  { level: 'bachelor', pattern: word('Bachelors?|BACHELORS?'), educationOnly: true },
  { level: 'bachelor', pattern: word('B\\.\\s?S\\.?|B\\.\\s?A\\.?|B\\.\\s?E\\.?|LL\\.B\\.?') },
  ...abbreviations(
    'bachelor',
    [
      'B.B.A',
      'B.S.B.A',
      'B.Sc',
      'B.Tech',
      'B.Com',
      'B.C.A',
      'B.F.A',
      'B.S.N',
      'B.Eng',
      'B.Arch',
      'B.S.E.E',
      'B.S.M.E',
      'B.S.C.S',
      'B.Pharm',
      'LLB',
      'MBBS',
    ],
    ['B.Ed'],
  ),
  twoLetters('bachelor', ['BS', 'BA', 'BE']),
  {
    level: 'associate',
    pattern: word(
      "Associate(?:'s|’s|s)?\\s+(?:of|in)\\s+(?:Applied\\s+)?(?:Arts|Sciences?|General|Occupational|Business|Nursing|Technical|Technology|Specialized|Liberal|Fine)|Associate(?:'s|’s|s)?\\s+degree|Associate(?:'s|’s)",
      'giu',
    ),
  },
  { level: 'associate', pattern: word('Associates?\\s*(?=:)|ASSOCIATES?\\s*(?=:)'), educationOnly: true },
  { level: 'associate', pattern: word('A\\.\\s?A\\.\\s?S\\.?|A\\.\\s?S\\.|A\\.\\s?A\\.|A\\.\\s?D\\.\\s?N\\.?') },
  ...abbreviations('associate', [], ['AAS', 'ADN']),
  twoLetters('associate', ['AS', 'AA']),
  {
    level: 'high-school',
    pattern: word('High\\s+School\\s+(?:Diploma|Graduate)|Secondary\\s+School\\s+Diploma|General\\s+Equivalency\\s+Diploma', 'giu'),
  },
  { level: 'high-school', pattern: word('G\\.?E\\.?D\\.?|H\\.?S\\.?C\\.?|A[- ]Levels?') },
  { level: 'high-school', pattern: word('High\\s+School|(?:Higher|Senior)\\s+Secondary|12th|XII', 'giu'), educationOnly: true },
];

/**
 * What says a degree is not (yet) obtained, in its entry: pursued, expected, in progress, or
 * studied without a degree. A demanding recruiter filters on degrees held.
 */
const NOT_OBTAINED =
  /\b(?:expected|anticipated|in[- ]progress|pursuing|currently\s+(?:enrolled|attending|pursuing|studying)|presently\s+attending|enrolled|working\s+towards?|will\s+graduate|to\s+be\s+completed|to\s+complete|completing|present|incomplete|not\s+completed|no\s+degree|some\s+college|ongoing|(?<!\b(?:CPA|CFA|CFP|CMA|CIA|CISA|CISSP|PMP|Series\s+\d+)\s+(?:qualified\s+)?)candidate)\b|\b(?:19|20)\d{2}\s*(?:-|–|—|to)\s*(?:present|current|now|till\s+date)\b/i;
/** Right after the degree: its candidates, students and courses hold none. */
const NOT_OBTAINED_AFTER = /^[\s,:(-]{0,3}(?:candidate|student|coursework|courses|credits|classes|program\s+student)\b/i;
/** An executive-education programme awards a certificate, not a degree ("MA : Executive Leadership Programme", Babson Executive Education). */
const EXECUTIVE_EDUCATION = /\bexecutive\s+education\b|\bexecutive\b[^\n]{0,60}\bprogram(?:me)?\b/i;
/** A line that goes on with the entry above it: an in-progress note ("Expected graduation: May 2018", "In Progress."). */
const NOTE_LINE = /^[\s(•*-]*(?:expected|anticipated|in[- ]progress|currently|presently|pursuing|will\s+graduate|graduation\s+date)\b/i;
/** A line that is an entry of its own, its degree's place taken by a note ("Currently Enrolled : Accounting 2018"). */
const OWN_ENTRY = /^[^\n:]{0,40}\s:\s/;
/** A line that is a date alone ("2014", "May 2016", "05/2016"). */
const DATE_LINE = /^\s*(?:(?:[A-Za-z]+\.?|\d{1,2}\/)\s*)?(?:19|20)\d{2}\s*$/;
/** A CV that says its author has no schooling: 'none', the one level never guessed. */
const STATES_NONE =
  /\b(?:no\s+formal\s+(?:education|schooling)|did\s+not\s+(?:complete|finish|graduate\s+from)\s+high\s+school|no\s+high\s+school\s+diploma)\b/i;

export interface Mention {
  level: Level;
  start: number;
  end: number;
}

/** The degrees written in a text, left to right; `inEducation` when it is an education section. */
function mentionsIn(text: string, inEducation: boolean): Mention[] {
  const found: Mention[] = [];
  for (const { level, pattern, educationOnly } of DEGREE_WORDS) {
    if (educationOnly && !inEducation) continue;
    for (const m of text.matchAll(pattern)) found.push({ level, start: m.index, end: m.index + m[0].length });
  }
  // Where two readings overlap ("Master of Science" and "Masters"), the first and longest stands:
  // sorted by start, a mention overlaps an earlier one when it starts before the furthest end so far.
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  let furthest = -1;
  return found.filter((m) => {
    const overlaps = m.start < furthest;
    furthest = Math.max(furthest, m.end);
    return !overlaps;
  });
}

/**
 * The degree levels a text names, left to right, written unmistakably ("Bachelor's degree", "B.S.",
 * "MBA", "High School Diploma"; not the two-letter and bare forms read only in a CV's education
 * section): what a job posting asks for.
 */
export function degreeLevelsIn(text: string): Level[] {
  return mentionsIn(text, false).map((m) => m.level);
}

/** Whether a mention starts within [from, to]: mentions are sorted by start, so a binary search. */
function mentionStartsIn(mentions: readonly Mention[], from: number, to: number): boolean {
  let low = 0;
  let high = mentions.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (mentions[mid].start < from) low = mid + 1;
    else high = mid;
  }
  return low < mentions.length && mentions[low].start <= to;
}

/** Whether the entry around a mention says the degree is held: no in-progress word, no future date, no executive programme. */
function obtained(text: string, mentions: readonly Mention[], at: number, asOf: Date): boolean {
  const mention = mentions[at];
  const lineStart = text.lastIndexOf('\n', mention.start - 1) + 1;
  const lineEndAt = text.indexOf('\n', mention.end);
  const lineEnd = lineEndAt < 0 ? text.length : lineEndAt;
  // The entry: from the degree before it on its line (or the line's start) to the next one.
  const before = mentions[at - 1];
  const after = mentions[at + 1];
  const from = before && before.end > lineStart ? before.end : lineStart;
  const to = after && after.start < lineEnd ? after.start : lineEnd;
  const nextLineEnd = text.indexOf('\n', lineEnd + 1);
  const nextLine = to === lineEnd ? text.slice(lineEnd + 1, nextLineEnd < 0 ? text.length : nextLineEnd) : '';
  const nextHolds = mentionStartsIn(mentions, lineEnd + 1, lineEnd + 1 + nextLine.length);
  const goesOn = !nextHolds && NOTE_LINE.test(nextLine) && !OWN_ENTRY.test(nextLine);
  // A line of a date alone above it is the entry's date, as many CVs write it ("2020\nPh.D. : Education").
  const previousLine = from === lineStart && lineStart > 0 ? text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1) : '';
  const entry = `${DATE_LINE.test(previousLine) ? previousLine : ''}\n${text.slice(from, to)}\n${goesOn ? nextLine : ''}`;
  if (NOT_OBTAINED.test(entry) || NOT_OBTAINED_AFTER.test(text.slice(mention.end, mention.end + 30))) return false;
  if (EXECUTIVE_EDUCATION.test(entry)) return false;
  const thisYear = asOf.getUTCFullYear();
  return ![...entry.matchAll(/\b(?:19|20)\d{2}\b/g)].some((y) => Number(y[0]) > thisYear);
}

/**
 * Where a CV writes degrees, with their levels, read as `degreeOf` reads them (its education
 * sections, or the whole text without one), obtained or not: what shows a recruiter the degree.
 */
export function degreeMentions(text: string, sections: readonly Section[]): Mention[] {
  const education = sections.filter((s) => s.kind === 'education');
  if (education.length === 0) return mentionsIn(text, false);
  return education.flatMap((section) => {
    const at = text.indexOf(section.body, section.start);
    return mentionsIn(section.body, true).map((m) => ({ level: m.level, start: m.start + at, end: m.end + at }));
  });
}

/**
 * The highest degree the CV states as obtained, read from its education sections (or, when it has
 * none, from degrees written unmistakably anywhere: "Bachelor of Science", "MBA", "Ph.D."). A
 * degree pursued, expected or in progress does not count, nor an executive-education programme;
 * professional doctorates (M.D., J.D., PharmD) are doctorates. Null when the CV states none;
 * 'none' only where it says the candidate has no schooling.
 */
export function degreeOf(text: string, sections: readonly Section[], asOf: Date): Degree | null {
  const education = sections.filter((s) => s.kind === 'education');
  const regions = education.length ? education.map((s) => s.body) : [text];
  let best: Level | null = null;
  for (const region of regions) {
    const mentions = mentionsIn(region, education.length > 0);
    mentions.forEach((m, i) => {
      if ((best === null || RANK[m.level] > RANK[best]) && obtained(region, mentions, i, asOf)) best = m.level;
    });
  }
  return best ?? (STATES_NONE.test(text) ? 'none' : null);
}
