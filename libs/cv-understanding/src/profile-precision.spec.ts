import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { resolveParts } from '@cs/gazetteer';
import { describeWith, testEnvironment } from '@cs/test-services';
import { understandCv, type CvUnderstanding } from './index';
import sample from './testing/profile-sample.json';

// Precision of the profile against hand-checked CVs: a value the CV does not support fails the
// test, a null where it does say is counted as missed. The PDFs are read through pdf.js, which
// needs `npm test` (or NODE_OPTIONS=--experimental-vm-modules) for its dynamic import. Without
// ../shared/eval the global setup says so, and the cases are counted as skipped.
const EVAL = testEnvironment().evalDir ?? '';

/** One hand-checked CV: each field's supported values, null when the CV states none, absent when not checked. */
interface Expected {
  file: string;
  note: string;
  domain?: string[] | null;
  specialization?: string[] | null;
  seniorityLevel?: string[] | null;
  location?: { city: string; country: string } | null;
  email?: string | null;
  nameSha256?: string | null;
  stackPresent: string[];
  stackAbsent: string[];
}

/** What a field of one CV came to: right, wrong (a value the CV does not support), or missed (null where it states one). */
type Outcome = 'right' | 'wrong' | 'missed' | 'null as expected';

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

function judge(expected: unknown, actual: unknown, same: (a: unknown, b: unknown) => boolean = (a, b) => a === b): Outcome {
  if (expected === null) return actual === null ? 'null as expected' : 'wrong';
  if (actual === null || actual === undefined) return 'missed';
  const values = Array.isArray(expected) ? expected : [expected];
  return values.some((v) => same(v, actual)) ? 'right' : 'wrong';
}

interface Judged {
  field: string;
  outcome: Outcome;
  actual: unknown;
}

function outcomes(cv: CvUnderstanding, expected: Expected): Judged[] {
  const contact = cv.contact;
  const name =
    contact?.firstName && contact.lastName
      ? createHash('sha256').update(`${contact.firstName} ${contact.lastName}`.toLowerCase()).digest('hex')
      : null;
  const scalar: [string, unknown, unknown, ((a: unknown, b: unknown) => boolean)?][] = [
    ['domain', expected.domain, cv.profile?.domain ?? null],
    [
      'specialization',
      expected.specialization,
      cv.profile?.specialization ?? null,
      (a, b) => String(a).toLowerCase() === String(b).toLowerCase(),
    ],
    ['seniorityLevel', expected.seniorityLevel, cv.profile?.seniorityLevel ?? null],
    ['location', expected.location, contact?.location ?? null, (a, b) => JSON.stringify(a) === JSON.stringify(b)],
    // The geocoded place: right when it lies in the country the CV states.
    [
      'profile.location',
      expected.location,
      cv.profile?.location ?? null,
      (a, b) => resolveParts({ country: (a as { country: string }).country })?.countryCode === (b as { countryCode: string }).countryCode,
    ],
    ['email', expected.email, contact?.email ?? null],
    ['name', expected.nameSha256, name],
  ];
  const stack = cv.profile?.technicalStack ?? [];
  return [
    ...scalar
      .filter(([, want]) => want !== undefined)
      .map(([field, want, actual, same]) => ({ field, outcome: judge(want, actual, same), actual })),
    ...expected.stackPresent.map((skill): Judged => ({
      field: `technicalStack has ${skill}`,
      outcome: stack.includes(skill) ? 'right' : 'missed',
      actual: stack,
    })),
    ...expected.stackAbsent.map((skill): Judged => ({
      field: `technicalStack lacks ${skill}`,
      outcome: stack.includes(skill) ? 'wrong' : 'null as expected',
      actual: stack,
    })),
  ];
}

describeWith(['eval'])('profiles of 20 hand-checked CVs (../shared/eval)', () => {
  const judged: { file: string; field: string; outcome: Outcome; actual: unknown }[] = [];

  beforeAll(async () => {
    const { extractText } = await import('@cs/document-parsing');
    for (const expected of sample.cvs as Expected[]) {
      const file = path.join(EVAL, expected.file);
      const mime = MIME[path.extname(file).slice(1)] as Parameters<typeof extractText>[1];
      const text = await extractText(readFileSync(file), mime);
      const asOf = new Date(expected.file.startsWith('docx-cvs/') ? sample.asOf['docx-cvs'] : sample.asOf.livecareer);
      for (const o of outcomes(understandCv(text, asOf), expected)) judged.push({ file: expected.file, ...o });
    }
    const count = (field: (f: string) => boolean, outcome: Outcome) => judged.filter((j) => field(j.field) && j.outcome === outcome).length;
    const figures = (label: string, field: (f: string) => boolean) => {
      const [right, wrong, missed, nulls] = (['right', 'wrong', 'missed', 'null as expected'] as const).map((o) => count(field, o));
      const precision = right + wrong ? (right / (right + wrong)).toFixed(3) : 'n/a';
      const recall = right + missed ? (right / (right + missed)).toFixed(3) : 'n/a';
      return `${label.padEnd(16)} precision ${precision} recall ${recall} (right ${right}, wrong ${wrong}, null where the CV says ${missed}, null where it says nothing ${nulls})`;
    };
    const fields = ['domain', 'specialization', 'seniorityLevel', 'location', 'profile.location', 'email', 'name'];
    console.log(
      [
        'profile sample:',
        figures('all fields', () => true),
        ...fields.map((f) => figures(f, (x) => x === f)),
        figures('technicalStack', (x) => x.startsWith('technicalStack')),
      ].join('\n'),
    );
  }, 120_000);

  it('holds no value that a CV does not support (null rather than a guess)', () => {
    expect(judged.filter((j) => j.outcome === 'wrong').map((j) => `${j.file}: ${j.field} = ${JSON.stringify(j.actual)}`)).toEqual([]);
  });

  it('still finds most of what the CVs state', () => {
    const right = judged.filter((j) => j.outcome === 'right').length;
    const missed = judged.filter((j) => j.outcome === 'missed').length;
    // 0.93 when the sample was written; below 0.85, a change has stopped reading something.
    expect(right / (right + missed)).toBeGreaterThanOrEqual(0.85);
  });
});
