import { degreeLevelsIn, languageName, languagesOf, seniorityOf } from '@cs/cv-understanding';
import { DEGREE_LEVELS, SENIORITY_LEVELS } from '@cs/search-filters/body';
import { analyze } from '@cs/text-analysis';
import {
  LONE_SURROGATE,
  MAX_LANGUAGES,
  MAX_POSTING_CHARS,
  MAX_SKILLS,
  MAX_SUMMARY_CHARS,
  type JobCriteria,
  type WeightedSkill,
} from './criteria';
import { locationOf } from './location';
import { postingParts, type PostingClause } from './posting-lines';
import { skillPhrases } from './skill-phrases';
import { yearsStated } from './years';

/** A run of letters and digits longer than any word: blanked before anything is read. */
const LONG_WORD = /[\p{L}\p{N}]{41,}/gu;

/** Skill weights: a requirement, the work's description (when the posting also lists requirements), a nice-to-have. */
export const SKILL_WEIGHTS = {
  required: 1,
  described: 0.5,
  preferred: 0.5,
  /** Added for each further mention of the phrase in the posting, up to `repeatedAtMost`. */
  repeated: 0.25,
  repeatedAtMost: 0.5,
  /** Added when the title holds the phrase's words. */
  inTitle: 0.5,
} as const;

/** The longest word sequence counted for `repeated`; a longer phrase counts as mentioned once. */
const COUNTED_TERMS = 4;

