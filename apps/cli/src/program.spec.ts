import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCliPiped } from './testing/run-cli-piped';

const cli = (args: string[], env?: { baseUrl?: string; apiKey?: string }) => runCliPiped(args, configDir, env);

let configDir: string;
beforeEach(async () => {
  configDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cli-program-'));
});
afterEach(() => fs.rm(configDir, { recursive: true, force: true }));

describe('candidate-search', () => {
  it('documents every exit code in --help, and exits 0 for help', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    for (const line of [
      '0  done',
      '2  bad arguments',
      '3  no API key',
      '4  no such document',
      '5  rate limited',
      '6  service unreachable',
      '7  upload: some files',
      '130  interrupted',
    ])
      expect(stdout).toContain(line);
    expect(stdout).toContain('CANDIDATE_SEARCH_API_KEY');
  });

  it("ends each command's --help with the exit codes", async () => {
    const { code, stdout } = await cli(['upload', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--no-resume');
    expect(stdout).toMatch(/ 7 {2}upload: some files were invalid/);
    expect(stdout).toMatch(/130 {2}interrupted/);
  });

  it.each([
    ['an unknown command', ['frobnicate']],
    ['an unknown search type', ['search', 'fuzzy', 'chef']],
    ['a --limit out of range', ['search', 'dense', 'chef', '--limit', '0']],
    ['a --top-k that is not a number', ['search', 'dense', 'chef', '--top-k', 'ten']],
    ['a document status that does not exist', ['documents', 'list', '--status', 'done']],
    ['a missing argument', ['documents', 'get']],
    ['a bad --document-date', ['upload', 'x', '--document-date', '2024-03']],
  ])('exits 2 for %s, saying what is wrong on stderr', async (_, args) => {
    const { code, stdout, stderr } = await cli(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/error/);
  });

  it('exits 3 without a key, saying how to log in; with --json the error is the JSON on stdout', async () => {
    const human = await cli(['documents', 'list']);
    expect(human.code).toBe(3);
    expect(human.stderr).toContain('error: no API key for http://localhost:8080');
    expect(human.stderr).toContain('hint: run candidate-search login');
    const json = await cli(['documents', 'list', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { exitCode: 3, message: 'no API key for http://localhost:8080', hint: expect.any(String) },
    });
  });

  it('exits 2 for an upload path that does not exist, before uploading anything', async () => {
    const { code, stderr } = await cli(['upload', 'no-such-folder', '--api-key', 'csk_k', '--base-url', 'http://127.0.0.1:9']);
    expect(code).toBe(2);
    expect(stderr).toContain('no such file or folder: no-such-folder');
  });

  it('logs out when logged in, and says so when not', async () => {
    expect((await cli(['logout'])).stdout).toContain('Not logged in');
    await fs.writeFile(path.join(configDir, 'config.json'), JSON.stringify({ baseUrl: 'http://a', apiKey: 'k' }));
    const { code, stdout } = await cli(['logout', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ removed: true, configFile: path.join(configDir, 'config.json') });
    await expect(fs.stat(path.join(configDir, 'config.json'))).rejects.toThrow();
  });
});
