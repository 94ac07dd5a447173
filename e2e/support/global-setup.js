// Before the end-to-end suites: builds the word-vector cache once (so parallel suites do not each
// convert it), and finds PostgreSQL, Redis and NATS for the cluster suites, saying in one line
// what is missing when they cannot run.
const { spawnSync } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

const reachable = (url, fallbackPort) =>
  new Promise((resolve) => {
    const u = new URL(url);
    const socket = net.connect({ host: u.hostname, port: Number(u.port || fallbackPort) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../..');
  const cache = path.join(root, 'node_modules/.cache/candidate-search/embeddings');
  const result = spawnSync(
    process.execPath,
    ['-r', '@swc-node/register', '-e', `require('./libs/embeddings/src/index.ts').loadWordVectors(${JSON.stringify(cache)})`],
    { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('could not build the word-vector cache for the e2e tests');

  const needs = [
    ['PostgreSQL', process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432', 5432],
    ['Redis', process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379', 6379],
    ['NATS JetStream', process.env.TEST_NATS_URL || 'nats://127.0.0.1:4222', 4222],
  ];
  const missing = [];
  for (const [name, url, port] of needs) if (!(await reachable(url, port))) missing.push(`${name} (${url})`);
  process.env.CS_E2E_CLUSTER = missing.length ? 'missing' : 'available';
  if (missing.length) process.stdout.write(`\ne2e: cluster suites skipped, not reachable: ${missing.join(', ')}\n`);
};
