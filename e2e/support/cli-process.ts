import { spawn, spawnSync } from 'node:child_process';
import { promises as fs, rmSync } from 'node:fs';
import * as path from 'node:path';
import { generatedCorpus } from './fixtures';
import { ROOT } from './local-ports';

/** The `candidate-search` launcher, as package.json's bin names it. */
export const CLI_LAUNCHER = path.join(ROOT, 'apps/cli/bin/candidate-search.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `candidate-search` as a user's shell would without a terminal: its own process, stdin a
 * pipe (fed `input`, then closed), stdout and stderr pipes. The environment is the given one
 * over a clean copy of the test's (no CANDIDATE_SEARCH_* leaks in).
 */
export function runCli(args: string[], env: Record<string, string>, input = ''): Promise<CliRun> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CANDIDATE_SEARCH_'))) as Record<
    string,
    string
  >;
  return runProcess(
    process.execPath,
    [CLI_LAUNCHER, ...args],
    { cwd: env.CLI_CWD ?? ROOT, env: { ...base, NODE_OPTIONS: '', ...env } },
    input,
  );
}

/** Runs a command with stdin a pipe (fed `input`, then closed), collecting its output; killed after 240 s. */
export function runProcess(
  file: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
  input = '',
): Promise<CliRun> {
  const child = spawn(file, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The project's fixture CVs written to `dir`: five CVs in four formats each (20 files), a PDF
 * without text (invalid once processed), and a byte-for-byte copy of chef.pdf (a duplicate).
 */
export async function writeCvFolder(dir: string): Promise<string[]> {
  await fs.mkdir(dir, { recursive: true });
  const { files, textlessPdf } = await generatedCorpus();
  for (const f of files) await fs.writeFile(path.join(dir, f.file), f.bytes);
  await fs.writeFile(path.join(dir, 'scan.pdf'), textlessPdf);
  await fs.copyFile(path.join(dir, 'chef.pdf'), path.join(dir, 'chef-copy.pdf'));
  return (await fs.readdir(dir)).sort();
}

/** A tmux server of its own (`tmux -L <socket>`), one session of a fixed size running bash. */
export class TmuxTerminal {
  constructor(
    readonly socket: string,
    readonly session = 'cli',
  ) {}

  private tmux(...args: string[]): string {
    const result = spawnSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`tmux ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  }

  /** Starts bash (no rc files, a plain `$ ` prompt) in a 120x40 terminal with this environment. */
  start(cwd: string, env: Record<string, string>): void {
    // Through env(1) on the shell's command line: new-session -e does not reach the first pane's shell everywhere.
    const quote = (v: string) => `'${v.replace(/'/g, `'\\''`)}'`;
    const vars = Object.entries({ PS1: '$ ', ...env }).map(([k, v]) => `${k}=${quote(v)}`);
    this.tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      this.session,
      '-x',
      '120',
      '-y',
      '40',
      '-c',
      cwd,
      `env ${vars.join(' ')} bash --norc --noprofile`,
    );
  }

  /** Types a command line and Enter. */
  type(line: string): void {
    this.tmux('send-keys', '-t', this.session, '-l', line);
    this.tmux('send-keys', '-t', this.session, 'Enter');
  }

  /** Presses keys such as C-c. */
  press(key: string): void {
    this.tmux('send-keys', '-t', this.session, key);
  }

  /** What the terminal shows now: wrapped lines joined, trailing blanks cut. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-J', '-t', this.session).replace(/[ \t]+$/gm, '');
  }

  /** Ends the server and removes its socket file, which kill-server leaves behind. */
  kill(): void {
    const socketPath = spawnSync('tmux', ['-L', this.socket, 'display-message', '-p', '#{socket_path}'], {
      encoding: 'utf8',
    }).stdout.trim();
    spawnSync('tmux', ['-L', this.socket, 'kill-server']);
    if (socketPath) rmSync(socketPath, { force: true });
  }
}
