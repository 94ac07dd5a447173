#!/usr/bin/env node
// `npm run start:cluster`: the six services as separate processes on this machine, against the
// local PostgreSQL, Redis and NATS (override with DATABASE_URL, REDIS_URL, NATS_URL). For
// development; Kubernetes runs the same mains from the Helm chart.
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');

const root = path.resolve(__dirname, '..');
const env = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/candidate_search',
  REDIS_URL: 'redis://127.0.0.1:6379',
  NATS_URL: 'nats://127.0.0.1:4222',
  DATA_DIR: path.join(root, 'data/cluster'),
  PORT: '8080',
  DENSE_GRPC_ADDRESS: '127.0.0.1:50051',
  SPARSE_GRPC_ADDRESS: '127.0.0.1:50052',
  RERANKER_GRPC_ADDRESS: '127.0.0.1:50053',
  ...process.env,
};
const services = [
  ['dense', { GRPC_PORT: env.DENSE_GRPC_ADDRESS.split(':').pop() }],
  ['sparse', { GRPC_PORT: env.SPARSE_GRPC_ADDRESS.split(':').pop() }],
  ['reranker', { GRPC_PORT: env.RERANKER_GRPC_ADDRESS.split(':').pop() }],
  ['ingestion', {}],
  ['search-orchestrator', {}],
  ['gateway', {}],
];
// One metrics port each (they would all take METRICS_PORT otherwise): P to P+5, in this order.
const METRICS_ORDER = ['gateway', 'ingestion', 'search-orchestrator', 'dense', 'sparse', 'reranker'];
if (env.METRICS_PORT) {
  const base = Number(env.METRICS_PORT);
  if (!Number.isInteger(base) || base < 1 || base > 65535 - 5) {
    process.stderr.write(`start:cluster: METRICS_PORT must be a port number up to 65530 (it takes six), not ${env.METRICS_PORT}\n`);
    process.exit(2);
  }
  for (const [name, extra] of services) extra.METRICS_PORT = String(base + METRICS_ORDER.indexOf(name));
  process.stdout.write(`metrics (GET /metrics, and /healthz): ${METRICS_ORDER.map((name, i) => `${name} :${base + i}`).join(', ')}\n`);
}

async function ensureDatabase(url) {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (rows.length === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  await client.end();
}

/**
 * The gateway refuses to start without ADMIN_TOKEN and PRESIGN_SECRET. Unset, they are read from
 * the data folder, or made there on the first start: the admin CLI finds the token there too.
 */
function devSecret(name, file) {
  if (env[name]) return;
  const at = path.join(env.DATA_DIR, file);
  try {
    env[name] = fs.readFileSync(at, 'utf8').trim();
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    env[name] = randomBytes(32).toString('base64url');
    fs.mkdirSync(env.DATA_DIR, { recursive: true });
    fs.writeFileSync(at, `${env[name]}\n`, { mode: 0o600 });
  }
  process.stdout.write(`${name}: from ${at}\n`);
}

async function main() {
  devSecret('ADMIN_TOKEN', 'admin-token');
  devSecret('PRESIGN_SECRET', 'presign-secret');
  await ensureDatabase(env.DATABASE_URL);
  const children = services.map(([name, extra]) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', `apps/${name}/src/main.ts`], {
      cwd: root,
      env: { ...env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tag = `[${name}]`.padEnd(22);
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (d) => {
        const lines = (rest + d.toString()).split('\n');
        rest = lines.pop();
        for (const line of lines) process.stdout.write(`${tag} ${line}\n`);
      });
    }
    child.on('exit', (code, signal) => process.stdout.write(`${tag} exited (${signal ?? code})\n`));
    return child;
  });
  const stop = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  process.stderr.write(`start:cluster: ${error.message}\n`);
  process.exit(1);
});
