import { degreeMentions, findDateRanges, languageMentions, splitSections, type Section } from '@cs/cv-understanding';
import type { ProfileInfo } from '@cs/cv-understanding/types';
import type { Place } from '@cs/gazetteer';
import { distanceKm } from '@cs/search-filters';
import { DEGREE_LEVELS, SENIORITY_LEVELS } from '@cs/search-filters/body';
import type { CandidateMatch, CriterionAssessment, Evidence } from '@cs/search-domain';
import { analyze, partMatcher, type QueryPart, type Term } from '@cs/text-analysis';
import type { JobCriteria } from './criteria';
import { criterionOf } from './criterion';

/** What a criterion counts towards a candidate's criteria score, by its status. */
export const STATUS_VALUE = { met: 1, partly: 0.5, unknown: 0.5, missing: 0 } as const;

/** Experience short of the minimum by at most this share of it is partly met ("4 years" for "5+"). */
const YEARS_PARTLY_SHARE = 0.25;
/** Evidence passages a criterion shows at most, and the characters of each. */
const MAX_EVIDENCE = 3;
const EVIDENCE_CHARS = 200;
/** Lines of a CV read for its title: a title stands near the top, and this bounds the work. */
const TITLE_LINES = 60;

/** A CV as it is assessed: its text, and the profile read from it (null when none was read). */
export interface AssessedCv {
  text: string;
  profile: ProfileInfo | null;
}

/** A criterion with its assessment, before its evidence is cut to passages. */
type Assess = (cv: AssessedCv, context: CvContext) => Omit<CriterionAssessment, 'criterion'>;

/** What several criteria read of one CV, read once. */
interface CvContext {
  sections: () => Section[];
  /** The CV's analysed terms that are some criterion's (a skill's or the title's). */
  terms: () => Term[];
  skills: () => ReturnType<ReturnType<typeof partMatcher>>;
}

/**
 * The passage of `text` around [start, end): its line, cut to EVIDENCE_CHARS around the span, so
 * that `text.slice(start, end)` is the passage.
 */
export function passage(text: string, start: number, end: number): Evidence {
  let from = text.lastIndexOf('\n', start - 1) + 1;
  const lineEnd = text.indexOf('\n', end);
  let to = lineEnd < 0 ? text.length : lineEnd;
  if (to - from > EVIDENCE_CHARS) {
    const room = Math.max(0, EVIDENCE_CHARS - (end - start));
    from = Math.max(from, start - Math.floor(room / 2));
    to = Math.min(to, Math.max(end, from + EVIDENCE_CHARS));
  }
  while (from < start && /\s/.test(text[from])) from++;
  while (to > end && /\s/.test(text[to - 1])) to--;
  return { text: text.slice(from, to), start: from, end: to };
}

/** Passages for spans, one a line, at most MAX_EVIDENCE. */
function passages(text: string, spans: readonly { start: number; end: number }[]): Evidence[] {
  const found: Evidence[] = [];
  for (const span of spans) {
    if (found.length >= MAX_EVIDENCE) break;
    const p = passage(text, span.start, span.end);
    if (!found.some((f) => f.start === p.start)) found.push(p);
  }
  return found;
}

const none = (status: 'missing' | 'unknown'): Omit<CriterionAssessment, 'criterion'> => ({ status, evidence: [] });

/** A level's rank, higher for more: SENIORITY_LEVELS lists the most senior first, DEGREE_LEVELS the lowest first. */
const seniorityRank = (level: string) => SENIORITY_LEVELS.length - SENIORITY_LEVELS.indexOf(level as (typeof SENIORITY_LEVELS)[number]);
const degreeRank = (level: string) => DEGREE_LEVELS.indexOf(level as (typeof DEGREE_LEVELS)[number]);

/** Met at or above the level asked, partly one level below, missing further below, unknown when the CV states none. */
function byLevel(held: string | null, asked: string, rank: (level: string) => number): CriterionAssessment['status'] {
  if (held === null) return 'unknown';
  const gap = rank(asked) - rank(held);
  return gap <= 0 ? 'met' : gap === 1 ? 'partly' : 'missing';
}

