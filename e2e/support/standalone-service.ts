import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EMBEDDINGS_CACHE, ROOT, freePort } from './local-ports';

/** The evaluation set (real CVs, queries and labels; not in the repository): EVAL_DIR, else beside the clone. */
export const EVAL_DIR = path.resolve(ROOT, process.env.EVAL_DIR ?? '../shared/eval');

/**
 * The standalone service as a real child process on a free port with its own data folder,
 * started with `BASE_URL` unset; or, when E2E_BASE_URL is set, a service someone else runs.
 */
export class StandaloneService {
  private child: ChildProcess | null = null;
  private output = '';
  port = 0;

  private constructor(
    readonly dataDir: string,
    private env: Record<string, string>,
    private readonly keepData: boolean,
  ) {}

  /** A fresh data folder, removed on destroy(); or `dataDir`, created if missing and kept. */
  static async start(env: Record<string, string> = {}, dataDir?: string): Promise<StandaloneService> {
    if (dataDir) await fs.mkdir(dataDir, { recursive: true });
    const service = new StandaloneService(dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'cs-e2e-'))), env, dataDir !== undefined);
    await service.boot();
    return service;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get adminToken(): string {
    return readFileSync(path.join(this.dataDir, 'admin-token'), 'utf8').trim();
  }

  /** The service's process id (for reading its memory use). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get logs(): string {
    return this.output;
  }

  async boot(): Promise<void> {
    this.port = this.port || (await freePort());
    this.output = '';
    // As `npm start` runs it: the heap cap and two malloc arenas keep the standalone RSS within its budget.
    const heapMb = process.env.STANDALONE_HEAP_MB ?? '640';
    // STANDALONE_NODE_ARGS adds Node flags that NODE_OPTIONS refuses (`--cpu-prof` for a profile of the service).
    const nodeArgs = process.env.STANDALONE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const command = [
      process.execPath,
      `--max-old-space-size=${heapMb}`,
      ...nodeArgs,
      '-r',
      '@swc-node/register',
      'apps/standalone/src/main.ts',
    ];
    // STANDALONE_CGROUP_PROCS: a cgroup's cgroup.procs, joined before Node starts (the bench measures memory there).
    const cgroupProcs = process.env.STANDALONE_CGROUP_PROCS;
    const [file, ...args] = cgroupProcs ? ['/bin/sh', '-c', 'echo $$ > "$0" && exec "$@"', cgroupProcs, ...command] : command;
    const child = spawn(file, args, {
      cwd: ROOT,
      env: {
        MALLOC_ARENA_MAX: '2',
        ...process.env,
        NODE_OPTIONS: '',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        EMBEDDINGS_CACHE_DIR: EMBEDDINGS_CACHE,
        LOG_LEVEL: 'warn',
        DRAIN_MS: '0', // no load balancer to drain from
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    // A kept folder may hold a 100k-CV company, whose indexes take minutes to load.
    const deadline = Date.now() + (this.keepData ? 900_000 : 120_000);
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${this.output}`);
      try {
        if ((await fetch(`${this.baseUrl}/healthz`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the service did not become healthy:\n${this.output}`);
  }

  /** SIGTERM (graceful) or SIGKILL (a crash); resolves when the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.child;
    if (child?.exitCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const code = await exited;
    this.child = null;
    return code;
  }

  async restart(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.stop(signal);
    await this.boot();
  }

  /** Stops the service and starts it again over the same data with other settings (`env` replaces the first ones). */
  async restartWith(env: Record<string, string>): Promise<void> {
    await this.stop('SIGTERM');
    this.env = env;
    await this.boot();
  }

  async destroy(): Promise<void> {
    if (this.keepData) {
      await this.stop('SIGTERM');
      return;
    }
    await this.stop('SIGKILL');
    await fs.rm(this.dataDir, { recursive: true, force: true });
  }
}
