import * as path from 'node:path';
import { SentenceEmbedder, dot, loadWordVectors } from '@cs/embeddings';
import { FeatureReranker } from './feature-reranker';
import { SCORE_CALIBRATION, scoreOfZ, separateTop, standardise } from './relevance-score';

const CACHE = path.resolve(__dirname, '../../../node_modules/.cache/candidate-search/embeddings');

/** Seeded, so the candidate lists are the same on every run. */
function random(seed: number): () => number {
  return () => (seed = (seed * 16807) % 2147483647) / 2147483647;
}

const OCCUPATIONS: Record<string, { titles: string[]; lines: string[] }> = {
  accountant: {
    titles: ['Staff Accountant', 'Senior Accountant', 'Accountant', 'Accounting Specialist'],
    lines: [
      'Prepared monthly journal entries and account reconciliations.',
      'Reconciled the general ledger and bank statements each month-end close.',
      'Processed accounts payable and vendor invoices in QuickBooks.',
      'Supported the annual audit and prepared tax schedules.',
      'Maintained fixed asset registers and depreciation schedules.',
      'Prepared financial statements and variance reports for management.',
      'Reviewed expense reports and coded transactions to the chart of accounts.',
    ],
  },
  bookkeeper: {
    titles: ['Bookkeeper', 'Accounts Payable Clerk', 'Billing Specialist'],
    lines: [
      'Entered invoices and payments, kept customer accounts current.',
      'Handled payroll, deposits and petty cash for a small office.',
      'Posted receipts and followed up on overdue accounts receivable.',
      'Answered phones and filed records for the billing office.',
    ],
  },
  chef: {
    titles: ['Sous Chef', 'Line Cook', 'Kitchen Manager'],
    lines: [
      'Planned seasonal menus and ordered produce from local farms.',
      'Ran the line during dinner service for 200 covers.',
      'Trained kitchen staff on food safety and sanitation.',
      'Controlled food costs and inventory for the restaurant.',
    ],
  },
  nurse: {
    titles: ['Registered Nurse', 'Charge Nurse', 'Nurse Aide'],
    lines: [
      'Assessed patients, administered medication and charted care.',
      'Coordinated discharge plans with physicians and families.',
      'Monitored vital signs on a busy medical-surgical unit.',
      'Educated patients on chronic disease management.',
    ],
  },
  sales: {
    titles: ['Sales Associate', 'Account Executive', 'Retail Sales Manager'],
    lines: [
      'Exceeded monthly sales quota by building client relationships.',
      'Managed a territory of retail accounts and negotiated contracts.',
      'Greeted customers, handled the register and restocked shelves.',
      'Prepared quotes and followed up on leads from trade shows.',
    ],
  },
  teacher: {
    titles: ['Teacher', 'Math Teacher', 'Substitute Teacher'],
    lines: [
      'Taught algebra and geometry to classes of 30 students.',
      'Planned lessons aligned with the state curriculum.',
      'Met parents to discuss students progress and behaviour.',
      'Graded homework and prepared students for exams.',
    ],
  },
};
const COMMON = [
  'Worked with a team to meet deadlines.',
  'Used Microsoft Excel and Word daily.',
  'Received an award for customer service.',
  'Volunteered at a local food bank.',
];

/** CVs of several occupations, as a company's candidate list for one query would hold. */
function candidateList(counts: Record<string, number>, seed: number): { id: string; text: string }[] {
  const next = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  return Object.entries(counts).flatMap(([occupation, count]) =>
    Array.from({ length: count }, (_, i) => {
      const { titles, lines } = OCCUPATIONS[occupation];
      const body = Array.from({ length: 3 + Math.floor(next() * 5) }, () => pick(lines));
      return { id: `${occupation}-${i}`, text: [pick(titles), ...body, pick(COMMON), pick(COMMON)].join('\n') };
    }),
  );
}

