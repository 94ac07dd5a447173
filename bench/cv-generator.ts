/**
 * Builds any number of varied CV texts from the shared corpora, for measuring at scale (100k).
 *
 * Each real CV (livecareer and kaggle166 `resumes.jsonl`) is cut into its sections by the same
 * heading reader the service uses. A generated CV takes its headline, summary, skills,
 * experience and education from different real CVs of one category (experience from two), so
 * every text reads like a CV of that occupation. Categories are drawn in proportion to their size
 * (a small category has few combinations) and a text already made is drawn again, so no two are
 * alike: the service would keep only one of two equal uploads. A seeded generator makes the same
 * seed give the same CVs.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { splitSections, type SectionKind } from '@cs/cv-understanding';

interface Parts {
  headline: string;
  sections: Partial<Record<SectionKind, string>>;
}

const HEADINGS: [SectionKind, string][] = [
  ['summary', 'Summary'],
  ['skills', 'Skills'],
  ['experience', 'Experience'],
  ['education', 'Education'],
  ['certifications', 'Certifications'],
];

/** Park–Miller: small, seeded, good enough to pick parts. */
function random(seed: number): () => number {
  let state = seed % 2147483647 || 1;
  return () => (state = (state * 16807) % 2147483647) / 2147483647;
}

export function loadSourceCvs(evalDir: string): Map<string, Parts[]> {
  const byCategory = new Map<string, Parts[]>();
  for (const file of ['livecareer/resumes.jsonl', 'kaggle166/resumes.jsonl']) {
    for (const line of readFileSync(path.join(evalDir, file), 'utf8').split('\n')) {
      if (!line) continue;
      const { category, text } = JSON.parse(line) as { category: string; text: string };
      const sections: Partial<Record<SectionKind, string>> = {};
      for (const s of splitSections(text)) if (s.kind !== 'other' && !sections[s.kind]) sections[s.kind] = s.body;
      const list = byCategory.get(category) ?? [];
      list.push({ headline: text.split('\n')[0].trim(), sections });
      byCategory.set(category, list);
    }
  }
  return byCategory;
}

/** `count` generated CVs, as `{id, category, text}`. */
export function* generateCvs(
  sources: Map<string, Parts[]>,
  count: number,
  seed = 1,
): Generator<{ id: string; category: string; text: string }> {
  const next = random(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)];
  // One entry per source CV: drawing from it weighs each category by its size.
  const categoryOfEach = [...sources.keys()].sort().flatMap((c) => sources.get(c)!.map(() => c));
  const made = new Set<string>();
  for (let i = 0; i < count;) {
    const category = pick(categoryOfEach);
    const cvs = sources.get(category)!;
    const lines = [pick(cvs).headline];
    for (const [kind, heading] of HEADINGS) {
      const donors = [pick(cvs), ...(kind === 'experience' ? [pick(cvs)] : [])];
      const bodies = donors.map((d) => d.sections[kind]).filter((b): b is string => Boolean(b));
      if (bodies.length) lines.push(heading, ...bodies);
    }
    if (lines.length < 5) continue; // donors without those sections: not yet a CV, draw again
    const text = lines.join('\n');
    const key = createHash('sha1').update(text).digest('hex');
    if (made.has(key)) continue;
    made.add(key);
    yield { id: `gen-${seed}-${i++}`, category, text };
  }
}
