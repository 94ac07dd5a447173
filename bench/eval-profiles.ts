/**
 * `npm run eval:profiles`: the profile read at ingestion against CVs read by hand. Each labelled
 * CV is read as the service reads it (a livecareer PDF through the text extractor, a kaggle166
 * record as an uploaded text file) and understood as of its `presentAs` (the document date the
 * labels read "Present" as). Prints one line a CV and the totals against their targets, lists the
 * skills not written in their CV (for a human to judge), and writes a JSON report.
 *
 *   EVAL_DIR=<evaluation set> npm run eval:profiles -- [--labels FILE.jsonl] [--report FILE]
 *
 * The labels are described in the evaluation set's README ("profiles.labels.dev.jsonl").
 */
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { understandCv, type CvUnderstanding } from '@cs/cv-understanding';
import { TextExtractor } from '@cs/document-parsing';
import { SKILL_SYNONYMS } from '@cs/text-analysis';
import { EVAL_DIR } from '../e2e/support/standalone-service';
import { option } from './harness';

/** One CV read by hand (the fields this measures; a field left out was not labelled, and is not counted). */
interface Label {
  corpus: 'livecareer' | 'kaggle166';
  id: string;
  category: string;
  experienceYears: number | null;
  experienceYearsRange: [number, number] | null;
  ranges: [string, string][];
  presentAs: string | null;
  latestTitle?: string | null;
  seniority?: string | null;
  location: string | null;
  skills?: string[];
  degree: string | null;
  languages: string[];
}

/** "Present" of a CV whose labels give none: it has no open range, so any later date reads it alike. */
const DEFAULT_AS_OF = new Date(Date.UTC(2022, 0, 31));
const YEARS_TOLERANCE = 1;
const TARGETS = { years: 0.8, location: 0.9, precision: 0.95 };

