import { looksLikeTitle } from '@cs/cv-understanding';

/**
 * What a part of a posting says: the work (`description`: the opening paragraphs and the
 * duties), what it requires, what it would like (`preferred`), or something else (benefits, the
 * company, how to apply).
 */
export type PartKind = 'description' | 'required' | 'preferred' | 'other';

/** One clause of a posting's line (a list item's marker left out), with the part it belongs to. */
export interface PostingClause {
  text: string;
  kind: PartKind;
}

export interface PostingParts {
  title: string | null;
  clauses: PostingClause[];
  /** Whether the posting has a requirements part of its own (a heading such as "Requirements"). */
  hasRequirements: boolean;
}

/** Headings, lower-cased, without their colon; the first that matches names the part. */
const HEADINGS: readonly [PartKind, RegExp][] = [
  [
    'preferred',
    /^(?:(?:nice|good|great)[- ]to[- ]haves?|(?:preferred|desired|desirable|additional|bonus)(?: (?:qualifications?|skills|experience|requirements?))?|bonus points?(?: if .*)?|(?:it's )?a plus|pluses|extra credit|what (?:would|will) (?:make you stand out|set you apart)|(?:preferred|desired) (?:skills and experience|experience and skills))$/,
  ],
  [
    'required',
    /^(?:(?:minimum|basic|required|key|essential|core|job|your|the|technical|relevant|professional|specific) )?(?:requirements?|qualifications?|skills(?: (?:and|&) (?:experience|qualifications|abilities))?|experience(?: (?:and|&) (?:skills|qualifications|education))?|education(?: (?:and|&) (?:experience|training|certifications?))?|certifications?(?: (?:and|&) licen[cs]es?)?|licen[cs]es? (?:and|&) certifications?)$|^(?:requirements?|qualifications?) (?:and|&) (?:qualifications?|skills|experience|education)$|^what (?:you(?:'ll| will)? (?:bring|need|have)|we(?:'re| are)? look(?:ing)? for|we need|you bring)(?: to the (?:role|table|team))?$|^must[- ]haves?$|^(?:who you are|about you|you have|you bring|you are|your profile|profile|the ideal candidate|ideal candidate|the candidate|knowledge,? skills,? (?:and|&) abilities)$/,
  ],
  [
    'description',
    /^(?:(?:key|main|your|primary|essential|major|job) )?(?:responsibilities|duties|tasks)(?: (?:and|&) (?:duties|responsibilities))?$|^what you(?:'ll| will) (?:do|be doing)$|^(?:about the|the|your) (?:role|job|position)$|^(?:the )?role$|^(?:a )?day in the life$|^(?:job|position|role) (?:summary|overview|description|purpose)$|^(?:job description|overview|the opportunity|summary)$/,
  ],
  [
    'other',
    /^(?:benefits|perks|(?:what|why) we offer|we offer|what's in it for you|why (?:join us|work (?:with|for) us)|compensation(?: (?:and|&) benefits)?|salary|pay|about us|about the company|who we are|our company|the company|company|how to apply|to apply|apply|location|schedule|hours|working hours|shift|equal (?:employment )?opportunity.*|eeo.*|contact)$/,
  ],
];

const MAX_HEADING_CHARS = 60;

/** The part a line heads, or null when it is no heading. */
export function headingKind(line: string): PartKind | null {
  const cleaned = line
    .trim()
    .replace(/^[#*_\s]+|[*_\s]+$/g, '')
    .replace(/[:：]\s*$/, '')
    .replace(/[’‘]/g, "'")
    .toLowerCase()
    .replace(/\s+/g, ' ');
  if (!cleaned || cleaned.length > MAX_HEADING_CHARS) return null;
  for (const [kind, pattern] of HEADINGS) if (pattern.test(cleaned)) return kind;
  return null;
}

/** A heading with its part's text after it on the line: "What you'll do: patch and monitor servers". */
const INLINE_HEADING = /^([^:：\n]{2,60})[:：][ \t]*(\S.*)$/;
const BULLET = /^(?:[-*•·▪■●◦‣–—+]|\(?\d{1,2}[.)])\s+/;
/**
 * What makes a clause of the requirements something the posting would like rather than requires:
 * "is a plus", "preferred", "nice to have", "ideally", "not required".
 */
const WOULD_LIKE =
  /\b(?:(?:is|are|would be|a|an) (?:a |an )?(?:plus|bonus|advantage)|preferred|preferably|nice[- ]to[- ]have|desirable|desired|ideally|not (?:required|necessary|essential|mandatory)|advantageous|beneficial)\b/i;
/** Words that open a sentence, never a job title ("We are hiring", "Join our team"). */
const SENTENCE_START = /^(?:we|we're|our|you|you'll|your|join|are|is|do|i|about|looking|seeking|hiring|if|the|this|at|in)\b/i;
/** A label before the title on its line ("Job title: Staff Accountant"). */
const TITLE_LABEL = /^(?:job\s+title|position(?:\s+title)?|title|role|job|vacancy|opening)\s*[:：–-]\s*/i;

/** The posting's title: its first line, when that reads as a job title (without a "Job title:" label); else null. */
function titleOf(line: string): string | null {
  const candidate = line.replace(TITLE_LABEL, '').replace(/\s+/g, ' ').trim();
  if (!candidate || headingKind(candidate) !== null || SENTENCE_START.test(candidate)) return null;
  return looksLikeTitle(candidate) ? candidate : null;
}

/** A line's clauses: its sentences, and the parts of a sentence between semicolons. */
function clausesOf(line: string): string[] {
  return line
    .split(/;|(?<=[.!?])\s+(?=[A-Z])/)
    .map((c) => c.trim())
    .filter(Boolean);
}

/**
 * Splits a posting into its title and clauses, each with the part it belongs to. Before the first
 * heading is the description; under a heading, its part. In the requirements, a clause that says
 * it is a plus ("is a plus", "preferred") belongs to the preferred part.
 */
export function postingParts(text: string): PostingParts {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.trim().length > 0);
  const title = first >= 0 ? titleOf(lines[first].trim()) : null;
  const clauses: PostingClause[] = [];
  let kind: PartKind = 'description';
  let hasRequirements = false;
  lines.forEach((raw, at) => {
    let line = raw.trim();
    if (!line || (at === first && title !== null)) return;
    const heading = headingKind(line);
    if (heading) {
      kind = heading;
      hasRequirements ||= heading === 'required';
      return;
    }
    const inline = INLINE_HEADING.exec(line);
    const inlineKind = inline ? headingKind(inline[1]) : null;
    let lineKind = kind;
    if (inline && inlineKind) {
      // "Location: Denver, CO", "Salary: …" say something of their own; "Requirements: …" goes on below.
      lineKind = inlineKind;
      if (inlineKind !== 'other') kind = inlineKind;
      hasRequirements ||= inlineKind === 'required';
      line = inline[2];
    }
    for (const clause of clausesOf(line.replace(BULLET, ''))) {
      clauses.push({ text: clause, kind: lineKind === 'required' && WOULD_LIKE.test(clause) ? 'preferred' : lineKind });
    }
  });
  return { title, clauses, hasRequirements };
}
