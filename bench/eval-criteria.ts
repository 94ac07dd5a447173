/**
 * `npm run eval:criteria`: the criteria read from job postings against the postings' labels. Each
 * posting of `jd.dev.jsonl` is read by `readJobCriteria`; a labelled `required` phrase (lower
 * case, as CVs write it, or a word's start: "reconcil") is found when a required skill read holds
 * it, case aside, in its name or in its words' analysed forms; the same for `preferred`. Prints
 * one line a posting, the phrases missed, the totals against their targets, and writes a JSON
 * report.
 *
 *   EVAL_DIR=<evaluation set> npm run eval:criteria -- [--postings FILE.jsonl] [--report FILE]
 *
 * The postings are described in the evaluation set's README ("jd.dev.jsonl").
 */
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readJobCriteria, type JobCriteria } from '@cs/job-criteria';
import { analyze } from '@cs/text-analysis';
import { EVAL_DIR } from '../e2e/support/standalone-service';
import { option } from './harness';

/** One posting as labelled (the fields this measures). */
interface Posting {
  id: string;
  category: string;
  title: string;
  text: string;
  required: string[];
  preferred: string[];
  minYears: number | null;
}

/** Postings whose every required phrase is read as required, and the share of titles and years read right. */
const TARGETS = { allRequiredFound: 10, title: 0.75, minYears: 0.75 };

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().toLowerCase();

/** Whether a labelled phrase is in one of the skills: in its name, or in its words' analysed forms, case aside. */
function found(phrase: string, skills: JobCriteria['skills']['required']): boolean {
  const wanted = phrase.toLowerCase();
  return skills.some(
    (s) =>
      s.name.toLowerCase().includes(wanted) ||
      analyze(s.name)
        .map((t) => t.term)
        .join(' ')
        .includes(wanted),
  );
}

function judge(posting: Posting) {
  const started = process.hrtime.bigint();
  const criteria = readJobCriteria(posting.text);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const requiredFound = posting.required.filter((p) => found(p, criteria.skills.required));
  const preferredFound = posting.preferred.filter((p) => found(p, criteria.skills.preferred));
  const years = criteria.experienceYears?.min ?? null;
  return {
    id: posting.id,
    ms,
    criteria,
    required: { labelled: posting.required, found: requiredFound, missed: posting.required.filter((p) => !requiredFound.includes(p)) },
    preferred: {
      labelled: posting.preferred,
      found: preferredFound,
      missed: posting.preferred.filter((p) => !preferredFound.includes(p)),
      // A nice-to-have read as a requirement is found, in the wrong list.
      asRequired: posting.preferred.filter((p) => !preferredFound.includes(p) && found(p, criteria.skills.required)),
    },
    title: { ours: criteria.title, label: posting.title, right: norm(criteria.title) === norm(posting.title) },
    minYears: { ours: years, label: posting.minYears, right: years === posting.minYears },
  };
}
type Row = ReturnType<typeof judge>;

async function main(): Promise<void> {
  const file = option('postings', path.join(EVAL_DIR, 'livecareer', 'jd.dev.jsonl'));
  if (!existsSync(file)) {
    process.stderr.write(
      `eval:criteria: no ${path.resolve(file)}: set EVAL_DIR to the evaluation set's folder (livecareer/jd.dev.jsonl; see docs/relevance.md), or name the postings with --postings.\n`,
    );
    process.exit(1);
  }
  const postings = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Posting);
  // Once before timing: the first call builds the vocabulary's tables.
  readJobCriteria('Accountant\nRequirements\n- 2+ years of SQL');
  const rows: Row[] = postings.map(judge);

  const count = (pick: (r: Row) => boolean) => rows.filter(pick).length;
  const sum = (pick: (r: Row) => number) => rows.reduce((s, r) => s + pick(r), 0);
  const totals = {
    postings: rows.length,
    allRequiredFound: { postings: count((r) => r.required.missed.length === 0), target: TARGETS.allRequiredFound },
    required: { found: sum((r) => r.required.found.length), of: sum((r) => r.required.labelled.length) },
    preferred: {
      found: sum((r) => r.preferred.found.length),
      asRequired: sum((r) => r.preferred.asRequired.length),
      of: sum((r) => r.preferred.labelled.length),
    },
    skillsRead: { required: sum((r) => r.criteria.skills.required.length), preferred: sum((r) => r.criteria.skills.preferred.length) },
    title: { right: count((r) => r.title.right), of: rows.length, target: TARGETS.title },
    minYears: { right: count((r) => r.minYears.right), of: rows.length, target: TARGETS.minYears },
    msPerPosting: { max: Math.max(...rows.map((r) => r.ms)), total: sum((r) => r.ms) },
  };

  const out = (s: string) => process.stdout.write(`${s}\n`);
  const mark = (right: boolean) => (right ? ' ' : '✗');
  out(`${'posting'.padEnd(28)} ${'required'.padEnd(9)} ${'preferred'.padEnd(10)} ${'read req/pref'.padEnd(14)} ${'years'.padEnd(8)} title`);
  for (const r of rows) {
    const required = `${mark(r.required.missed.length === 0)}${r.required.found.length}/${r.required.labelled.length}`;
    const preferred = `${r.preferred.found.length}/${r.preferred.labelled.length}`;
    const read = `${r.criteria.skills.required.length}/${r.criteria.skills.preferred.length}`;
    const years = `${mark(r.minYears.right)}${r.minYears.ours ?? '-'}/${r.minYears.label ?? '-'}`;
    const title = `${mark(r.title.right)}${r.title.ours ?? '(none)'}`;
    out(`${r.id.padEnd(28)} ${required.padEnd(9)} ${preferred.padEnd(10)} ${read.padEnd(14)} ${years.padEnd(8)} ${title}`);
  }
  const t = totals;
  const line = (name: string, value: string, target?: string) => out(`${name.padEnd(40)} ${value}${target ? `  (target ${target})` : ''}`);
  out('');
  line('postings with every required phrase', `${t.allRequiredFound.postings}/${t.postings}`, `${t.allRequiredFound.target}/${t.postings}`);
  line('required phrases found as required', `${t.required.found}/${t.required.of}`);
  line('preferred phrases found as preferred', `${t.preferred.found}/${t.preferred.of} (${t.preferred.asRequired} more as required)`);
  line('skills read, required / preferred', `${t.skillsRead.required} / ${t.skillsRead.preferred}`);
  line('title equal', `${t.title.right}/${t.title.of}`, `${Math.ceil(t.title.target * t.title.of)}/${t.title.of}`);
  line('minYears equal', `${t.minYears.right}/${t.minYears.of}`, `${Math.ceil(t.minYears.target * t.minYears.of)}/${t.minYears.of}`);
  line('milliseconds, slowest / all', `${t.msPerPosting.max.toFixed(1)} / ${t.msPerPosting.total.toFixed(1)}`);
  const missed = rows.filter((r) => r.required.missed.length || r.preferred.missed.length);
  if (missed.length) {
    out('\nphrases missed (required | preferred)');
    for (const r of missed) out(`  ${r.id}: ${r.required.missed.join(', ') || '-'} | ${r.preferred.missed.join(', ') || '-'}`);
  }

  const reportFile = option('report', path.join(process.cwd(), 'tmp', 'eval-criteria.json'));
  await fs.mkdir(path.dirname(reportFile), { recursive: true });
  await fs.writeFile(reportFile, JSON.stringify({ postings: path.resolve(file), totals, rows }, null, 2));
  out(`\nreport: ${reportFile}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:criteria: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
