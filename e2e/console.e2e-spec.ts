import { spawnSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { FIXTURE_CVS, fixtureCvFile, textlessPdf, txtCv } from '@cs/document-parsing/testing';
import { describeWith, testEnvironment } from '@cs/test-services';
import { ApiClient } from './support/api-client';
import { TEXT, adminApi, createCompany } from './support/fixtures';
import { ROOT } from './support/local-ports';
import { MODES, describeMode, type ServiceUnderTest } from './support/service-under-test';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(300_000);

// The page.evaluate callbacks run in the browser: this program has Node's types, not the DOM's.
declare const document: any, window: any, sessionStorage: any, DataTransfer: any, DragEvent: any, getComputedStyle: any;

/** CI keeps this folder as an artifact: one screenshot per screen. */
const ARTIFACTS = path.join(ROOT, 'tmp/artifacts/console');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const KEY_STORAGE = 'candidate-search-console.api-key';
const FINAL_PHASES = ['completed', 'duplicate', 'invalid', 'failed', 'refused'];
const SEARCH_TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank'];
/** A file name and CV text that would run script if the page ever parsed API text as HTML. */
const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">.txt';
const HOSTILE_TEXT = `Accountant <script>window.__pwned=2</script>
Senior accountant <img src=x onerror="window.__pwned=3"> with general ledger reconciliations, month-end close,
accounts payable and statutory reporting for manufacturing companies over ten years.`;

/** Software CVs for the filter panel: skills, levels, degrees and places that differ, so its counts differ from choice to choice. */
const ENGINEERS: [name: string, title: string, place: string, from: number, skills: string[], degree: string][] = [
  ['Ana Torres', 'Senior Software Engineer', 'Austin, TX', 2012, ['Java', 'Kubernetes', 'AWS'], 'Bachelor of Science in Computer Science'],
  ['Ben Carter', 'Software Engineer', 'Round Rock, TX', 2019, ['Java', 'PHP', 'MySQL'], 'Master of Science in Software Engineering'],
  ['Chen Wei', 'Lead Data Engineer', 'Berlin, Germany', 2008, ['Python', 'Spark', 'Kubernetes'], 'PhD in Computer Science'],
  ['Dana Brooks', 'Junior Software Engineer', 'Denver, CO', 2023, ['Java', 'JavaScript'], 'Associate of Applied Science in Programming'],
  ['Eli Novak', 'Senior Software Engineer', 'Seattle, WA', 2010, ['Go', 'Kubernetes', 'PostgreSQL'], 'Bachelor of Arts in Mathematics'],
  ['Gus Imai', 'Senior Software Engineer', 'San Jose, CA', 2005, ['C++', 'Java', 'AWS'], 'Master of Science in Electrical Engineering'],
];
const engineerCv = ([name, title, place, from, skills, degree]: (typeof ENGINEERS)[number], i: number) =>
  [
    name,
    title,
    `${place} | ${name.toLowerCase().replace(' ', '.')}@example.com | (512) 555-01${10 + i}`,
    '',
    'SUMMARY',
    `${title} building reliable software engineering services with ${skills.join(', ')}.`,
    '',
    'EXPERIENCE',
    `${title}, Example Systems ${i}`,
    `01/${from} - 10/2025`,
    `Engineered services in ${skills.join(' and ')}; reviewed code and mentored engineers.`,
    '',
    'EDUCATION',
    degree,
    '',
    'SKILLS',
    skills.join(', '),
  ].join('\n');
const DEGREES = ['none', 'high-school', 'associate', 'bachelor', 'master', 'doctorate'];
const SENIORITY = ['executive', 'director', 'manager', 'lead', 'senior', 'mid', 'junior', 'intern'];

interface DropFile {
  name: string;
  type: string;
  base64: string;
}
const dropFile = (name: string, type: string, bytes: Buffer): DropFile => ({ name, type, base64: bytes.toString('base64') });

/** axe-core's findings on each screen checked, by the screen's URL and width: kept as CI's `axe-report.json`. */
const axeReport: { url: string; width: number; violations: { id: string; impact: string; nodes: number }[] }[] = [];

/** Serious or critical accessibility violations of the page as it stands, as readable lines. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  axeReport.push({
    url: page.url(),
    width: page.viewportSize()?.width ?? 0,
    violations: (result.violations as any[]).map((v) => ({ id: v.id, impact: v.impact, nodes: (v.nodes as any[]).length })),
  });
  await fs.writeFile(path.join(ARTIFACTS, 'axe-report.json'), `${JSON.stringify(axeReport, null, 2)}\n`);
  return (result.violations as any[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${(v.nodes as any[]).map((n) => n.target.join(' ')).join('; ')}`);
}

async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Tabs until the element with `id` has focus (true), or gives up after `presses`. */
async function tabTo(page: Page, id: string, presses = 25): Promise<boolean> {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.id === wanted, id)) return true;
  }
  return false;
}

