import { HostileHarness } from './support/hostile-harness';
import { mb, readRss } from './support/rss-sampler';

/**
 * Hostile job postings for match searches: one word 20,000 characters long or repeated to the
 * limit, a posting naming thousands of skills, criteria with 5,000, a posting in a language the
 * vocabulary does not know. Each is read in bounded time and memory, its criteria capped; the
 * search is refused with a 400 that says why, or runs to its end (completed, or failed not retryable).
 */
jest.setTimeout(300_000);

/** Longest a posting may take to be read and the search created. */
const MAX_CREATE_MS = 3000;
const MAX_GROWTH = 96 * 1024 * 1024;
/** Most skills each list of read criteria holds (MAX_SKILLS). */
const MAX_SKILLS = 30;

const SKILLS = ['Java', 'Python', 'SQL', 'Excel', 'Go', 'AWS', 'Git', 'Docker', 'React', 'Linux', 'Payroll', 'GAAP', 'SAP', 'CPR'];
/** As many comma-separated skills as 20,000 characters hold, each named again and again, and some made up. */
const manySkills = (): string => {
  const names: string[] = [];
  let length = 'Requirements\n'.length;
  for (let i = 0; length < 19_900; i++) {
    const name = i % 3 === 0 ? `Tool${i}` : SKILLS[i % SKILLS.length];
    names.push(name);
    length += name.length + 2;
  }
  return `Requirements\n${names.join(', ')}`;
};

const POSTINGS: { name: string; text: string }[] = [
  { name: 'one word of 20,000 characters', text: 'a'.repeat(20_000) },
  { name: 'one word repeated to 20,000 characters', text: 'accountant '.repeat(1818) },
  { name: 'one skill repeated on 20,000 characters of lines', text: 'Requirements\n' + '- Java\n'.repeat(2855) },
  { name: 'thousands of skills', text: manySkills() },
  {
    name: 'a posting in Finnish',
    text: 'Kirjanpitäjä\n\nEtsimme kirjanpitäjää taloushallinnon tiimiimme.\n\nVaatimukset\n- Kokemus pääkirjanpidosta\n- Tilinpäätösten laatiminen\n- Hyvä suomen kielen taito',
  },
  { name: 'a posting in Japanese', text: '経理担当者\n\n応募資格\n- 総勘定元帳の経験3年以上\n- 月次決算\n- 日商簿記2級' },
];

describe('hostile job postings', () => {
  let h: HostileHarness;
  let key = '';
  const figures: Record<string, string> = {};

  beforeAll(async () => {
    h = await HostileHarness.start('postings');
    const company = await h.createCompany('postings');
    await h.raiseLimits(company.companyId);
    key = company.apiKey;
    const ids = [
      await h.uploadText(key, 'Dana Reyes\nStaff Accountant\n\nGeneral ledger, payroll, Excel and SAP; 03/2018 to Present.', 'accountant'),
      await h.uploadText(key, 'Ivan Petrov\nSoftware Engineer\n\nJava, Python, Docker and AWS; Git and Linux.', 'engineer'),
    ];
    await h.waitForDocuments(key, ids);
  });

  afterAll(async () => {
    if (h) {
      h.report(figures);
      await h.destroy();
    }
  });

  it.each(POSTINGS)(
    'reads $name in bounded time, caps its criteria, and the search ends or is refused with a reason',
    async ({ name, text }) => {
      const started = performance.now();
      const answer = await h.call('POST', '/v1/public/searches/match', {
        key,
        json: { jobDescription: text },
        family: 'hostile posting',
        expect: { statuses: [202, 400], why: 'a posting read, or one with nothing to search by' },
      });
      const ms = performance.now() - started;
      figures[name] = `${answer.status} in ${ms.toFixed(0)} ms`;
      expect(ms).toBeLessThan(MAX_CREATE_MS);
      if (answer.status === 400) {
        expect((answer.json as { message: string }).message).toMatch(/no job title and no skill/);
        return;
      }
      expect(answer.status).toBe(202);
      const created = answer.json as { searchId: string; criteria: { skills: { required: unknown[]; preferred: unknown[] } } };
      expect(created.criteria.skills.required.length).toBeLessThanOrEqual(MAX_SKILLS);
      expect(created.criteria.skills.preferred.length).toBeLessThanOrEqual(MAX_SKILLS);
      const ended = await h.waitForSearch(key, created.searchId);
      figures[name] += `; search ${String(ended.status)}`;
      if (ended.status === 'failed') expect(ended.errorRetryable).toBe(false);
      else expect(ended.status).toBe('completed');
    },
  );

  it('refuses criteria naming 5,000 skills before any work, and keeps its memory over 50 of them', async () => {
    const criteria = {
      title: 'Engineer',
      summary: null,
      skills: { required: Array.from({ length: 5000 }, (_, i) => ({ name: `S${i}`, weight: 1 })), preferred: [] },
      experienceYears: null,
      seniority: null,
      location: null,
      degree: null,
      languages: [],
    };
    const before = readRss(h.pid) ?? 0;
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      const answer = await h.call('POST', '/v1/public/searches/match', {
        key,
        json: { criteria },
        family: 'hostile posting',
        expect: { statuses: [400, 413], why: 'more skills than criteria hold, or a body over the limit' },
      });
      expect([400, 413]).toContain(answer.status);
      expect(performance.now() - started).toBeLessThan(MAX_CREATE_MS);
    }
    const growth = (readRss(h.pid) ?? 0) - before;
    figures['5,000-skill criteria'] = `50 refused; RSS grew ${mb(growth)}`;
    expect(growth).toBeLessThan(MAX_GROWTH);
  });
});