/** The lines of a text with their offsets, at most `limit`. */
function lines(text: string, limit: number): { start: number; end: number; line: string }[] {
  const found: { start: number; end: number; line: string }[] = [];
  let start = 0;
  while (start <= text.length && found.length < limit) {
    const at = text.indexOf('\n', start);
    const end = at < 0 ? text.length : at;
    found.push({ start, end, line: text.slice(start, end) });
    if (at < 0) break;
    start = at + 1;
  }
  return found;
}

/**
 * Assesses CVs against a posting's criteria (docs/api.md, "Matching a job posting"): each
 * criterion met, partly, missing or unknown, with the passages of the CV that show it, and the
 * score they make by weight. The skills' patterns are built once, here, for every CV assessed.
 * `place` is the criteria's place as the gazetteer resolved it; `asOf` the day "present" means.
 */
export function criteriaAssessor(criteria: JobCriteria, place: Place | null, asOf: Date): (cv: AssessedCv) => CandidateMatch {
  const checks: { criterion: CriterionAssessment['criterion']; assess: Assess }[] = [];
  const skills = [
    ...criteria.skills.required.map((s) => ({ ...s, required: true })),
    ...criteria.skills.preferred.map((s) => ({ ...s, required: false })),
  ];
  const skillParts: QueryPart[] = skills.map((s) => {
    const terms = analyze(s.name).map((t) => t.term);
    return { text: s.name, terms, phrase: terms.length > 1 };
  });
  const matchSkills = partMatcher({ parts: skillParts.filter((p) => p.terms.length > 0) });
  const titleTerms = criteria.title === null ? [] : [...new Set(analyze(criteria.title).map((t) => t.term))];
  const wanted = new Set([...skillParts.flatMap((p) => p.terms), ...titleTerms]);

  if (criteria.title !== null && titleTerms.length > 0) {
    checks.push({
      criterion: criterionOf.title(criteria.title),
      assess: ({ text }, context) => {
        // The line near the top holding most of the title's words, by their stems (the first such line).
        const top = lines(text, TITLE_LINES);
        const limit = top[top.length - 1]?.end ?? 0;
        const byLine = new Map<number, Set<string>>();
        for (const t of context.terms()) {
          if (t.start >= limit) break;
          if (!titleTerms.includes(t.term)) continue;
          const lineStart = text.lastIndexOf('\n', t.start - 1) + 1;
          byLine.set(lineStart, (byLine.get(lineStart) ?? new Set()).add(t.term));
        }
        let best: { held: number; start: number } | null = null;
        for (const [start, held] of byLine) if (!best || held.size > best.held) best = { held: held.size, start };
        if (!best || best.held * 2 < titleTerms.length) return none('missing');
        const end = text.indexOf('\n', best.start);
        return {
          status: best.held === titleTerms.length ? 'met' : 'partly',
          evidence: [passage(text, best.start, end < 0 ? text.length : end)],
        };
      },
    });
  }

  skills.forEach((skill, i) => {
    const part = skillParts[i];
    if (part.terms.length === 0) return;
    checks.push({
      criterion: criterionOf.skill(skill, skill.required),
      assess: ({ text }, context) => {
        const matched = context.skills().matched.find((m) => m.term === part.text);
        if (matched) return { status: 'met', evidence: passages(text, matched.spans) };
        // Partly: the skill's words by stem only ("reconciling" for reconciliation), or half of a longer skill's words.
        const found = context.terms().filter((t) => part.terms.includes(t.term));
        const held = new Set(found.map((t) => t.term)).size;
        if (held === 0 || held * 2 < part.terms.length) return none('missing');
        return { status: 'partly', evidence: passages(text, found) };
      },
    });
  });

  const minYears = criteria.experienceYears?.min ?? 0;
  if (minYears > 0) {
    checks.push({
      criterion: criterionOf.experienceYears(minYears),
      assess: ({ text, profile }) => {
        const years = profile?.experienceYears ?? null;
        if (years === null) return none('unknown');
        const status = years >= minYears ? 'met' : years >= minYears * (1 - YEARS_PARTLY_SHARE) ? 'partly' : 'missing';
        // The dates behind the years, latest first.
        const ranges = findDateRanges(text, asOf).sort((a, b) => b.end - a.end);
        const spans = ranges.map((r) => ({ start: r.offset, end: r.offset + 1 }));
        return { status, evidence: passages(text, spans) };
      },
    });
  }

  if (criteria.seniority !== null) {
    const asked = criteria.seniority;
    checks.push({
      criterion: criterionOf.seniority(asked),
      assess: ({ text, profile }) => {
        const held = profile?.seniorityLevel ?? null;
        const status = byLevel(held, asked, seniorityRank);
        if (status === 'unknown' || status === 'missing') return none(status);
        const word = new RegExp(`\\b${held}`, 'i');
        const line = lines(text, TITLE_LINES).find((l) => word.test(l.line));
        return { status, evidence: line ? [passage(text, line.start, line.end)] : [] };
      },
    });
  }

  if (criteria.location !== null && 'place' in criteria.location && place !== null) {
    const { radiusKm } = criteria.location;
    checks.push({
      criterion: criterionOf.location(criteria.location.place, radiusKm),
      assess: ({ text, profile }) => {
        const at = profile?.location ?? null;
        if (at === null) return none('unknown');
        const status = locationStatus(place, radiusKm, at);
        const name = at.city ?? at.region ?? at.country;
        const index = status === 'missing' ? -1 : text.toLowerCase().indexOf(name.toLowerCase());
        return { status, evidence: index < 0 ? [] : [passage(text, index, index + name.length)] };
      },
    });
  }

  if (criteria.degree !== null) {
    const asked = criteria.degree.min;
    checks.push({
      criterion: criterionOf.degree(asked),
      assess: ({ text, profile }, context) => {
        const held = profile?.degree ?? null;
        const status = byLevel(held, asked, degreeRank);
        if (status === 'unknown') return none(status);
        const mentions = degreeMentions(text, context.sections()).sort((a, b) => Number(b.level === held) - Number(a.level === held));
        return { status, evidence: status === 'missing' ? [] : passages(text, mentions.slice(0, 1)) };
      },
    });
  }

  for (const language of criteria.languages) {
    checks.push({
      criterion: criterionOf.language(language),
      assess: ({ text, profile }, context) => {
        const claimed = profile?.languages ?? [];
        if (claimed.length === 0) return none('unknown');
        if (!claimed.some((l) => l.toLowerCase() === language.toLowerCase())) return none('missing');
        const mention = languageMentions(text, context.sections()).find((m) => m.name.toLowerCase() === language.toLowerCase());
        return { status: 'met', evidence: mention ? [passage(text, mention.at, mention.at + mention.name.length)] : [] };
      },
    });
  }

  const totalWeight = checks.reduce((sum, c) => sum + c.criterion.weight, 0);
  return (cv) => {
    const context = lazyContext(cv.text, matchSkills, wanted);
    const assessed = checks.map(({ criterion, assess }) => ({ criterion, ...assess(cv, context) }));
    const earned = assessed.reduce((sum, a) => sum + a.criterion.weight * STATUS_VALUE[a.status], 0);
    return { score: totalWeight > 0 ? Math.round((earned / totalWeight) * 1e4) / 1e4 : 0, criteria: assessed };
  };
}

