import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runProcess } from './support/cli-process';
import { ROOT } from './support/local-ports';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(600_000);

/** Where the README tells a reader the service is; the test's service listens elsewhere. */
const README_ADDRESS = 'http://localhost:8080';
/** The sample CVs the tour uploads from `samples/cvs`. */
const SAMPLES = [
  'anna-mueller-accountant.pdf',
  'etienne-rousseau-chef.doc',
  'grace-oconnor-nurse.pdf',
  'jonas-petersen-developer.docx',
  'sofia-lindqvist-teacher.txt',
];

/** The shell blocks of the README's "A five-minute tour" section, in order. */
function tourBlocks(): string[] {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## A five-minute tour\n');
  if (start < 0) throw new Error('README.md has no "## A five-minute tour" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** Runs a block as a reader's bash would, from the repository's root, stopping at its first failing command. */
const runBlock = (script: string, env: Record<string, string>) =>
  runProcess('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd: ROOT, env });

describe("the README's five-minute tour, run as written against a fresh standalone service", () => {
  const blocks = tourBlocks();
  let service: StandaloneService;
  let home: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    home = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-readme-tour-'));
    service = await StandaloneService.start();
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        (entry): entry is [string, string] => entry[1] !== undefined && !/^(CANDIDATE_SEARCH_|ADMIN_|DATA_DIR$|PORT$)/.test(entry[0]),
      ),
    );
    env = {
      ...inherited,
      NODE_OPTIONS: '',
      // The tour's own paths: the CLI's stored key and config in a home of the test's.
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      // Where the reader's service would be found by default: this one's address and data folder instead.
      ADMIN_URL: service.baseUrl,
      DATA_DIR: service.dataDir,
      CANDIDATE_SEARCH_URL: service.baseUrl,
    };
  });

  afterAll(async () => {
    await service?.destroy();
    if (home) await fs.rm(home, { recursive: true, force: true });
  });

  it('uploads sample CVs the repository has', async () => {
    expect(blocks[0]).toContain('upload samples/cvs');
    expect((await fs.readdir(path.join(ROOT, 'samples/cvs'))).sort()).toEqual(SAMPLES);
  });

  it('has two shell blocks: the CLI, then curl', () => {
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toContain('npm run -s cli -- login');
    expect(blocks[1]).toContain(`B=${README_ADDRESS}`);
  });

  it('logs in, uploads the samples and compares the four types with the CLI', async () => {
    const run = await runBlock(blocks[0], env);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    for (const file of SAMPLES) expect(run.stdout).toMatch(new RegExp(`completed\\s+samples/cvs/${file.replace('.', '\\.')}`));
    expect(run.stdout).toContain('by all four search types');
    expect(run.stdout).toContain('Found by all four (1): anna-mueller-accountant.pdf');
  });

  it('uploads a CV, waits for it and searches it over HTTP with curl', async () => {
    const run = await runBlock(blocks[1].replaceAll(README_ADDRESS, service.baseUrl), env);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const results = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as { results: { documentName: string }[] };
    expect(results.results.map((r) => r.documentName)).toEqual(['Anna']);
  });
});
