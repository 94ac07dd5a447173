import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeWith, eventually } from '@cs/test-services';
import { CLI_LAUNCHER, TmuxTerminal, runCli, writeCvFolder } from './support/cli-process';
import { adminCli } from './support/fixtures';
import { StandaloneService } from './support/standalone-service';

jest.setTimeout(300_000);

const SEARCH_TYPES = ['dense', 'sparse', 'hybrid', 'builtin-rerank'];
/** 20 fixture CVs, a PDF without text and a copy of chef.pdf. */
const FILES = 22;
const ANSI = /\u001b\[/;

describe('the candidate-search CLI against a standalone service', () => {
  let service: StandaloneService;
  let root: string;

  /** A company with its key, and room in its limits for what a test does (upload-burst stays as given). */
  const company = async (name: string, limits: Record<string, number>) => {
    const { status, stdout, stderr } = adminCli(['companies', 'create', '--name', name], {
      ADMIN_URL: service.baseUrl,
      DATA_DIR: service.dataDir,
    });
    expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    const created = JSON.parse(stdout) as { companyId: string; apiKey: string };
    for (const [category, limit] of Object.entries(limits)) {
      const answer = await fetch(`${service.baseUrl}/admin/v1/companies/${created.companyId}/limits/${category}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${service.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ limit }),
      });
      expect(answer.status).toBe(200);
    }
    return created.apiKey;
  };

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-e2e-'));
    service = await StandaloneService.start();
  });

  afterAll(async () => {
    await service?.destroy();
    await fs.rm(root, { recursive: true, force: true });
  });

  describe('without a terminal (pipes)', () => {
    let env: Record<string, string>;
    let apiKey: string;
    let cvs: string;
    let configDir: string;

    beforeAll(async () => {
      apiKey = await company('pipes', { read: 100_000, search: 1000, 'upload-burst': 1000, 'upload-sustained': 1000 });
      cvs = path.join(root, 'pipes-cvs');
      expect(await writeCvFolder(cvs)).toHaveLength(FILES);
      const xdg = path.join(root, 'pipes-config');
      configDir = path.join(xdg, 'candidate-search');
      env = { XDG_CONFIG_HOME: xdg, CANDIDATE_SEARCH_URL: service.baseUrl, CLI_CWD: root };
    });

    it('logs in with the key piped to stdin, checks it, and stores it 0600 in a 0700 folder', async () => {
      const { code, stdout, stderr } = await runCli(['login', '--json'], env, `${apiKey}\n`);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const configFile = path.join(configDir, 'config.json');
      expect(JSON.parse(stdout)).toEqual({ baseUrl: service.baseUrl, keyPrefix: `${apiKey.slice(0, 8)}…`, configFile, documents: 0 });
      expect(stdout).not.toContain(apiKey);
      expect((await fs.stat(configFile)).mode & 0o777).toBe(0o600);
      expect((await fs.stat(configDir)).mode & 0o777).toBe(0o700);
      expect(JSON.parse(await fs.readFile(configFile, 'utf8'))).toEqual({ baseUrl: service.baseUrl, apiKey });
    });

    it('refuses a wrong key at login with exit 3, keeping the stored one', async () => {
      const { code, stdout, stderr } = await runCli(['login'], env, 'csk_not-a-key\n');
      expect(code).toBe(3);
      expect(stdout).toBe('');
      expect(stderr).toContain('error: the API refused the key');
      expect(JSON.parse(await fs.readFile(path.join(configDir, 'config.json'), 'utf8')).apiKey).toBe(apiKey);
    });

    it('uploads a folder with --json: only JSON on stdout, nothing on stderr, every file accounted for, exit 7 for the invalid one', async () => {
      const { code, stdout, stderr } = await runCli(['upload', 'pipes-cvs', '--json'], env);
      expect(stderr).toBe('');
      expect(code).toBe(7);
      const report = JSON.parse(stdout) as {
        files: { file: string; outcome: string; documentId: string | null; message: string | null; fromEarlierRun: boolean }[];
        counts: Record<string, number>;
        interrupted: boolean;
      };
      expect(report.counts).toEqual({
        completed: 20,
        duplicate: 1,
        invalid: 1,
        failed: 0,
        'not-uploaded': 0,
        processing: 0,
        unsupported: 0,
        notStarted: 0,
      });
      expect(report.interrupted).toBe(false);
      expect(report.files).toHaveLength(FILES);
      const byName = new Map(report.files.map((f) => [path.basename(f.file), f]));
      expect(byName.get('scan.pdf')).toMatchObject({ outcome: 'invalid', message: expect.stringMatching(/text/i) });
      // Whichever of the two identical files went first is the document; the other is its duplicate.
      const chefs = [byName.get('chef.pdf'), byName.get('chef-copy.pdf')];
      expect(chefs.map((f) => f?.outcome).sort()).toEqual(['completed', 'duplicate']);
      expect(chefs[0]?.documentId).toBe(chefs[1]?.documentId);
      expect(report.files.every((f) => !f.fromEarlierRun)).toBe(true);
    });

    it('prints a plain line a file and no bar when stdout is not a terminal, and skips what the last run did', async () => {
      const { code, stdout, stderr } = await runCli(['upload', 'pipes-cvs'], env);
      expect(code).toBe(7);
      expect(stdout + stderr).not.toMatch(ANSI);
      expect(stderr).toContain(`${FILES} of ${FILES} files were done by an earlier run: not uploading them again.`);
      const lines = stdout.split('\n');
      expect(lines.filter((l) => /^(completed|duplicate|invalid) +pipes-cvs\//.test(l))).toHaveLength(FILES);
      expect(lines).toContainEqual(expect.stringMatching(/^invalid +pipes-cvs\/scan\.pdf: .*text/i));
      expect(stdout).toMatch(/│ completed \(searchable\) +│ +20 │/);
      expect(stdout).toContain(`${FILES} of them done by an earlier run, not uploaded again.`);
    });

    it('runs the four search types as a group with --json, with each pair’s overlap and the CVs all four found', async () => {
      const { code, stdout, stderr } = await runCli(
        ['search', 'all', 'registered nurse, intensive care, patients', '--limit', '5', '--json'],
        env,
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const group = JSON.parse(stdout) as {
        searchGroupId: string;
        searches: { searchType: string; status: string; results: { documentId: string; documentName: string }[] }[];
        overlap: { top: number; pairs: { a: string; b: string; shared: number; of: number }[]; foundByAll: { documentId: string }[] };
      };
      expect(group.searches.map((s) => [s.searchType, s.status])).toEqual(SEARCH_TYPES.map((t) => [t, 'completed']));
      for (const s of group.searches) {
        expect(s.results.length).toBeGreaterThan(0);
        expect(s.results.length).toBeLessThanOrEqual(5);
        expect(s.results[0].documentName).toMatch(/^nurse\./);
      }
      expect(group.overlap.top).toBe(5);
      expect(group.overlap.pairs.map((p) => `${p.a}&${p.b}`)).toEqual([
        'dense&sparse',
        'dense&hybrid',
        'dense&builtin-rerank',
        'sparse&hybrid',
        'sparse&builtin-rerank',
        'hybrid&builtin-rerank',
      ]);
      // The overlap is what the rows show: recomputed here from them.
      const ids = group.searches.map((s) => new Set(s.results.map((r) => r.documentId)));
      for (const pair of group.overlap.pairs) {
        const [a, b] = [SEARCH_TYPES.indexOf(pair.a), SEARCH_TYPES.indexOf(pair.b)];
        expect(pair.shared).toBe([...ids[a]].filter((id) => ids[b].has(id)).length);
      }
      expect(group.overlap.foundByAll.length).toBeGreaterThan(0);
      for (const { documentId } of group.overlap.foundByAll) expect(ids.every((set) => set.has(documentId))).toBe(true);
    });

    it('prints the four searches side by side without --json', async () => {
      const { code, stdout } = await runCli(['search', 'all', 'chef', 'restaurant', 'kitchen', '--limit', '3'], env);
      expect(code).toBe(0);
      expect(stdout).toMatch(/│ Rank │ dense +│ sparse +│ hybrid +│ builtin-rerank +│/);
      expect(stdout).toMatch(/│ +1 │ chef[^│]*\d\.\d{3} │ chef[^│]*\d\.\d{3} │ chef[^│]*\d\.\d{3} │ chef[^│]*\d\.\d{3} │/);
      expect(stdout).toMatch(/│ dense & sparse +│ +\d\/3 │/);
      expect(stdout).toMatch(/^Found by all four \(\d\): /m);
    });

    it('runs one search type with --json and as a table', async () => {
      const json = await runCli(['search', 'sparse', 'IFRS, SAP', '--json'], env);
      expect(json.code).toBe(0);
      const page = JSON.parse(json.stdout) as { searchType: string; results: { documentName: string; scores: Record<string, number> }[] };
      expect(page.searchType).toBe('sparse');
      expect(page.results[0].documentName).toMatch(/^accountant\./);
      const table = await runCli(['search', 'hybrid', 'accountant with SAP and IFRS', '--limit', '3'], env);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/│ Rank │ Document +│ Score │ dense │ sparse │ fused │ rerank │/);
      expect(table.stdout).toMatch(/│ +1 │ accountant\.\w+ +│ \d\.\d{3} │/);
    });

    it('keeps a search to the CVs its filter flags describe, echoing the filters', async () => {
      const { code, stdout, stderr } = await runCli(
        ['search', 'dense', 'backend developer', '--skill', 'kubernetes', '--min-years', '5', '--json'],
        env,
      );
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const page = JSON.parse(stdout) as { filters?: unknown; results: { documentName: string }[] };
      expect(page.filters).toEqual({ skills: { all: ['kubernetes'] }, experienceYears: { gte: 5 } });
      // Unfiltered, a dense search ranks every CV; only the developer's four files name Kubernetes.
      expect(page.results.map((r) => r.documentName).sort()).toEqual(['developer.doc', 'developer.docx', 'developer.pdf', 'developer.txt']);
    });

    it('runs a similar search from a document id: its other formats first, itself never; exit 8 for a CV not read, 4 for none', async () => {
      const list = await runCli(['documents', 'list', '--limit', '100', '--json'], env);
      const docs = (JSON.parse(list.stdout) as { data: { documentId: string; documentName: string }[] }).data;
      const idOf = (name: string) => docs.find((d) => d.documentName === name)!.documentId;
      const seed = idOf('nurse.pdf');
      const { code, stdout, stderr } = await runCli(['similar', seed, '--limit', '5', '--facets', 'domain', '--json'], env);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const page = JSON.parse(stdout) as {
        searchType: string;
        similarTo: string;
        results: { documentId: string; documentName: string }[];
        metadata: { distinctiveTerms: string[] };
        facets: { passing: { cvs: number } };
      };
      expect(page).toMatchObject({ searchType: 'similar', similarTo: seed });
      expect(page.results.map((r) => r.documentId)).not.toContain(seed);
      expect(page.results.slice(0, 3).map((r) => r.documentName.replace(/\..*$/, ''))).toEqual(['nurse', 'nurse', 'nurse']);
      expect(page.metadata.distinctiveTerms.length).toBeGreaterThan(0);
      // Every completed CV but the one it starts from.
      expect(page.facets.passing.cvs).toBe(docs.length - 2);

      const table = await runCli(['similar', seed, '--limit', '3'], env);
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(new RegExp(`^similar search: CVs like document ${seed}: \\d+ results in \\d+ ms`));
      expect(table.stdout).toMatch(/^Its distinctive words: \S+/m);
      expect(table.stdout).toMatch(/│ +1 │ nurse\.\w+ +│ \d\.\d{3} │/);

      const unread = await runCli(['similar', idOf('scan.pdf')], env);
      expect(unread.code).toBe(8);
      expect(unread.stderr).toMatch(/^error: document \S+ is invalid: .*\(409\)\nhint: /);
      const none = await runCli(['similar', randomUUID()], env);
      expect(none.code).toBe(4);
      expect(none.stderr).toContain('in this company (404)');
    });

    it('lists, shows and deletes documents with --json, and a deleted one is then not found (exit 4)', async () => {
      const list = await runCli(['documents', 'list', '--limit', '100', '--json'], env);
      expect(list.code).toBe(0);
      const { data, pagination } = JSON.parse(list.stdout) as {
        data: { documentId: string; documentName: string; status: string }[];
        pagination: { total: number };
      };
      // 22 files: the copy of chef.pdf is no document of its own.
      expect(pagination.total).toBe(FILES - 1);
      expect(data.filter((d) => d.status === 'invalid').map((d) => d.documentName)).toEqual(['scan.pdf']);
      const teacher = data.find((d) => d.documentName === 'teacher.txt');
      expect(teacher).toBeDefined();

      const invalid = await runCli(['documents', 'list', '--status', 'invalid', '--json'], env);
      expect((JSON.parse(invalid.stdout) as { data: unknown[] }).data).toHaveLength(1);

      const got = await runCli(['documents', 'get', teacher!.documentId, '--json'], env);
      expect(got.code).toBe(0);
      expect(JSON.parse(got.stdout)).toMatchObject({ documentId: teacher!.documentId, status: 'completed', file: { name: 'teacher.txt' } });

      const refused = await runCli(['documents', 'delete', teacher!.documentId], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--yes');

      const deleted = await runCli(['documents', 'delete', teacher!.documentId, '--yes', '--json'], env);
      expect(deleted.code).toBe(0);
      expect(JSON.parse(deleted.stdout)).toMatchObject({ documentId: teacher!.documentId, documentName: 'teacher.txt' });

      const gone = await runCli(['documents', 'get', teacher!.documentId, '--json'], env);
      expect(gone.code).toBe(4);
      expect(JSON.parse(gone.stdout)).toEqual({ error: { exitCode: 4, message: expect.stringContaining('not found') } });
    });

    it('exits 3 for a wrong key and 4 for a document that does not exist', async () => {
      const badKey = await runCli(['documents', 'list', '--api-key', 'csk_wrong'], env);
      expect(badKey.code).toBe(3);
      expect(badKey.stderr).toContain('hint: run candidate-search login');
      const badEnvKey = await runCli(['search', 'dense', 'chef'], { ...env, CANDIDATE_SEARCH_API_KEY: 'csk_wrong' });
      expect(badEnvKey.code).toBe(3);
      const unknown = await runCli(['documents', 'get', randomUUID()], env);
      expect(unknown.code).toBe(4);
      expect(unknown.stderr).toContain('not found');
    });

    it('logs out, after which a command has no key (exit 3)', async () => {
      expect((await runCli(['logout'], env)).code).toBe(0);
      await expect(fs.stat(path.join(configDir, 'config.json'))).rejects.toThrow();
      expect((await runCli(['documents', 'list'], env)).code).toBe(3);
    });
  });

  describeWith(['tmux'])('in a terminal (tmux)', () => {
    const terminal = new TmuxTerminal(`cs-cli-e2e-${process.pid}-${Date.now()}`);
    let cwd: string;
    let apiKey: string;

    beforeAll(async () => {
      // upload-burst keeps its 10 in 10 seconds: the 11th upload waits, which is where Ctrl-C lands.
      apiKey = await company('terminal', { read: 100_000, 'upload-sustained': 1000 });
      cwd = path.join(root, 'terminal');
      expect(await writeCvFolder(path.join(cwd, 'cvs'))).toHaveLength(FILES);
      // `candidate-search` on the PATH, as npm install links it.
      const bin = path.join(root, 'bin');
      await fs.mkdir(bin, { recursive: true });
      await fs.symlink(CLI_LAUNCHER, path.join(bin, 'candidate-search'));
      terminal.start(cwd, {
        PATH: `${bin}:${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        XDG_CONFIG_HOME: path.join(root, 'terminal-config'),
        CANDIDATE_SEARCH_URL: service.baseUrl,
        CANDIDATE_SEARCH_API_KEY: apiKey,
        NODE_OPTIONS: '',
      });
      await eventually(() => expect(terminal.screen()).toMatch(/^\$$/m), { timeoutMs: 10_000, intervalMs: 100 });
    });

    afterAll(() => terminal.kill());

    /** Waits for the command to end and returns the screen and its exit code. */
    const finished = (timeoutMs: number) =>
      eventually(
        () => {
          const screen = terminal.screen();
          const exit = /^EXIT=(\d+)$/m.exec(screen);
          if (!exit) throw new Error(`still running:\n${screen}`);
          return { screen, exit: Number(exit[1]) };
        },
        { timeoutMs, intervalMs: 200 },
      );

    it('asks for the key at login without showing it, and stores it', async () => {
      terminal.type('env -u CANDIDATE_SEARCH_API_KEY candidate-search login; echo EXIT=$?');
      await eventually(() => expect(terminal.screen()).toMatch(/^API key:$/m), { timeoutMs: 30_000, intervalMs: 100 });
      terminal.type(apiKey);
      const { screen, exit } = await finished(30_000);
      expect(exit).toBe(0);
      expect(screen).not.toContain(apiKey);
      expect(screen).toContain(`Logged in to ${service.baseUrl} with key ${apiKey.slice(0, 8)}…`);
      const stored = path.join(root, 'terminal-config', 'candidate-search', 'config.json');
      expect(JSON.parse(await fs.readFile(stored, 'utf8'))).toEqual({ baseUrl: service.baseUrl, apiKey });
      terminal.type('clear');
      await eventually(() => expect(terminal.screen()).not.toContain('EXIT='), { timeoutMs: 10_000, intervalMs: 100 });
    });

    it('shows the progress bars while uploading, stops on Ctrl-C with exit 130 and how to resume, and a re-run uploads only the rest', async () => {
      terminal.type('candidate-search upload cvs; echo EXIT=$?');
      // Mid-upload: about ten are in (those answered before the first 429), the next wait out the burst limit.
      const running = await eventually(
        () => {
          const screen = terminal.screen();
          expect(screen).toMatch(/rate limited: resuming in \d+s/);
          return screen;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );
      expect(running).toMatch(
        /^Uploading \[[█░]{24}\] \d+\/22 files \| [\d.]+ KB\/[\d.]+ KB \| [\d.]+ CVs\/s \| ETA \d+s \| rate limited: resuming in \d+s$/m,
      );
      expect(running).toMatch(/^Processed \[[█░]{24}\] \d+\/22 files/m);
      terminal.press('C-c');

      const stopped = await finished(30_000);
      expect(stopped.exit).toBe(130);
      const interrupted =
        /Interrupted: (\d+) of 22 files uploaded\. To resume, run the same command again: candidate-search upload cvs/.exec(stopped.screen);
      expect(interrupted).not.toBeNull();
      const done = Number(interrupted![1]);
      expect(done).toBeGreaterThanOrEqual(10);
      expect(done).toBeLessThan(FILES);
      expect(stopped.screen).toMatch(new RegExp(`│ not started \\(interrupted\\) +│ +${FILES - done} │`));

      terminal.type('clear; candidate-search upload cvs; echo EXIT=$?');
      // The first run's EXIT= line stays on the screen until the shell has run `clear`.
      await eventually(() => expect(terminal.screen()).not.toContain('EXIT='), { timeoutMs: 10_000, intervalMs: 50 });
      const rerun = await finished(180_000);
      expect(rerun.exit).toBe(7);
      const screen = rerun.screen;
      expect(screen).toContain(`${done} of 22 files were done by an earlier run: not uploading them again.`);
      expect(screen).toMatch(new RegExp(`^Uploading \\[█{24}\\] ${FILES - done}/${FILES - done} files \\| .* \\| done$`, 'm'));
      expect(screen).toMatch(/^Processed \[█{24}\] 22\/22 files \(/m);
      expect(screen).toMatch(/│ completed \(searchable\) +│ +20 │/);
      // Had the re-run sent the files the first run did, the server would have called each a duplicate.
      expect(screen).toMatch(/│ duplicate \(already uploaded\) +│ +1 │/);
      expect(screen).toMatch(/│ invalid +│ +1 │/);
      expect(screen).toContain(`${done} of them done by an earlier run, not uploaded again.`);
      expect(screen).toMatch(/│ cvs\/scan\.pdf +│ invalid +│ No text/);
      expect(screen).toMatch(/│ cvs\/chef(-copy)?\.pdf +│ duplicate +│ same bytes as cvs\/chef(-copy)?\.pdf/);
    });
  });
});