/** How often each sequence of up to `COUNTED_TERMS` analysed terms occurs in the text. */
function sequenceCounts(text: string): Map<string, number> {
  const terms = analyze(text).map((t) => t.term);
  const counts = new Map<string, number>();
  for (let i = 0; i < terms.length; i++) {
    let key = '';
    for (let n = 0; n < COUNTED_TERMS && i + n < terms.length; n++) {
      key = n === 0 ? terms[i] : `${key} ${terms[i + n]}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

interface Candidate {
  name: string;
  key: string;
  list: 'required' | 'preferred';
  base: number;
  order: number;
}

/** The weightiest `MAX_SKILLS` of a list, weightiest first, in the order written among equals. */
const top = (candidates: Candidate[], weight: (c: Candidate) => number): WeightedSkill[] =>
  candidates
    .map((c) => ({ c, weight: Math.round(weight(c) * 100) / 100 }))
    .sort((a, b) => b.weight - a.weight || a.c.order - b.c.order)
    .slice(0, MAX_SKILLS)
    .map(({ c, weight: w }) => ({ name: c.name, weight: w }));

/**
 * Required and preferred skills: each clause's vocabulary skills and noun phrases, required from
 * the requirements (weight 1) and the description of the work (0.5, or 1 when the posting lists
 * no requirements), preferred from the nice-to-haves (0.5); a phrase named in both lists is
 * required. Each further mention adds 0.25 (up to 0.5), the title's words 0.5.
 */
function skillsOf(
  clauses: readonly PostingClause[],
  hasRequirements: boolean,
  text: string,
  title: string | null,
  languages: readonly string[],
): JobCriteria['skills'] {
  const byKey = new Map<string, Candidate>();
  let order = 0;
  for (const clause of clauses) {
    if (clause.kind === 'other') continue;
    const list = clause.kind === 'preferred' ? 'preferred' : 'required';
    const base =
      clause.kind === 'required'
        ? SKILL_WEIGHTS.required
        : clause.kind === 'preferred'
          ? SKILL_WEIGHTS.preferred
          : hasRequirements
            ? SKILL_WEIGHTS.described
            : SKILL_WEIGHTS.required;
    for (const phrase of skillPhrases(clause.text)) {
      // The description names its employer and the people the role works with ("Riverside Health System", "Assistant Controller").
      if (clause.kind === 'description' && phrase.properName) continue;
      // A spoken language the posting requires is a criterion of its own.
      const language = languageName(phrase.name);
      if (list === 'required' && language && languages.includes(language)) continue;
      const known = byKey.get(phrase.key);
      const better = !known || (list === 'required' && (known.list === 'preferred' || base > known.base));
      if (better) byKey.set(phrase.key, { name: phrase.name, key: phrase.key, list, base, order: known?.order ?? order });
      order++;
    }
  }
  const counts = sequenceCounts(text);
  const titleTerms = new Set(title ? analyze(title).map((t) => t.term) : []);
  const weight = (c: Candidate) => {
    const terms = c.key.split(' ');
    const mentions = terms.length <= COUNTED_TERMS ? (counts.get(c.key) ?? 1) : 1;
    const repeated = Math.min(SKILL_WEIGHTS.repeatedAtMost, SKILL_WEIGHTS.repeated * Math.max(0, mentions - 1));
    return c.base + repeated + (terms.every((t) => titleTerms.has(t)) ? SKILL_WEIGHTS.inTitle : 0);
  };
  const candidates = [...byKey.values()];
  return {
    required: top(
      candidates.filter((c) => c.list === 'required'),
      weight,
    ),
    preferred: top(
      candidates.filter((c) => c.list === 'preferred'),
      weight,
    ),
  };
}

/** The seniority the title states; none otherwise (the years are a criterion of their own, not a level the posting asked for). */
function seniorityFrom(title: string | null): JobCriteria['seniority'] {
  const stated = title ? seniorityOf(title) : null;
  return SENIORITY_LEVELS.find((l) => l === stated) ?? null;
}

/** The description's clauses, as far as MAX_SUMMARY_CHARS holds them whole (the first cut at a word); null without one. */
function summaryOf(clauses: readonly PostingClause[]): string | null {
  let summary = '';
  for (const clause of clauses.filter((c) => c.kind === 'description')) {
    const next = summary ? `${summary} ${clause.text}` : clause.text;
    if (next.length <= MAX_SUMMARY_CHARS) summary = next;
    else {
      if (!summary) summary = next.slice(0, MAX_SUMMARY_CHARS).replace(/\s+\S*$/, '');
      break;
    }
  }
  return summary.trim() || null;
}

/**
 * Reads a job posting's criteria: its title, required and preferred skills with their weights,
 * the years of experience, seniority, place (or remote work), degree and spoken languages it asks
 * for. Everything comes from the posting's own text: what it does not say stays null or empty,
 * never guessed. Reads the first `MAX_POSTING_CHARS` characters; its time and memory grow
 * linearly with them.
 */
export function readJobCriteria(text: string): JobCriteria {
  const posting = text
    .slice(0, MAX_POSTING_CHARS)
    // A lone half of a surrogate pair is no character: what is read from the posting is valid Unicode.
    .replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD')
    .replace(/\r\n?/g, '\n')
    // No word is that long, and stemming one costs time that grows faster than its length.
    .replace(LONG_WORD, (word) => ' '.repeat(word.length));
  const { title, clauses, hasRequirements } = postingParts(posting);
  const required = clauses.filter((c) => c.kind === 'required');
  const requirements = required.map((c) => c.text).join('\n');
  // Without a requirements part, years are read where the description speaks of experience.
  const yearsText = hasRequirements
    ? requirements
    : clauses
        .filter((c) => c.kind === 'description' && /\bexperience/i.test(c.text))
        .map((c) => c.text)
        .join('\n');
  const years = yearsStated(yearsText);
  const minYears = years.length ? years.reduce((a, b) => Math.max(a, b)) : null;
  const levels = degreeLevelsIn(
    hasRequirements
      ? requirements
      : clauses
          .filter((c) => c.kind === 'description')
          .map((c) => c.text)
          .join('\n'),
  );
  // The lowest degree the requirements name: "a bachelor's or master's degree" asks for a bachelor's.
  const lowest = levels.reduce<number>((low, l) => Math.min(low, DEGREE_LEVELS.indexOf(l)), DEGREE_LEVELS.length);
  const degree = lowest < DEGREE_LEVELS.length ? DEGREE_LEVELS[lowest] : null;
  const demanded = clauses
    .filter((c) => c.kind === 'required' || c.kind === 'description')
    .map((c) => c.text)
    .join('\n');
  const languages = languagesOf(demanded, []).slice(0, MAX_LANGUAGES);
  return {
    title,
    summary: summaryOf(clauses),
    skills: skillsOf(clauses, hasRequirements, posting, title, languages),
    experienceYears: minYears === null ? null : { min: minYears },
    seniority: seniorityFrom(title),
    location: locationOf(posting),
    degree: degree ? { min: degree } : null,
    languages,
  };
}