/** The last day of the month the labels read "Present" as ("2019" is January 2019), as the service reads a `documentDate`. */
function asOfFor(presentAs: string | null): Date {
  if (!presentAs) return DEFAULT_AS_OF;
  const [year, month = 1] = presentAs.split('-').map(Number);
  return new Date(Date.UTC(year, month, 0));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+');

/** A skill's names: itself and the vocabulary's synonyms of it, lower case. */
function namesOf(skill: string): string[] {
  const name = skill.toLowerCase();
  const names = new Set([name]);
  for (const [canonical, variants] of Object.entries(SKILL_SYNONYMS)) {
    if (canonical === name || variants.includes(name)) [canonical, ...variants].forEach((n) => names.add(n));
  }
  return [...names];
}

/** Whether one of the skill's names is written in the text, case-insensitive, as a word (or its plural). */
function writtenIn(text: string, skill: string): boolean {
  return namesOf(skill).some((n) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(n)}(?:s|es)?(?![\\p{L}\\p{N}])`, 'iu').test(text));
}

/** Whether a hand-labelled skill ("microsoft office suite") is, or holds as words, one of the names of the skills we list. */
function labelledSkillFound(labelled: string, ours: readonly string[]): boolean {
  return ours
    .flatMap(namesOf)
    .some((n) => n === labelled || new RegExp(`(?<![\\p{L}\\p{N}])${escape(n)}(?![\\p{L}\\p{N}])`, 'iu').test(labelled));
}

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

/** The location the profile reads, as "City, Region": the profile's own when it has one, else the contact's. */
function locationOf(cv: CvUnderstanding): string | null {
  const own = (cv.profile as { location?: unknown } | null)?.location;
  if (typeof own === 'string') return own;
  const place = (own ?? cv.contact?.location ?? null) as { city: string | null; country: string | null } | null;
  return place ? [place.city, place.country].filter(Boolean).join(', ') : null;
}

async function readText(label: Label, extractor: TextExtractor, kaggle: Map<string, string>): Promise<string> {
  if (label.corpus === 'kaggle166') {
    const text = kaggle.get(label.id);
    if (text === undefined) throw new Error(`kaggle166/resumes.jsonl has no CV ${label.id}`);
    return extractor.extract(Buffer.from(text), 'text/plain', 'eval');
  }
  const file = path.join(EVAL_DIR, 'livecareer', 'pdf', label.category, `${label.id}.pdf`);
  return extractor.extract(readFileSync(file), 'application/pdf', 'eval');
}

/** One labelled CV as the service reads it, field by field against its labels. */
function judge(label: Label, text: string) {
  const cv = understandCv(text, asOfFor(label.presentAs));
  const profile = cv.profile;
  const years = profile?.experienceYears ?? null;
  const dated = label.ranges.length > 0 && label.experienceYears !== null;
  const [low, high] = label.experienceYearsRange ?? [label.experienceYears ?? 0, label.experienceYears ?? 0];
  const yearsRight = dated && years !== null && years >= low - YEARS_TOLERANCE && years <= high + YEARS_TOLERANCE;
  const skills = profile?.skills ?? [];
  const unwritten = skills.filter((s) => !writtenIn(text, s));
  const labelledSkills = label.skills ?? [];
  const labelledFound = labelledSkills.filter((s) => labelledSkillFound(s, skills));
  const languages = (profile?.languages ?? []).filter((l) => l !== 'English');
  const labelledLanguages = label.languages.filter((l) => l !== 'English');
  const location = locationOf(cv);
  return {
    id: label.id,
    corpus: label.corpus,
    years: { ours: years, label: label.experienceYears, range: label.experienceYearsRange, dated, right: yearsRight },
    seniority: {
      ours: profile?.seniorityLevel ?? null,
      label: label.seniority,
      labelled: label.seniority !== undefined,
      right: (profile?.seniorityLevel ?? null) === label.seniority,
    },
    location: { ours: location, label: label.location, right: norm(location) === norm(label.location) },
    title: {
      ours: profile?.specialization ?? null,
      label: label.latestTitle,
      labelled: label.latestTitle !== undefined,
      right: norm(profile?.specialization) === norm(label.latestTitle),
    },
    skills: { ours: skills, unwritten, labelled: labelledSkills, labelledFound },
    degree: { ours: profile?.degree ?? null, label: label.degree, right: (profile?.degree ?? null) === label.degree },
    languages: {
      ours: languages,
      label: labelledLanguages,
      right: languages.filter((l) => labelledLanguages.includes(l)),
    },
  };
}
type Row = ReturnType<typeof judge>;

const ratio = (n: number, d: number) => (d ? n / d : null);
const fmt = (r: number | null) => (r === null ? 'n/a' : r.toFixed(3));

async function main(): Promise<void> {
  const labelsFile = option('labels', path.join(EVAL_DIR, 'profiles.labels.dev.jsonl'));
  const kaggleFile = path.join(EVAL_DIR, 'kaggle166', 'resumes.jsonl');
  const absent = [labelsFile, kaggleFile, path.join(EVAL_DIR, 'livecareer', 'pdf')].filter((f) => !existsSync(f));
  if (absent.length) {
    process.stderr.write(
      `eval:profiles: no ${absent.map((f) => path.resolve(f)).join(', ')}: set EVAL_DIR to the evaluation set's folder (profiles.labels.dev.jsonl, livecareer/pdf, kaggle166/resumes.jsonl; see docs/relevance.md), or name the labels with --labels.\n`,
    );
    process.exit(1);
  }
  const labels = readFileSync(labelsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Label);
  const kaggle = new Map(
    readFileSync(kaggleFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; text: string })
      .map(({ id, text }) => [id, text]),
  );

  const extractor = new TextExtractor(0);
  const rows: Row[] = [];
  for (const label of labels) rows.push(judge(label, await readText(label, extractor, kaggle)));
  await extractor.close();

  const count = (pick: (r: Row) => boolean) => rows.filter(pick).length;
  const sum = (pick: (r: Row) => number) => rows.reduce((s, r) => s + pick(r), 0);
  const datedRows = rows.filter((r) => r.years.dated);
  const totals = {
    cvs: rows.length,
    years: { right: count((r) => r.years.dated && r.years.right), of: datedRows.length, target: TARGETS.years },
    yearsNullWithoutDates: { right: count((r) => !r.years.dated && r.years.ours === null), of: rows.length - datedRows.length },
    seniority: { right: count((r) => r.seniority.labelled && r.seniority.right), of: count((r) => r.seniority.labelled) },
    location: { right: count((r) => r.location.right), of: rows.length, target: TARGETS.location },
    title: { right: count((r) => r.title.labelled && r.title.right), of: count((r) => r.title.labelled) },
    skills: {
      listed: sum((r) => r.skills.ours.length),
      written: sum((r) => r.skills.ours.length - r.skills.unwritten.length),
      labelled: sum((r) => r.skills.labelled.length),
      labelledFound: sum((r) => r.skills.labelledFound.length),
      target: TARGETS.precision,
    },
    degree: {
      right: count((r) => r.degree.right),
      of: rows.length,
      stated: count((r) => r.degree.ours !== null),
      statedRight: count((r) => r.degree.ours !== null && r.degree.right),
      labelled: count((r) => r.degree.label !== null),
      target: TARGETS.precision,
    },
    languages: {
      listed: sum((r) => r.languages.ours.length),
      right: sum((r) => r.languages.right.length),
      labelled: sum((r) => r.languages.label.length),
      target: TARGETS.precision,
    },
  };

  const out = (s: string) => process.stdout.write(`${s}\n`);
  const mark = (right: boolean) => (right ? ' ' : '✗');
  out(
    `${'cv'.padEnd(10)} ${'years ours/label'.padEnd(20)} ${'seniority'.padEnd(18)} ${'degree'.padEnd(24)} ${'languages'.padEnd(14)} skills`,
  );
  for (const r of rows) {
    const years = r.years.dated ? `${mark(r.years.right)}${r.years.ours ?? '-'}/${r.years.label}` : ` ${r.years.ours ?? '-'}/(undated)`;
    const seniority = `${mark(r.seniority.right || !r.seniority.labelled)}${r.seniority.ours ?? '-'}/${r.seniority.label ?? '-'}`;
    const degree = `${mark(r.degree.right)}${r.degree.ours ?? '-'}/${r.degree.label ?? '-'}`;
    const languagesRight = r.languages.right.length === r.languages.ours.length && r.languages.right.length === r.languages.label.length;
    const languages = `${mark(languagesRight)}${r.languages.ours.length}/${r.languages.label.length}`;
    const skills = `${r.skills.ours.length} listed, ${r.skills.unwritten.length} unwritten, label ${r.skills.labelledFound.length}/${r.skills.labelled.length}`;
    out(`${r.id.padEnd(10)} ${years.padEnd(20)} ${seniority.padEnd(18)} ${degree.padEnd(24)} ${languages.padEnd(14)} ${skills}`);
  }
  const t = totals;
  const line = (name: string, value: string, target?: number) => out(`${name.padEnd(34)} ${value}${target ? `  (target ${target})` : ''}`);
  out('');
  line('years within ±1 (CVs with dates)', `${t.years.right}/${t.years.of} = ${fmt(ratio(t.years.right, t.years.of))}`, t.years.target);
  line('years null where no dates', `${t.yearsNullWithoutDates.right}/${t.yearsNullWithoutDates.of}`);
  line('seniority equal', `${t.seniority.right}/${t.seniority.of} = ${fmt(ratio(t.seniority.right, t.seniority.of))}`);
  line(
    'location equal (or both null)',
    `${t.location.right}/${t.location.of} = ${fmt(ratio(t.location.right, t.location.of))}`,
    t.location.target,
  );
  line('headline = latest title', `${t.title.right}/${t.title.of} = ${fmt(ratio(t.title.right, t.title.of))}`);
  line(
    'skills precision (written in CV)',
    `${t.skills.written}/${t.skills.listed} = ${fmt(ratio(t.skills.written, t.skills.listed))}`,
    t.skills.target,
  );
  line(
    'skills recall of the labels',
    `${t.skills.labelledFound}/${t.skills.labelled} = ${fmt(ratio(t.skills.labelledFound, t.skills.labelled))}`,
  );
  line('degree equal', `${t.degree.right}/${t.degree.of} = ${fmt(ratio(t.degree.right, t.degree.of))}`);
  line(
    'degree precision',
    `${t.degree.statedRight}/${t.degree.stated} = ${fmt(ratio(t.degree.statedRight, t.degree.stated))}`,
    t.degree.target,
  );
  line('degree recall', `${t.degree.statedRight}/${t.degree.labelled} = ${fmt(ratio(t.degree.statedRight, t.degree.labelled))}`);
  line(
    'languages precision (but English)',
    `${t.languages.right}/${t.languages.listed} = ${fmt(ratio(t.languages.right, t.languages.listed))}`,
    t.languages.target,
  );
  line(
    'languages recall (but English)',
    `${t.languages.right}/${t.languages.labelled} = ${fmt(ratio(t.languages.right, t.languages.labelled))}`,
  );
  const unwritten = rows.filter((r) => r.skills.unwritten.length);
  if (unwritten.length) {
    out('\nskills listed but not written in the CV (name or synonym, as a word): judge by hand');
    for (const r of unwritten) out(`  ${r.id}: ${r.skills.unwritten.join(', ')}`);
  }
  const wrongLanguages = rows.filter(
    (r) => r.languages.ours.length > r.languages.right.length || r.languages.label.length > r.languages.right.length,
  );
  if (wrongLanguages.length) {
    out('\nlanguages that differ (ours / label)');
    for (const r of wrongLanguages) out(`  ${r.id}: ${r.languages.ours.join(', ') || '-'} / ${r.languages.label.join(', ') || '-'}`);
  }

  const reportFile = option('report', path.join(process.cwd(), 'tmp', 'eval-profiles.json'));
  await fs.mkdir(path.dirname(reportFile), { recursive: true });
  await fs.writeFile(reportFile, JSON.stringify({ labels: path.resolve(labelsFile), totals, rows }, null, 2));
  out(`\nreport: ${reportFile}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:profiles: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