describe('relevance scores', () => {
  it('reads a value as standard deviations above the mean, through a logistic in 0..1', () => {
    expect(Array.from(standardise([1, 2, 3]))).toEqual([-Math.sqrt(1.5), 0, Math.sqrt(1.5)]);
    expect(Array.from(standardise([4, 4]))).toEqual([0, 0]);
    expect(scoreOfZ(SCORE_CALIBRATION.centre)).toBeCloseTo(0.5, 12);
    expect(scoreOfZ(3)).toBeCloseTo(0.818, 3);
    expect(scoreOfZ(4.9)).toBeLessThan(0.99);
    expect(scoreOfZ(-50)).toBeGreaterThanOrEqual(0);
    expect(scoreOfZ(50)).toBeLessThanOrEqual(1);
  });

  it('keeps the first places apart by a thousandth, lowering near ties only, and never reorders', () => {
    expect(separateTop([0.9, 0.9, 0.9, 0.5, 0.5])).toEqual([0.9, 0.899, 0.898, 0.5, 0.499]);
    expect(separateTop([0.0005, 0.0005])).toEqual([0.0005, 0]);
    const many = Array.from({ length: 40 }, () => 0.7);
    const separated = separateTop(many);
    for (let i = 1; i < 40; i++) expect(separated[i]).toBeLessThanOrEqual(separated[i - 1]);
    expect(separated[SCORE_CALIBRATION.steppedPlaces - 1]).toBeCloseTo(0.7 - 0.001 * (SCORE_CALIBRATION.steppedPlaces - 1), 9);
  });

  describe('of the builtin reranker, over GloVe vectors', () => {
    let embedder: SentenceEmbedder;
    beforeAll(async () => {
      embedder = new SentenceEmbedder(await loadWordVectors(CACHE));
    }, 120_000);

    /** Dense's first stage: the cosine of the query and each CV, best first. */
    const firstStage = (query: string, cvs: { id: string; text: string }[]) => {
      const q = embedder.readQuery(query).vector!;
      return cvs
        .map((cv) => ({ ...cv, firstStageScore: Math.max(0, dot(q, embedder.embedDocument(cv.text)!)) }))
        .sort((a, b) => b.firstStageScore - a.firstStageScore);
    };

    it('separates the top of a realistic list: the best 10 distinct at 3 decimals, the best below 0.99', () => {
      const query = 'accountant who reconciles the general ledger and handles accounts payable';
      const cvs = candidateList({ accountant: 40, bookkeeper: 30, chef: 30, nurse: 30, sales: 40, teacher: 30 }, 11);
      const ranked = new FeatureReranker(embedder).rerank(query, firstStage(query, cvs), 100);
      const top = ranked.slice(0, 10).map((r) => r.score);
      expect(new Set(top.map((s) => s.toFixed(3))).size).toBe(10);
      expect(top[0]).toBeLessThan(0.99);
      expect(top[0]).toBeGreaterThan(0.5); // the best accountants do stand out from a mixed list
      expect(ranked.slice(0, 10).every((r) => r.id.startsWith('accountant-'))).toBe(true);
      for (let i = 1; i < ranked.length; i++) expect(ranked[i].score).toBeLessThan(ranked[i - 1].score);
      expect(ranked[ranked.length - 1].score).toBeGreaterThanOrEqual(0);
    });

    it('scores a CV that stands alone far above the rest near 1, and the others well below it', () => {
      const query = 'accountant who reconciles the general ledger and handles accounts payable';
      const cvs = [...candidateList({ accountant: 1 }, 5), ...candidateList({ chef: 60, nurse: 60, teacher: 60 }, 7)];
      const ranked = new FeatureReranker(embedder).rerank(query, firstStage(query, cvs), 10);
      expect(ranked[0].id).toBe('accountant-0');
      expect(ranked[0].score).toBeGreaterThan(0.93);
      expect(ranked[1].score).toBeLessThan(0.6);
    });
  });
});
