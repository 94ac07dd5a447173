import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { EMBEDDINGS_CACHE, ROOT, freePort } from './local-ports';
import { Redis } from 'ioredis';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<net.AddressInfo>; close(): Promise<void> };
import { deleteTopology } from '@cs/nats';
import { createTestDatabase, runPrefix, testEnvironment } from '@cs/test-services';

export type ServiceName = 'dense' | 'sparse' | 'reranker' | 'ingestion' | 'search-orchestrator' | 'gateway';
export const SERVICE_NAMES: ServiceName[] = ['dense', 'sparse', 'reranker', 'ingestion', 'search-orchestrator', 'gateway'];

/**
 * The six services as separate processes against the local PostgreSQL (a database of their own),
 * Redis and NATS (their own key and stream prefix), each startable, stoppable and killable.
 */
export class ClusterServices {
  private readonly children = new Map<string, ChildProcess>();
  private readonly logs = new Map<string, string>();
  readonly ports: Record<'http' | 'dense' | 'sparse' | 'reranker', number>;
  private env: Record<string, string> = {};

  private constructor(
    readonly dataDir: string,
    ports: ClusterServices['ports'],
    private readonly cleanups: (() => Promise<void>)[],
  ) {
    this.ports = ports;
  }

  /** Null when PostgreSQL, Redis or NATS is not reachable here. */
  static async start(extraEnv: Record<string, string> = {}, only: ServiceName[] = SERVICE_NAMES): Promise<ClusterServices | null> {
    const services = testEnvironment();
    if (!services.postgresUrl || !services.redisUrl || !services.natsUrl) return null;
    const db = await createTestDatabase(services.postgresUrl);
    const prefix = runPrefix();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cs-cluster-'));
    const ports = { http: await freePort(), dense: await freePort(), sparse: await freePort(), reranker: await freePort() };
    const natsUrl = services.natsUrl;
    const redisUrl = services.redisUrl;
    // CV files go to S3: an S3-compatible server from npm stands in for MinIO.
    const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(dataDir, 's3') });
    const s3Port = (await s3.run()).port;
    const cluster = new ClusterServices(dataDir, ports, [
      () => s3.close(),
      db.drop,
      () => deleteTopology(natsUrl, prefix),
      async () => {
        const redis = new Redis(redisUrl);
        const keys = await redis.keys(`${prefix}:*`);
        if (keys.length) await redis.del(...keys);
        await redis.quit();
      },
      () => fs.rm(dataDir, { recursive: true, force: true }),
    ]);
    cluster.env = {
      DATABASE_URL: db.url,
      REDIS_URL: redisUrl,
      NATS_URL: natsUrl,
      NATS_PREFIX: prefix,
      DATA_DIR: dataDir,
      EMBEDDINGS_CACHE_DIR: EMBEDDINGS_CACHE,
      DENSE_GRPC_ADDRESS: `127.0.0.1:${ports.dense}`,
      SPARSE_GRPC_ADDRESS: `127.0.0.1:${ports.sparse}`,
      RERANKER_GRPC_ADDRESS: `127.0.0.1:${ports.reranker}`,
      PORT: String(ports.http),
      HOST: '127.0.0.1',
      S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
      S3_BUCKET: 'cvs',
      LOG_LEVEL: 'info', // the ready line is an info line
      DRAIN_MS: '0', // no load balancer to drain from (the readiness suite sets its own)
      // The cluster's gateway refuses to start without them; every replica shares them.
      ADMIN_TOKEN: randomBytes(32).toString('base64url'),
      PRESIGN_SECRET: randomBytes(32).toString('base64url'),
      ...extraEnv,
    };
    // Where the admin CLI looks for the token when ADMIN_TOKEN is not in its environment.
    await fs.writeFile(path.join(dataDir, 'admin-token'), `${cluster.env.ADMIN_TOKEN}\n`, { mode: 0o600 });
    try {
      await Promise.all(only.map((name) => cluster.startService(name)));
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
    return cluster;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.ports.http}`;
  }

  /** The services' own PostgreSQL database (to look at what the API does not show, such as the outbox). */
  get databaseUrl(): string {
    return this.env.DATABASE_URL;
  }

  /** The run's NATS stream and consumer prefix (see natsNames). */
  get natsPrefix(): string {
    return this.env.NATS_PREFIX;
  }

  get adminToken(): string {
    return this.env.ADMIN_TOKEN;
  }

  logOf(name: ServiceName): string {
    return this.logs.get(name) ?? '';
  }

  async startService(name: ServiceName, instance = name as string, env: Record<string, string> = {}): Promise<void> {
    const grpcPort = name === 'dense' || name === 'sparse' || name === 'reranker' ? { GRPC_PORT: String(this.ports[name]) } : {};
    const child = spawn(process.execPath, ['-r', '@swc-node/register', `apps/${name}/src/main.ts`], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '', ...this.env, ...grpcPort, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.children.set(instance, child);
    this.logs.set(instance, '');
    let ready: () => void = () => undefined;
    const readyLine = new Promise<void>((resolve) => (ready = resolve));
    const onData = (d: Buffer) => {
      const text = d.toString();
      this.logs.set(instance, (this.logs.get(instance) ?? '') + text);
      if (text.includes(' ready')) ready();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code) => reject(new Error(`${instance} exited with ${code}:\n${this.logs.get(instance)}`))),
    );
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${instance} did not get ready:\n${this.logs.get(instance)}`)), 90_000).unref(),
    );
    await Promise.race([readyLine, exited, timeout]);
  }

  /** Sends a signal to one process without waiting for it: SIGSTOP freezes it (a hung dependency), SIGCONT resumes it. */
  signal(instance: string, signal: NodeJS.Signals): void {
    const child = this.children.get(instance);
    if (child?.exitCode !== null) throw new Error(`${instance} is not running`);
    child.kill(signal);
  }

  /** SIGTERM (graceful) or SIGKILL (a crash) of one process; resolves with its exit code. */
  async stopService(instance: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    const child = this.children.get(instance);
    if (child?.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const code = await exited;
    this.children.delete(instance);
    return code;
  }

  async destroy(): Promise<void> {
    await Promise.all([...this.children.keys()].map((name) => this.stopService(name, 'SIGKILL')));
    for (const cleanup of this.cleanups) await cleanup().catch(() => undefined);
  }
}
