import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** Word vectors are converted once and shared by every run (a cache, not test data). */
const EMBEDDINGS_CACHE = path.join(ROOT, 'node_modules/.cache/candidate-search/embeddings');

export const EVAL_DIR = path.resolve(ROOT, '../shared/eval');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

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
    private readonly env: Record<string, string>,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<StandaloneService> {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-e2e-'));
    const service = new StandaloneService(dataDir, env);
    await service.boot();
    return service;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get adminToken(): string {
    return readFileSync(path.join(this.dataDir, 'admin-token'), 'utf8').trim();
  }

  get logs(): string {
    return this.output;
  }

  async boot(): Promise<void> {
    this.port = this.port || (await freePort());
    this.output = '';
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/standalone/src/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        EMBEDDINGS_CACHE_DIR: EMBEDDINGS_CACHE,
        LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    const deadline = Date.now() + 120_000;
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
    if (!child || child.exitCode !== null) return child?.exitCode ?? null;
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

  async destroy(): Promise<void> {
    await this.stop('SIGKILL');
    await fs.rm(this.dataDir, { recursive: true, force: true });
  }
}