function lazyContext(text: string, matchSkills: ReturnType<typeof partMatcher>, wanted: ReadonlySet<string>): CvContext {
  // One analysis of the text serves the skills, their stems and the title.
  let analysed: Term[] | null = null;
  const all = () => (analysed ??= analyze(text));
  let sections: Section[] | null = null;
  let terms: Term[] | null = null;
  let skills: ReturnType<typeof matchSkills> | null = null;
  return {
    sections: () => (sections ??= splitSections(text)),
    terms: () => (terms ??= all().filter((t) => wanted.has(t.term))),
    skills: () => (skills ??= matchSkills(text, all())),
  };
}

/**
 * Where the CV places the candidate against the posting's place: a city within the radius meets
 * it, within twice the radius partly; a CV naming only its region or country meets a posting's
 * region or country it lies in, and partly a city's region.
 */
function locationStatus(place: Place, radiusKm: number, at: NonNullable<ProfileInfo['location']>): 'met' | 'partly' | 'missing' {
  const sameCountry = at.countryCode === place.countryCode;
  const sameRegion = sameCountry && place.regionCode !== null && at.regionCode === place.regionCode;
  if (place.kind === 'country') return sameCountry ? 'met' : 'missing';
  if (place.kind === 'region') return sameRegion ? 'met' : 'missing';
  if (at.kind !== 'city') return sameRegion ? 'partly' : 'missing';
  const km = distanceKm(place, at);
  return km <= radiusKm ? 'met' : km <= radiusKm * 2 ? 'partly' : 'missing';
}
