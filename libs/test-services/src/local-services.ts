import { randomBytes } from 'node:crypto';
import * as net from 'node:net';
import { Client } from 'pg';

/** Whether something listens on host:port (a quick TCP probe). */
export function reachable(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function hostPort(url: string, defaultPort: number): [string, number] {
  const parsed = new URL(url);
  return [parsed.hostname, Number(parsed.port || defaultPort)];
}

/** The servers the cluster tests need, where this environment has them, else null. */
export interface TestServices {
  postgresUrl: string | null;
  redisUrl: string | null;
  natsUrl: string | null;
}

/**
 * Finds PostgreSQL, Redis and NATS: at the URLs the environment names (TEST_DATABASE_URL,
 * TEST_REDIS_URL, TEST_NATS_URL), else at their usual local ports.
 */
export async function findTestServices(env: NodeJS.ProcessEnv = process.env): Promise<TestServices> {
  const candidates = {
    postgresUrl: env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.TEST_REDIS_URL || 'redis://127.0.0.1:6379',
    natsUrl: env.TEST_NATS_URL || 'nats://127.0.0.1:4222',
  };
  const [pg, redis, nats] = await Promise.all([
    reachable(...hostPort(candidates.postgresUrl, 5432)),
    reachable(...hostPort(candidates.redisUrl, 6379)),
    reachable(...hostPort(candidates.natsUrl, 4222)),
  ]);
  return { postgresUrl: pg ? candidates.postgresUrl : null, redisUrl: redis ? candidates.redisUrl : null, natsUrl: nats ? candidates.natsUrl : null };
}

/** One line saying what is missing, for the suites that skip. */
export function missingLine(suite: string, services: Partial<TestServices>, needs: Array<keyof TestServices>): string | null {
  const missing = needs.filter((n) => !services[n]).map((n) => ({ postgresUrl: 'PostgreSQL (5432 or TEST_DATABASE_URL)', redisUrl: 'Redis (6379 or TEST_REDIS_URL)', natsUrl: 'NATS JetStream (4222 or TEST_NATS_URL)' })[n]);
  return missing.length ? `${suite}: skipped, not reachable: ${missing.join(', ')}` : null;
}

/** A database of its own for one test run, dropped by the returned function. */
export async function createTestDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cs_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A prefix for stream, subject and key names of one test run. */
export const runPrefix = (): string => `cs_test_${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
