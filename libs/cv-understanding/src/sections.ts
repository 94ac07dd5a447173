import type { TextSpan } from '@cs/text-analysis';

/** What a CV section is about, whatever its heading says. */
export type SectionKind =
  | 'summary'
  | 'skills'
  | 'experience'
  | 'education'
  | 'certifications'
  | 'accomplishments'
  | 'languages'
  | 'projects'
  | 'interests'
  | 'contact'
  | 'other';

const HEADINGS: readonly [SectionKind, RegExp][] = [
  [
    'summary',
    /^(professional |career |executive |personal )?(summary|profile|objective|overview|focus)( of qualifications)?$|^about( me)?$|^career (focus|objective)$|^summary of qualifications$/,
  ],
  [
    'skills',
    /^((core|key|technical|professional|computer|relevant) )?(skills|competencies|qualifications|expertise|highlights|skill highlights|skills summary)$|^summary of skills$|^technical proficiencies$/,
  ],
  [
    'experience',
    /^((professional|work|relevant|employment|career) )?(experience|history|background)$|^work history$|^employment$|^experience summary$/,
  ],
  // "Education and Training", "Education & Courses": what follows education stays education.
  ['education', /^(education|academic background|educational background|training)((?: and| &) [a-z ]{3,30})?$/],
  ['certifications', /^(certifications?|licenses?( and certifications)?|certifications? and licenses?)$/],
  ['accomplishments', /^(accomplishments|achievements|awards|honors)$/],
  ['languages', /^(languages?|language skills|languages? known|language proficiency|(spoken|foreign) languages)$/],
  ['projects', /^(projects|personal projects|key projects)$/],
  ['interests', /^(interests|hobbies|activities|additional information|affiliations|volunteer( experience| work)?)$/],
  ['contact', /^(contact|contacts|contact (information|details)|personal (details|information))$/],
  ['skills', /^skills? details$/],
  ['education', /^education(al)? details$/],
  ['experience', /^(company|work|employment|experience) details$/],
];

/** A section of a CV; its offsets are its body's in the text. */
export interface Section extends TextSpan {
  kind: SectionKind;
  heading: string;
  body: string;
}

/** The section a line heads, or null when the line is not a heading. */
export function headingKind(line: string): SectionKind | null {
  const cleaned = line
    .trim()
    .replace(/[:：]\s*$/, '')
    .toLowerCase()
    .replace(/\s+/g, ' ');
  if (!cleaned || cleaned.length > 40) return null;
  for (const [kind, pattern] of HEADINGS) if (pattern.test(cleaned)) return kind;
  return null;
}

/**
 * A heading of the "<Section> Details" form, capitalised, at the end of a line of other text: text
 * flattened from a form glues it to what came before ("…ethical worker.Education Details").
 */
const TRAILING_HEADING =
  /(?<=\S)\s*((?:Education|Educational|Company|Work|Employment|Experience|Skills?) Details|(?:EDUCATION|EDUCATIONAL|COMPANY|WORK|EMPLOYMENT|EXPERIENCE|SKILLS?) DETAILS)\s*:?\s*$/;

/**
 * Splits a CV at its section headings (a short line such as "Work History" or "SKILLS:", or a
 * "… Details" heading glued to the end of a line). Text before the first heading is the `other`
 * section that holds the name and headline.
 */
export function splitSections(text: string): Section[] {
  const sections: Section[] = [];
  let current: { kind: SectionKind; heading: string; start: number } = { kind: 'other', heading: '', start: 0 };
  const close = (end: number) => {
    if (end > current.start) sections.push({ ...current, end, body: text.slice(current.start, end).trim() });
  };
  for (const match of text.matchAll(/[^\n]+/g)) {
    const kind = headingKind(match[0]);
    const trailing = kind ? null : TRAILING_HEADING.exec(match[0]);
    const trailingKind = trailing ? headingKind(trailing[1]) : null;
    if (kind) {
      close(match.index);
      current = { kind, heading: match[0].trim(), start: match.index + match[0].length };
    } else if (trailing && trailingKind) {
      close(match.index + trailing.index);
      current = { kind: trailingKind, heading: trailing[0].trim(), start: match.index + match[0].length };
    }
  }
  close(text.length);
  return sections.filter((s) => s.body.length > 0);
}