describeWith(['chromium'])('the search console in a browser', () => {
  let service: StandaloneService;
  let browser: Browser;
  let apiKey = '';
  let companyId = '';
  let base = '';
  /** Every URL any page of the suite asked for, to prove nothing left our origin. */
  const requested: { method: string; url: string; body: string | null }[] = [];
  const pageErrors: string[] = [];

  const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.on('request', (request) => requested.push({ method: request.method(), url: request.url(), body: request.postData() }));
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return { context, page };
  };

  const signIn = async (page: Page) => {
    await page.goto(`${base}/console`);
    await page.fill('#api-key', apiKey);
    await page.click('#key-form button[type=submit]');
    await page.waitForSelector('#workspace:not([hidden])');
  };

  /** Signs in and compares the accountant's query through the four types, 10 results each, until the overlap shows. */
  const searchAccountants = async (page: Page) => {
    await signIn(page);
    await page.fill('#query', 'accountant, general ledger, reconciliations');
    await page.fill('#result-count', '10');
    await page.check('input[name="search-view"][value="compare"]');
    await page.click('#search-button');
    await page.waitForSelector('#overlap:not([hidden])', { timeout: 150_000 });
  };

  const phaseOf = (page: Page, fileName: string) =>
    page.locator('.upload', { has: page.locator('.file-name', { hasText: fileName }) }).first();

  beforeAll(async () => {
    await fs.mkdir(ARTIFACTS, { recursive: true });
    // Saved searches run again soon after a CV is read.
    service = await StandaloneService.start({ SAVED_SEARCHES_POLL_MS: '200' });
    base = service.baseUrl;
    const company = await createCompany(service, 'console');
    apiKey = company.apiKey;
    companyId = company.companyId;
    // Two search groups and the polling of a dozen documents fit the default limits, but only just.
    for (const [category, limit] of [
      ['read', 10_000],
      ['search', 100],
    ] as const)
      await adminApi(service, 'PUT', `/companies/${company.companyId}/limits/${category}`, { limit });
    browser = await chromium.launch({ executablePath: testEnvironment().chromiumPath!, headless: true });
  });

  afterAll(async () => {
    await browser?.close();
    await service?.destroy();
  });

  it('serves the page and its files with a strict policy, caching by content, and 404 or 405 beside them', async () => {
    const page = await fetch(`${base}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "require-trusted-types-for 'script'",
    ])
      expect(csp).toContain(directive);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await page.text();
    // No inline script or style, and nothing from another origin.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)|<style|\bstyle=|\bon[a-z]+=|https?:\/\//i);
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(3);
    for (const asset of assets) {
      const answer = await fetch(`${base}${asset}`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.get('content-type')).toMatch(/^(text\/javascript|text\/css|image\/svg\+xml)/);
    }
    const head = await fetch(`${base}/console/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const post = await fetch(`${base}/console`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toEqual({ error: 'method_not_allowed', message: expect.any(String) });
    const missing = await fetch(`${base}/console/missing.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toBe('not_found');
    // The API beside it is unchanged: still authenticated first.
    expect((await fetch(`${base}/v1/public/console`)).status).toBe(401);
  });

  it('asks for a key, and refuses a wrong one with the API’s message (401)', async () => {
    const { context, page } = await newPage();
    await page.goto(`${base}/console`);
    await expect(page.isVisible('#key-screen')).resolves.toBe(true);
    await expect(page.isVisible('#workspace')).resolves.toBe(false);
    await screenshot(page, '1-key');
    expect(await axeViolations(page)).toEqual([]);

    await page.fill('#api-key', 'csk_not-a-key');
    await page.click('#key-form button[type=submit]');
    await page.waitForFunction(() => /401/.test(document.getElementById('key-error')?.textContent ?? ''));
    expect(await page.textContent('#key-error')).toMatch(/The API refused this key \(401\): .*API key/);
    expect(await page.evaluate((k) => sessionStorage.getItem(k), KEY_STORAGE)).toBeNull();
    await screenshot(page, '2-key-refused');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('uploads CVs dropped on the zone or picked, following each to completed, duplicate or invalid with the API’s message', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    await page.click('nav.views a[data-view="library"]');
    await page.waitForSelector('#view-library:not([hidden])');
    expect(await page.evaluate((k) => sessionStorage.getItem(k), KEY_STORAGE)).toBe(apiKey);
    expect(await page.textContent('#key-label')).toBe(`Key ${apiKey.slice(0, 8)}…`);

    const textOf = (profession: string) => FIXTURE_CVS.find((cv) => cv.profession === profession)!.text;
    const accountant = await fixtureCvFile(textOf('accountant'), 'pdf');
    const developer = await fixtureCvFile(textOf('developer'), 'docx');
    const chef = await fixtureCvFile(textOf('chef'), 'doc');
    const teacher = await fixtureCvFile(textOf('teacher'), 'txt');
    const dropped = [
      dropFile('accountant.pdf', accountant.mime, accountant.bytes),
      dropFile('developer.docx', developer.mime, developer.bytes),
      dropFile('chef.doc', chef.mime, chef.bytes),
      dropFile('teacher.txt', teacher.mime, teacher.bytes),
      dropFile(HOSTILE_NAME, 'text/plain', txtCv(HOSTILE_TEXT)),
      dropFile('accountant-again.pdf', accountant.mime, accountant.bytes),
      dropFile('scan.pdf', 'application/pdf', await textlessPdf()),
    ];
    // A real drop: a DataTransfer holding File objects, through dragenter, dragover and drop.
    await page.evaluate((files: DropFile[]) => {
      const transfer = new DataTransfer();
      for (const file of files) {
        const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      const zone = document.getElementById('drop-zone')!;
      for (const type of ['dragenter', 'dragover', 'drop'])
        zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, dropped);
    // Over 4 MB goes through the presigned route; this one is past the API's text bound.
    const big = Buffer.concat([txtCv(textOf('nurse')), Buffer.alloc(4_300_000, 'lorem ipsum ')]);
    await page.setInputFiles('#file-input', { name: 'huge.txt', mimeType: 'text/plain', buffer: big });

    await page.waitForFunction(
      ({ count, final }) => {
        const lines = [...document.querySelectorAll('.upload')];
        return lines.length === count && lines.every((line) => final.includes(line.dataset.phase ?? ''));
      },
      { count: dropped.length + 1, final: FINAL_PHASES },
      { timeout: 180_000, polling: 500 },
    );
    const phases = Object.fromEntries(
      await page.$$eval('.upload', (lines) =>
        lines.map((line) => [
          line.querySelector('.file-name')?.textContent ?? '',
          [line.dataset.phase, line.querySelector('.route')?.textContent, line.querySelector('.upload-message')?.textContent],
        ]),
      ),
    );
    expect(phases).toEqual({
      'accountant.pdf': ['completed', 'direct upload', expect.any(String)],
      'developer.docx': ['completed', 'direct upload', expect.any(String)],
      'chef.doc': ['completed', 'direct upload', expect.any(String)],
      'teacher.txt': ['completed', 'direct upload', expect.any(String)],
      [HOSTILE_NAME]: ['completed', 'direct upload', expect.any(String)],
      'accountant-again.pdf': ['duplicate', 'direct upload', expect.stringContaining('uploaded before')],
      'scan.pdf': ['invalid', 'direct upload', expect.stringMatching(/text/i)],
      'huge.txt': ['invalid', 'presigned upload', expect.stringContaining('1,000,000 characters')],
    });
    expect(await phaseOf(page, 'accountant.pdf').locator('.phase').textContent()).toBe('completed');
    // The routes taken: direct for the small files; ask, PUT (to this origin, without the key), finalize for the big one.
    const uploads = requested
      .filter((r) => /\/documents\/upload|\/uploads\//.test(r.url))
      .map((r) => `${r.method} ${new URL(r.url).pathname}`);
    expect(uploads.filter((u) => u.endsWith('/upload-direct'))).toHaveLength(dropped.length);
    expect(uploads.filter((u) => !u.endsWith('/upload-direct'))).toEqual([
      'POST /v1/public/documents/upload-presigned',
      expect.stringMatching(/^PUT \/uploads\/[0-9a-f-]{36}$/),
      'POST /v1/public/documents/upload-presigned-finalize',
    ]);
    // The live region told the last outcome.
    expect(await page.textContent('#upload-summary')).toMatch(/: (completed|duplicate|invalid)/);
    await screenshot(page, '3-uploads');
    expect(await axeViolations(page)).toEqual([]);

    // The library followed them to their final states, newest first.
    const rows = () =>
      page.$$eval('#library-rows tr[data-document-id]', (trs) =>
        trs.map((tr) => [tr.querySelector('td')?.textContent ?? '', tr.querySelector('.doc-status')?.textContent ?? '']),
      );
    await page.waitForFunction(
      (count) => {
        const statuses = [...document.querySelectorAll('#library-rows .doc-status')].map((td) => td.textContent);
        return statuses.length === count && statuses.every((s) => ['completed', 'invalid', 'failed'].includes(s ?? ''));
      },
      dropped.length,
      { timeout: 60_000, polling: 250 },
    );
    const listed = await rows();
    expect(listed).toHaveLength(dropped.length); // the duplicate is the accountant's document
    expect(listed).toEqual(
      expect.arrayContaining([
        ['scan', 'invalid'],
        ['huge', 'invalid'],
        ['accountant', 'completed'],
      ]),
    );
    // Found by name, ordered by name, deleted after a confirmation.
    await page.fill('#library-name', 'ACCOUNT');
    await page.click('#library-form button[type=submit]');
    await page.waitForFunction(() => /named like/.test(document.getElementById('library-status')?.textContent ?? ''));
    expect(await rows()).toEqual([['accountant', 'completed']]);
    await page.fill('#library-name', '');
    await page.selectOption('#library-sort', 'name');
    await page.waitForFunction(() => /in all/.test(document.getElementById('library-status')?.textContent ?? ''));
    const byName = (await rows()).map(([name]) => name);
    expect(byName).toEqual([...byName].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    await screenshot(page, '3-library');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 800, height: 900 });
    await screenshot(page, '3-library-800');
    await page.setViewportSize({ width: 1280, height: 900 });
    page.once('dialog', (dialog) => void dialog.accept());
    await page.click('#library-rows button[aria-label="Delete scan"]');
    await page.waitForFunction(() => /“scan” deleted/.test(document.getElementById('library-status')?.textContent ?? ''));
    expect((await rows()).map(([name]) => name)).not.toContain('scan');
    await context.close();
  });

  it('runs one query through the four types side by side, with ranks, scores per stage, highlights, profiles and the overlap', async () => {
    const { context, page } = await newPage();
    await searchAccountants(page);

    const columns = await page.$$eval('.column', (sections) =>
      sections.map((section) => ({
        type: section.querySelector('h3')?.textContent,
        status: section.querySelector('.column-status')?.textContent ?? '',
        results: [...section.querySelectorAll('.result')].map((card) => ({
          id: card.dataset.documentId,
          rank: card.querySelector('.rank')?.textContent,
          name: card.querySelector('.document-name')?.textContent,
          score: Number(card.querySelector('.score')?.textContent),
          stages: [...card.querySelectorAll('.stage-scores dt')].map((dt) => dt.textContent),
          marks: card.querySelectorAll('.highlight mark').length,
          terms: card.querySelector('.terms')?.textContent ?? '',
          chips: [...card.querySelectorAll('.chips li')].map((chip) => chip.textContent),
          foundBy: card.querySelector('.found-by')?.textContent ?? '',
        })),
      })),
    );
    expect(columns.map((c) => c.type)).toEqual(SEARCH_TYPES);
    const stagesOf: Record<string, string[]> = {
      dense: ['dense'],
      sparse: ['sparse'],
      hybrid: ['dense', 'sparse', 'fused', 'rerank'],
      'builtin-rerank': ['dense', 'rerank'],
    };
    for (const column of columns) {
      expect(column.status).toMatch(/^completed: \d+ CVs? in \d+ ms/);
      expect(column.results.length).toBeGreaterThan(0);
      expect(column.results.map((r) => r.rank)).toEqual(column.results.map((_, i) => `#${i + 1}`));
      for (const result of column.results) {
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score).toBeLessThanOrEqual(1);
        // Each stage the type runs, as far as the result carries it (a CV one hybrid leg missed lacks that leg's score).
        expect(stagesOf[column.type!]).toEqual(expect.arrayContaining(result.stages));
        expect(result.foundBy).toMatch(/^(Also found by|Only)/);
      }
      // The accountant CV leads, with its matched terms, a marked highlight and its profile.
      const accountant = column.results.find((r) => r.name === 'accountant');
      expect(accountant).toBeDefined();
      expect(accountant!.terms).toContain('accountant');
      expect(accountant!.marks).toBeGreaterThan(0);
      expect(accountant!.chips).toContain('Domain: Accounting and finance');
    }
    const hybridTop = columns[2].results[0];
    expect(hybridTop.stages).toEqual(expect.arrayContaining(['fused', 'rerank']));

    // The overlap: the accountant CV was found by all four, and the six pairs are listed.
    expect(await page.textContent('.overlap-summary')).toMatch(
      /^\d+ CVs? found by all 4 completed searches; \d+ found by more than one\.$/,
    );
    expect(await page.$$eval('.found-by-all li', (items) => items.map((i) => i.textContent))).toContain('accountant');
    expect(await page.locator('.pairs tbody tr').count()).toBe(6);
    expect(await page.textContent('#search-status')).toMatch(/^Done: 4 of 4 searches listed\./);

    // Pointing at a CV marks it in every column that found it.
    const accountantId = columns[0].results.find((r) => r.name === 'accountant')!.id!;
    await page.hover(`.column-dense .result[data-document-id="${accountantId}"]`);
    const linked = await page.$$eval('.result.linked', (cards) => cards.map((c) => c.dataset.documentId));
    expect(linked).toEqual([accountantId, accountantId, accountantId, accountantId]);

    // Hostile CV text and names stay text: no element, no script ran.
    const hostile = columns.flatMap((c) => c.results).find((r) => r.name === HOSTILE_NAME.replace(/\.txt$/, ''));
    expect(hostile).toBeDefined();
    expect(await page.locator('#columns img, #columns script').count()).toBe(0);
    expect(await page.textContent('#columns')).toContain('<script>window.__pwned=2</script>');
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
    await screenshot(page, '4-results');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('runs "More like this" from a result card: the CVs most like it in a panel of their own, never itself, the four columns unchanged', async () => {
    const { context, page } = await newPage();
    await searchAccountants(page);
    const columnsBefore = await page.$$eval('.column .result', (cards) => cards.map((c) => c.dataset.documentId));
    const similarDone = () =>
      page.waitForFunction(
        () => /^(completed|failed|stopped|not started)/.test(document.getElementById('similar-status')?.textContent ?? ''),
        undefined,
        {
          timeout: 90_000,
          polling: 250,
        },
      );
    const similarCards = () =>
      page.$$eval('#similar-results .result', (cards) =>
        cards.map((card) => ({ id: card.dataset.documentId, name: card.querySelector('.document-name')?.textContent ?? '' })),
      );

    // The accountant's card in the dense column starts it.
    const seed = page.locator('.column-dense .result', { has: page.locator('.document-name', { hasText: /^accountant$/ }) });
    const seedId = await seed.getAttribute('data-document-id');
    const since = requested.length;
    await seed.locator('button.more-like').click();
    await page.waitForSelector('#similar:not([hidden])');
    expect(await page.textContent('#similar-title')).toBe('More like accountant');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('similar-title');
    await similarDone();
    expect(await page.textContent('#similar-status')).toMatch(/^completed: \d+ CVs? in \d+ ms$/);
    expect(await page.textContent('#similar-terms')).toMatch(/^Its distinctive words: \S/);
    const similar = await similarCards();
    expect(similar.length).toBeGreaterThan(0);
    expect(similar.map((c) => c.id)).not.toContain(seedId);
    // The other accountant CV (whose text holds HTML) is the most like it, shown as text.
    expect(similar[0].name).toBe(HOSTILE_NAME.replace(/\.txt$/, ''));
    expect(await page.locator('#similar img, #similar script').count()).toBe(0);
    const posts = requested
      .slice(since)
      .filter((r) => r.method === 'POST')
      .map((r) => new URL(r.url).pathname);
    expect(posts).toEqual(['/v1/public/searches/similar']);
    // The comparison is as it was.
    expect(await page.$$eval('.column .result', (cards) => cards.map((c) => c.dataset.documentId))).toEqual(columnsBefore);
    expect(await page.textContent('#search-status')).toMatch(/^Done: 4 of 4 searches listed\./);
    await screenshot(page, '4b-more-like-this');
    await page.locator('#similar').screenshot({ path: path.join(ARTIFACTS, '4c-more-like-this-panel.png') });
    expect(await axeViolations(page)).toEqual([]);

    // From a card of the panel, by keyboard: the panel follows the new CV, leaving that one out.
    const next = similar[0];
    await page.focus(`#similar-results .result[data-document-id="${next.id}"] button.more-like`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((title) => document.getElementById('similar-title')?.textContent === title, `More like ${next.name}`);
    await similarDone();
    expect(await page.textContent('#similar-status')).toMatch(/^completed/);
    const chained = await similarCards();
    expect(chained.map((c) => c.id)).not.toContain(next.id);
    expect(chained.map((c) => c.id)).toContain(seedId);
    await page.click('#similar-close');
    expect(await page.isVisible('#similar')).toBe(false);
    await context.close();
  });

  it('matches a pasted job posting: the criteria read from it as chips, each CV with the criteria it meets and misses, run again without a removed chip', async () => {
    const { context, page } = await newPage();
    await signIn(page);
    const matchDone = () =>
      page.waitForFunction(
        () => /^(completed|failed|stopped|not started)/.test(document.getElementById('match-status')?.textContent ?? ''),
        undefined,
        {
          timeout: 90_000,
          polling: 250,
        },
      );
    await page.fill(
      '#match-posting',
      'Staff Accountant\n\nOur finance team needs an accountant for the month-end close.\n\nRequirements\n- General ledger and account reconciliations\n- Journal entries\n- 2+ years of accounting\n\nNice to have\n- CPA',
    );
    const since = requested.length;
    await page.click('#match-run');
    await matchDone();
    expect(await page.textContent('#match-status')).toMatch(/^completed: \d+ CVs? in \d+ ms/);
    expect(await page.textContent('.criteria-title')).toBe('Title: Staff Accountant');
    const chips = () => page.$$eval('#match-chips .name-chip', (items) => items.map((i) => i.firstChild?.textContent ?? ''));
    expect(await chips()).toEqual(expect.arrayContaining(['General Ledger', 'CPA', '2+ years']));
    const best = page.locator('#match-results .result').first();
    expect(await best.locator('.document-name').textContent()).toBe('accountant');
    expect(await best.locator('.match-score').textContent()).toMatch(/^Criteria met: \d+ of \d+ \(score \d\.\d\d\)$/);
    const statuses = await best.locator('.criterion').evaluateAll((items) => items.map((i) => `${i.className}: ${i.textContent ?? ''}`));
    expect(statuses).toContain('criterion met: met General Ledger');
    expect(await page.locator('#match-results img, #match-results script').count()).toBe(0);
    // The hostile accountant's CV names neither journal entries nor finance, nor dated jobs: no requirement alone keeps it out.
    expect(await page.textContent('#match-outcome-body > p')).toBe('1 CV meets every requirement.');
    expect(await page.locator('.relaxations button').count()).toBe(0);
    await screenshot(page, '7-match');
    expect(await axeViolations(page)).toEqual([]);

    // Removing chips and running again sends the edited criteria, not the posting.
    for (const label of ['Nice to have CPA', 'Required skills journal entries', 'Required skills finance'])
      await page.click(`#match-chips button[aria-label="Remove ${label}"]`);
    expect(await chips()).not.toContain('CPA');
    await page.click('#match-rerun');
    await matchDone();
    const posts = requested.slice(since).filter((r) => r.method === 'POST');
    expect(posts.map((r) => new URL(r.url).pathname)).toEqual(['/v1/public/searches/match', '/v1/public/searches/match']);
    const criteria = await best.locator('.criterion').allTextContents();
    expect(criteria.join('|')).not.toMatch(/CPA|journal entries/);
    // Now only its years keep the hostile accountant's CV out.
    expect(await page.locator('.relaxations button').allTextContents()).toEqual(['2+ years: +1 CV']);
    await page.locator('#match-screen').screenshot({ path: path.join(ARTIFACTS, '7b-match-panel.png') });

    // Loosening the years runs the criteria again without them, and both CVs meet the rest.
    await page.click('.relaxations button');
    await matchDone();
    const loosened = requested.slice(since).filter((r) => r.method === 'POST');
    expect(loosened).toHaveLength(3);
    expect(JSON.parse(loosened[2].body ?? '{}').criteria).toMatchObject({ experienceYears: null });
    expect(await chips()).not.toContain('2+ years');
    expect(await page.textContent('#match-outcome-body > p')).toBe('2 CVs meet every requirement.');

    // A PDF posting chosen is uploaded as a job posting, read, and matched by its document.
    const pdf = await fixtureCvFile(
      'Staff Accountant\n\nRequirements\n- General ledger and account reconciliations\n- Month-end close\n\nNice to have\n- CPA',
      'pdf',
    );
    await page.setInputFiles('#match-file', { name: 'staff-accountant.pdf', mimeType: pdf.mime, buffer: pdf.bytes });
    expect(await page.textContent('#match-status')).toMatch(/staff-accountant\.pdf chosen/);
    const beforePdf = requested.length;
    await page.click('#match-run');
    await matchDone();
    expect(await page.textContent('#match-status')).toMatch(/^completed: \d+ CVs? in \d+ ms/);
    const sentForPdf = requested.slice(beforePdf).filter((r) => r.method === 'POST');
    expect(sentForPdf.map((r) => new URL(r.url).pathname)).toEqual(['/v1/public/documents/upload-direct', '/v1/public/searches/match']);
    expect(new URL(sentForPdf[0].url).searchParams.get('kind')).toBe('job');
    expect(Object.keys(JSON.parse(sentForPdf[1].body ?? '{}'))).toContain('jobDescriptionDocumentId');
    expect(await page.textContent('.criteria-title')).toBe('Title: Staff Accountant');
    expect(await page.locator('#match-results .document-name').allTextContents()).not.toContain('staff-accountant');
    await context.close();
  });

  it('lists candidates as one ranked list by default, a page at a time, with the CV beside it and delete after a confirmation', async () => {
    const api = new ApiClient(base, apiKey);
    const text = [
      'Dana Whitfield',
      'Senior Payroll Accountant',
      'Boston, MA | dana.whitfield@example.com | (617) 555-0142',
      '',
      'SUMMARY',
      'Payroll accountant running general ledger reconciliations and the month-end close for three entities.',
      '',
      'EXPERIENCE',
      'Payroll Accountant, Harbor Mills',
      '01/2015 - 10/2025',
      'Reconciled the general ledger, ran payroll for 400 staff and closed the books every month.',
      '',
      'SKILLS',
      'Payroll, General Ledger, Reconciliations, Excel',
    ].join('\n');
    const dana = (await api.upload(Buffer.from(text), TEXT, { documentName: 'dana', documentDate: '03-2025' })).body.documentId as string;
    await api.waitForDocuments([dana]);

    const { context, page } = await newPage();
    await signIn(page);
    await page.fill('#query', 'payroll accountant, general ledger reconciliations');
    await page.fill('#result-count', '20');
    let since = requested.length;
    await page.click('#search-button');
    await page.waitForSelector('#candidate-list .candidate', { timeout: 150_000 });
    // One search, of one type: the default spends one search of the quota.
    const created = requested.slice(since).filter((r) => r.method === 'POST' && r.url.includes('/v1/public/searches/'));
    expect(created.map((r) => new URL(r.url).pathname)).toEqual(['/v1/public/searches/hybrid']);
    expect(await page.locator('#columns .column').count()).toBe(0);

    const cards = await page.$$eval('#candidate-list .candidate', (items) =>
      items.map((c) => ({
        id: c.dataset.documentId,
        name: c.querySelector('.candidate-name').textContent,
        relevance: Number(c.querySelector('.relevance').textContent.replace(/\D/g, '')),
        weak: c.classList.contains('weak'),
        marker: c.querySelector('.weak-marker') !== null,
        facts: c.querySelector('.candidate-facts')?.textContent ?? '',
        chips: [...c.querySelectorAll('.labelled-chips li')].map((li) => li.textContent),
      })),
    );
    expect(cards.length).toBeGreaterThan(1);
    expect(cards.length).toBeLessThanOrEqual(10);
    const danaCard = cards.find((c) => c.id === dana)!;
    expect(danaCard).toMatchObject({ name: 'Dana Whitfield', weak: false });
    // The labels are read out, not shown.
    expect(danaCard.facts).toMatch(/^Role: Senior Payroll Accountant · Experience: 10\.\d+ years · Location: Boston, MA, United States$/);
    expect(danaCard.chips).toEqual(expect.arrayContaining([expect.stringMatching(/^Skills: .*Payroll/), 'Seniority: senior']));
    // One scale, best first; the weak ones marked in words as well as by colour.
    expect(cards.map((c) => c.relevance)).toEqual([...cards.map((c) => c.relevance)].sort((a, b) => b - a));
    for (const card of cards) {
      expect(card.marker).toBe(card.weak);
      expect(card.name).toMatch(/^(Candidate · .+|\p{Lu}[\p{L}'-]+( [\p{Lu}][\p{L}'-]+)+)$/u);
    }
    const total = Number(/^(\d+) candidates?/.exec((await page.textContent('#search-status'))!)![1]);
    if (total > 10) {
      expect(await page.textContent('#page-label')).toBe(`Page 1 of ${Math.ceil(total / 10)}`);
      await page.click('#page-next');
      expect(await page.textContent('#page-label')).toBe(`Page 2 of ${Math.ceil(total / 10)}`);
      expect(await page.textContent('#candidate-list .candidate .rank')).toBe('11');
      await page.click('#page-previous');
    }
    await screenshot(page, '8-candidates');
    expect(await axeViolations(page)).toEqual([]);

    // The CV beside the list: what was read from it, and its text with the query's words marked.
    await page.click(`#candidate-list .candidate[data-document-id="${dana}"]`);
    await page.waitForSelector('#cv-body .cv-text');
    expect(await page.textContent('#cv-title')).toBe('Dana Whitfield');
    const facts = await page.$$eval('#cv-body .cv-facts dt', (dts) => dts.map((dt) => dt.textContent));
    expect(facts).toEqual(expect.arrayContaining(['Role', 'Experience', 'Location', 'Contact', 'Skills', 'File']));
    const marks = await page.$$eval('#cv-body .cv-text mark', (found) => found.map((m) => m.textContent.toLowerCase()));
    expect(marks).toEqual(expect.arrayContaining(['payroll', 'accountant', 'ledger', 'reconciliations']));
    expect(await page.getAttribute(`#candidate-list .candidate[data-document-id="${dana}"]`, 'aria-current')).toBe('true');
    await screenshot(page, '8-cv-pane');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await screenshot(page, '8-cv-pane-1920');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 800, height: 900 });
    await screenshot(page, '8-cv-pane-800');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });

    // A PDF CV: its original drawn in the pane by pdf.js, the query's words marked in yellow over it.
    const [pdfCv] = (await api.get('/v1/public/documents?name=accountant&kind=cv')).body.data.filter(
      (d: { file: { contentType: string } }) => d.file.contentType === 'application/pdf',
    );
    expect(pdfCv).toBeDefined();
    await page.click(`#candidate-list .candidate[data-document-id="${pdfCv.documentId}"]`);
    await page.waitForSelector('#cv-body .cv-original canvas', { timeout: 30_000 });
    await page.waitForFunction(
      () => (document.querySelector('#cv-body .cv-original [role=status]')?.textContent ?? 'x') === '',
      undefined,
      {
        timeout: 30_000,
      },
    );
    const pixels = await page.evaluate(() => {
      const canvas = document.querySelector('#cv-body .cv-original canvas');
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      let marked = 0;
      let ink = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] > 200 && data[i + 1] > 150 && data[i + 2] < 140) marked++;
        else if (data[i] < 100 && data[i + 1] < 100 && data[i + 2] < 100) ink++;
      }
      return { marked, ink, pages: document.querySelectorAll('#cv-body .cv-original canvas').length };
    });
    expect(pixels.pages).toBeGreaterThan(0);
    expect(pixels.ink).toBeGreaterThan(500); // text was drawn
    expect(pixels.marked).toBeGreaterThan(200); // and words of the query marked over it
    await screenshot(page, '8-cv-pane-pdf');
    expect(await axeViolations(page)).toEqual([]);
    await page.click(`#candidate-list .candidate[data-document-id="${dana}"]`);
    await page.waitForSelector('#cv-body .cv-text');

    // Delete asks first; kept, nothing is deleted.
    await page.click('#cv-delete');
    expect(await page.isVisible('#cv-confirm')).toBe(true);
    expect(await page.textContent('#cv-confirm-text')).toContain('Dana Whitfield');
    await page.click('#cv-confirm button[value="cancel"]');
    expect((await api.get(`/v1/public/documents/${dana}`)).status).toBe(200);
    since = requested.length;
    await page.click('#cv-delete');
    await page.click('#cv-confirm button[value="delete"]');
    await page.waitForSelector(`#candidate-list .candidate[data-document-id="${dana}"]`, { state: 'detached' });
    expect(requested.slice(since).map((r) => r.method)).toContain('DELETE');
    expect((await api.get(`/v1/public/documents/${dana}`)).status).toBe(404);
    expect(await page.isHidden('#cv-pane')).toBe(true);
    await context.close();
  });

  it('keeps a shortlist from the CV pane and shares it by link; a saved search says how many candidates are new since last looked at', async () => {
    const api = new ApiClient(base, apiKey);
    const { context, page } = await newPage();
    await signIn(page);
    // Saved first, so that the CV read next is new to it.
    await page.fill('#query', 'sommelier, wine list, cellar');
    await page.fill('#save-search-name', 'Sommeliers');
    await page.click('#save-search-form button[type=submit]');
    await page.waitForFunction(() =>
      (document.getElementById('save-search-status')?.textContent ?? '').startsWith('Saved as “Sommeliers”'),
    );
    const [saved] = (await api.get('/v1/public/saved-searches')).body.data.filter((s: { name: string }) => s.name === 'Sommeliers');
    expect(saved).toMatchObject({ searchType: 'hybrid', query: 'sommelier, wine list, cellar', top_k: 20 });
    const text = [
      'Marta Keller',
      'Head Sommelier',
      'Zurich, Switzerland | marta.keller@example.com',
      '',
      'SUMMARY',
      'Sommelier running a wine list of 400 labels, the cellar and tastings for a two-star restaurant.',
      '',
      'EXPERIENCE',
      'Head Sommelier, Hotel Lindenhof',
      '03/2016 - 09/2025',
      'Built the wine list and the cellar inventory; trained the floor team in pairings.',
    ].join('\n');
    const marta = (await api.upload(Buffer.from(text), TEXT, { documentName: 'marta', documentDate: '03-2025' })).body.documentId as string;
    await api.waitForDocuments([marta]);
    for (let waited = 0; (await api.get(`/v1/public/saved-searches/${saved.savedSearchId}/new`)).body.data.length === 0; waited += 200) {
      expect(waited).toBeLessThan(30_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    // From the CV pane to a new shortlist, with a note.
    await page.click('#search-button');
    await page.waitForSelector(`#candidate-list .candidate[data-document-id="${marta}"]`, { timeout: 150_000 });
    await page.click(`#candidate-list .candidate[data-document-id="${marta}"]`);
    await page.waitForSelector('#cv-shortlist option[value="new"]', { state: 'attached' });
    await page.selectOption('#cv-shortlist', 'new');
    await page.fill('#cv-new-shortlist', 'Wine team');
    await page.fill('#cv-note', 'Call Monday about the tasting menu');
    await page.click('#cv-shortlist-form button[type=submit]');
    await page.waitForFunction(() => (document.getElementById('cv-shortlist-status')?.textContent ?? '') !== '');
    expect(await page.textContent('#cv-shortlist-status')).toBe('Added to Wine team.');
    await page.click('#cv-shortlist-status a');
    await page.waitForSelector('#view-shortlists:not([hidden]) #shortlist-detail:not([hidden])');
    expect(await page.textContent('#shortlist-title')).toBe('Wine team');
    expect(await page.$$eval('#shortlist-items .shortlist-item', (items) => items.map((i) => i.textContent))).toEqual([
      expect.stringContaining('Call Monday about the tasting menu'),
    ]);
    expect(await page.getAttribute('nav.views a[data-view="shortlists"]', 'aria-current')).toBe('page');
    const listUrl = page.url();
    expect(listUrl).toMatch(/\/console#shortlists\/[0-9a-f-]{36}$/);
    const downloaded = page.waitForEvent('download');
    await page.click('#shortlist-export-csv');
    const csv = await downloaded;
    expect(csv.suggestedFilename()).toBe('Wine team.csv');
    expect(readFileSync(await csv.path(), 'utf8')).toContain('Call Monday about the tasting menu');
    await screenshot(page, '9-shortlist');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 800, height: 900 });
    await screenshot(page, '9-shortlist-800');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The link opens the same list for another tab with a key of the company.
    const other = await newPage();
    await other.page.goto(listUrl);
    await other.page.fill('#api-key', apiKey);
    await other.page.click('#key-form button[type=submit]');
    await other.page.waitForSelector('#shortlist-detail:not([hidden])');
    expect(await other.page.textContent('#shortlist-title')).toBe('Wine team');
    await other.context.close();

    // The saved search: one candidate new since it was saved, then none new since it was looked at.
    await page.click('nav.views a[data-view="saved"]');
    await page.waitForSelector('#saved-list li a');
    const line = await page.textContent(`#saved-list li:has(a[href="#saved/${saved.savedSearchId}"])`);
    expect(line).toMatch(/^Sommeliers · 1 new since /);
    await page.click(`#saved-list a[href="#saved/${saved.savedSearchId}"]`);
    await page.waitForSelector('#saved-detail:not([hidden]) .saved-match');
    expect(await page.textContent('#saved-matches .saved-match.unseen')).toMatch(/^marta · #\d+ when found · read .+ · new$/);
    await screenshot(page, '10-saved-new');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 800, height: 900 });
    await screenshot(page, '10-saved-new-800');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await page.waitForSelector('#saved-list li a');
    expect(await page.textContent(`#saved-list li:has(a[href="#saved/${saved.savedSearchId}"])`)).toMatch(
      /^Sommeliers · 0 new since .+ today$/,
    );
    await context.close();
  });

  it('is operable by keyboard alone: key entry, search, and the ranked list walked with the arrow keys to a CV opened and closed', async () => {
    const { context, page } = await newPage();
    await page.goto(`${base}/console`);
    expect(await tabTo(page, 'api-key')).toBe(true);
    await page.keyboard.type(apiKey);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#workspace:not([hidden])');
    expect(await tabTo(page, 'query')).toBe(true);
    await page.keyboard.type('accountant, reconciliations');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#candidate-list .candidate', { timeout: 150_000 });
    // On to the first candidate, past the filter panel; its focus ring shows.
    let card = false;
    for (let i = 0; i < 80 && !card; i++) {
      await page.keyboard.press('Tab');
      card = await page.evaluate(() => document.activeElement?.classList.contains('candidate') ?? false);
    }
    expect(card).toBe(true);
    const focus = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement);
      return { outline: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(focus).toEqual({ outline: 'solid', width: 3 });
    const focusedRank = () => page.evaluate(() => document.activeElement?.querySelector('.rank')?.textContent);
    expect(await focusedRank()).toBe('1');
    await page.keyboard.press('ArrowDown');
    expect(await focusedRank()).toBe('2');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#cv-pane:not([hidden])');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('cv-title');
    await page.waitForSelector('#cv-body .cv-text');
    await page.keyboard.press('Escape');
    expect(await page.isHidden('#cv-pane')).toBe(true);
    expect(await focusedRank()).toBe('1');
    await screenshot(page, '5-keyboard');
    // Forget key is reachable and empties the session storage.
    await page.focus('#forget-key');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#key-screen:not([hidden])');
    expect(await page.evaluate((k) => sessionStorage.getItem(k), KEY_STORAGE)).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-key');
    await context.close();
  });

  it('filters every search of a group from the side panel, with the counts of the CVs that pass beside each choice', async () => {
    // More CVs, through the API: the panel's counts need skills, levels and places that differ.
    const api = new ApiClient(base, apiKey);
    // The drop above spent most of the default upload limits.
    for (const category of ['upload-burst', 'upload-sustained'])
      await adminApi(service, 'PUT', `/companies/${companyId}/limits/${category}`, { limit: 1000 });
    const ids: string[] = [];
    for (const [i, engineer] of ENGINEERS.entries()) {
      const upload = await api.upload(Buffer.from(engineerCv(engineer, i)), TEXT, { documentName: engineer[0], documentDate: '10-2025' });
      expect(upload.status).toBe(201);
      ids.push(upload.body.documentId);
    }
    await api.waitForDocuments(ids);
    // The profiles the service read, as the API gives them: what the panel's counts and results are checked against.
    const stored: { documentId: string; profile: any }[] = (await api.get('/v1/public/documents?limit=100&status=completed&kind=cv')).body
      .data;
    const skillsOf = (cv: { profile: any }) => ((cv.profile?.skills ?? []) as string[]).map((s) => s.toLowerCase());
    expect(stored.length).toBeGreaterThanOrEqual(ENGINEERS.length + 4);

    const { context, page } = await newPage();
    await signIn(page);
    // The counts of the group's last run, as the API gives them (a results page of one of its searches).
    const apiFacets = async (since: number) => {
      const ids = requested
        .slice(since)
        .map((r) => /\/v1\/public\/searches\/([0-9a-f-]{36})\/results$/.exec(new URL(r.url).pathname)?.[1])
        .filter(Boolean);
      expect(ids.length).toBeGreaterThan(0);
      return (await api.get(`/v1/public/searches/${ids[0]}/results?limit=1`)).body.facets.passing;
    };
    const countIn = async (selector: string) => parseInt((await page.textContent(`${selector} .count`)) ?? '', 10);
    const searchDone = () =>
      page.waitForFunction(
        () =>
          (document.getElementById('search-status')?.textContent ?? '').startsWith('Done:') &&
          !/changed/.test(document.getElementById('facet-summary')?.textContent ?? ''),
        undefined,
        { timeout: 150_000, polling: 250 },
      );

    // A first search without filters: the counts cover every completed CV.
    await page.fill('#query', 'software engineer, services');
    await page.fill('#result-count', '10');
    await page.check('input[name="search-view"][value="compare"]');
    let since = requested.length;
    await page.click('#search-button');
    await page.waitForSelector('#overlap:not([hidden])', { timeout: 150_000 });
    await searchDone();
    const all = await apiFacets(since);
    expect(all.cvs).toBe(stored.length);
    expect(await page.textContent('#facet-summary')).toBe(`${stored.length} CVs in all (no filters set)`);
    const javaChip = '#facet-skills button[data-value="Java"]';
    const javaCvs = stored.filter((cv) => skillsOf(cv).includes('java'));
    expect(javaCvs.length).toBeGreaterThanOrEqual(3);
    expect(await countIn(javaChip)).toBe(javaCvs.length);
    expect(all.fields.skills.find((c: any) => c.value === 'Java').count).toBe(javaCvs.length);

    // Pick in the panel: Java through its facet chip, and the level most Java CVs hold.
    const levels = javaCvs.map((cv) => cv.profile.seniorityLevel).filter(Boolean) as string[];
    const level = levels.sort((a, b) => levels.filter((l) => l === b).length - levels.filter((l) => l === a).length)[0];
    await page.click(javaChip);
    expect(await page.getAttribute(javaChip, 'aria-pressed')).toBe('true');
    expect(await page.$$eval('#filter-skills-all-chips li', (chips) => chips.map((c) => c.dataset.name))).toEqual(['Java']);
    await page.check(`#filter-seniority-${level}`);
    expect(await page.textContent('#facet-summary')).toMatch(/changed since: search again/);
    since = requested.length;
    await page.click('#filter-apply');
    await searchDone();

    // Every card shown is a CV that passes, as the stored profiles say; and there are some.
    const passes = (cv: { profile: any }) => skillsOf(cv).includes('java') && cv.profile?.seniorityLevel === level;
    const passing = new Set(stored.filter(passes).map((cv) => cv.documentId));
    const shown = await page.$$eval('.result', (cards) => cards.map((c) => c.dataset.documentId));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((id) => !passing.has(id))).toEqual([]);
    expect(await page.locator('.column-status', { hasText: /^completed/ }).count()).toBe(4);

    // The counts shown are the API's, over the CVs that pass.
    const filtered = await apiFacets(since);
    expect(filtered.cvs).toBe(passing.size);
    expect(await page.textContent('#facet-summary')).toBe(`${passing.size} CV${passing.size === 1 ? ' passes' : 's pass'} these filters`);
    expect(await countIn(javaChip)).toBe(filtered.fields.skills.find((c: any) => c.value === 'Java').count);
    expect(await countIn(`label[for="filter-seniority-${level}"]`)).toBe(passing.size);
    // The other levels stay, at 0 and dimmed; so do skills the filters left out.
    for (const other of SENIORITY.filter((l) => l !== level)) {
      expect(await countIn(`label[for="filter-seniority-${other}"]`)).toBe(0);
      expect(await page.getAttribute(`label[for="filter-seniority-${other}"]`, 'class')).toContain('zero');
      expect(await page.isEnabled(`#filter-seniority-${other}`)).toBe(true);
    }
    const dimmedSkills = await page.$$eval('#facet-skills .facet-chip.zero', (chips) => chips.map((c) => c.dataset.value));
    expect(dimmedSkills.length).toBeGreaterThan(0);
    const countedSkills = new Set(filtered.fields.skills.map((c: any) => c.value));
    expect(dimmedSkills.filter((skill) => countedSkills.has(skill))).toEqual([]);
    // "Degree at least": each choice counts the passing CVs with that degree or a higher one.
    const bachelorOrHigher = stored.filter((cv) => passes(cv) && DEGREES.indexOf(cv.profile?.degree ?? 'x') >= 3).length;
    expect(await page.getAttribute('#filter-degree option[value="bachelor"]', 'data-count')).toBe(String(bachelorOrHigher));
    const regions = await page.$$eval('#facet-regions li:not(.zero)', (items) =>
      items.map((li) => [li.dataset.value, parseInt(li.querySelector('.count')?.textContent ?? '', 10)]),
    );
    expect(Object.fromEntries(regions)).toEqual(Object.fromEntries(filtered.fields.location.map((c: any) => [c.value, c.count])));
    await page.locator('#search-screen').screenshot({ path: path.join(ARTIFACTS, '6-filters.png') });
    expect(await axeViolations(page)).toEqual([]);

    // The panel survives a reload (this tab's session storage).
    await page.reload();
    await page.waitForSelector('#workspace:not([hidden])');
    expect(await page.$$eval('#filter-skills-all-chips li', (chips) => chips.map((c) => c.dataset.name))).toEqual(['Java']);
    expect(await page.isChecked(`#filter-seniority-${level}`)).toBe(true);

    // By keyboard: from the search button, Tab goes through the panel top to bottom.
    await page.focus('#search-button');
    const order: string[] = [];
    for (let i = 0; i < 40 && order.at(-1) !== 'filter-clear'; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.className || ''));
    }
    expect(order.filter((id) => id.startsWith('filter-'))).toEqual([
      'filter-skills-all',
      'filter-skills-none',
      'filter-min-years',
      ...SENIORITY.map((l) => `filter-seniority-${l}`),
      'filter-degree',
      'filter-languages',
      'filter-near',
      'filter-radius',
      'filter-date-from',
      'filter-date-to',
      'filter-apply',
      'filter-clear',
    ]);
    expect(order.indexOf('chip-remove')).toBe(order.indexOf('filter-skills-all') + 1);
    // Names typed and Enter make chips; Space ticks a level.
    await page.focus('#filter-skills-all');
    // Not in the skills vocabulary, and no word CVs are searched by: it cannot be matched as text either.
    await page.keyboard.type('???');
    await page.keyboard.press('Enter');
    await page.focus('#filter-seniority-intern');
    await page.keyboard.press('Space');
    expect(await page.isChecked('#filter-seniority-intern')).toBe(true);
    await page.keyboard.press('Space');

    // A filter the service refuses (400): its message beside the panel, naming the field; the panel as it was.
    await page.fill('#query', 'software engineer, services');
    await page.click('#filter-apply');
    await page.waitForFunction(() => (document.getElementById('filter-error')?.textContent ?? '') !== '', undefined, { timeout: 30_000 });
    expect(await page.textContent('#filter-error')).toMatch(/^filters\.skills\.all: "\?\?\?" is not in the skills vocabulary/);
    expect(await page.getAttribute('#filter-skills-all', 'aria-invalid')).toBe('true');
    expect(await page.textContent('#search-status')).toMatch(/refused the filters/);
    expect(await page.$$eval('#filter-skills-all-chips li', (chips) => chips.map((c) => c.dataset.name))).toEqual(['Java', '???']);
    expect(await page.isChecked(`#filter-seniority-${level}`)).toBe(true);
    await screenshot(page, '7-filter-refused');
    // Its chip removed by keyboard, focus back in the field.
    await page.focus('#filter-skills-all-chips li[data-name="???"] button');
    await page.keyboard.press('Enter');
    expect(await page.$$eval('#filter-skills-all-chips li', (chips) => chips.map((c) => c.dataset.name))).toEqual(['Java']);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('filter-skills-all');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('returns to the key screen with the API’s message when a kept key is refused', async () => {
    const { context, page } = await newPage();
    await page.goto(`${base}/console`);
    await page.evaluate((k) => sessionStorage.setItem(k, 'csk_revoked-or-wrong'), KEY_STORAGE);
    await page.reload();
    await page.waitForFunction(() => /401/.test(document.getElementById('key-error')?.textContent ?? ''));
    expect(await page.isVisible('#workspace')).toBe(false);
    expect(await page.evaluate((k) => sessionStorage.getItem(k), KEY_STORAGE)).toBeNull();
    await context.close();
  });

  it('runs no inline script, even one the page itself would add', async () => {
    const { context, page } = await newPage();
    await page.goto(`${base}/console`);
    const ran = await page.evaluate(() => {
      try {
        const script = document.createElement('script');
        script.textContent = 'window.__inline = true';
        document.body.append(script);
      } catch {
        // Trusted Types refuse the script text itself.
      }
      return window.__inline === true;
    });
    expect(ran).toBe(false);
    await context.close();
  });

  it('asked nothing of any other origin, and no page raised an error', () => {
    expect(requested.length).toBeGreaterThan(20);
    expect(requested.filter((r) => new URL(r.url).origin !== base)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

for (const mode of MODES)
  describeMode(mode)(`the search console built into a folder and served from CONSOLE_DIR (${mode.name} mode)`, () => {
    let service: ServiceUnderTest;
    let dir = '';
    let built: string[] = [];

    beforeAll(async () => {
      dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-console-dir-'));
      // What npm run build runs (scripts/build.js), into a folder of our own.
      const written = spawnSync(
        process.execPath,
        ['-r', '@swc-node/register', '-e', `require('./apps/console/src/bundle.ts').writeConsole(${JSON.stringify(dir)})`],
        { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8' },
      );
      expect({ status: written.status, stderr: written.stderr }).toEqual({ status: 0, stderr: '' });
      built = (await fs.readdir(dir)).sort();
      // A file only this folder holds, so what is served is known to come from it.
      await fs.writeFile(path.join(dir, 'marker-0000AAAA.css'), '/* from CONSOLE_DIR */');
      service = await mode.start({ CONSOLE_DIR: dir });
    });

    afterAll(async () => {
      await service?.destroy();
      await fs.rm(dir, { recursive: true, force: true });
    });

    it('serves that folder’s files with the console’s headers', async () => {
      // The page, its script and style, its icon, and the chunks the script loads when needed (pdf.js).
      expect(built.filter((name) => !/^chunk-[A-Z0-9]{8}\.js$/.test(name))).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^console-[A-Z0-9]{8}\.css$/),
          expect.stringMatching(/^console-[A-Z0-9]{8}\.js$/),
          expect.stringMatching(/^icon-[0-9a-f]{8}\.svg$/),
          'index.html',
        ]),
      );
      expect(built.filter((name) => !/^chunk-[A-Z0-9]{8}\.js$/.test(name))).toHaveLength(4);
      expect(built.some((name) => name.startsWith('chunk-'))).toBe(true);
      for (const name of built) {
        const answer = await fetch(`${service.baseUrl}/console/${name === 'index.html' ? '' : name}`);
        expect(answer.status).toBe(200);
        expect(Buffer.from(await answer.arrayBuffer()).equals(await fs.readFile(path.join(dir, name)))).toBe(true);
        expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
      }
      const marker = await fetch(`${service.baseUrl}/console/marker-0000AAAA.css`);
      expect(await marker.text()).toBe('/* from CONSOLE_DIR */');
      expect(marker.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // The cluster's CVs go to S3: the page may PUT presigned uploads to its public endpoint, and nowhere else.
      const csp = (await fetch(`${service.baseUrl}/console`)).headers.get('content-security-policy') ?? '';
      const connect = /connect-src ([^;]+)/.exec(csp)?.[1];
      expect(connect).toMatch(mode.name === 'cluster' ? /^'self' http:\/\/127\.0\.0\.1:\d+$/ : /^'self'$/);
    });
  });
