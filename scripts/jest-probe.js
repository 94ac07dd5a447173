// @ts-check
// Decides once, before any suite loads, which outside things this run has. Every tier gets the
// local ones: tmux, ../shared/eval and Chromium (CHROMIUM_PATH, else the Debian package's
// /usr/bin/chromium) for the console's browser suite. The integration and end-to-end tiers also get
// the servers: PostgreSQL, Redis, NATS and a container runtime (Docker); the unit tier never
// connects to one, so it runs with none up. Suites read the answer from the environment
// (libs/test-services testEnvironment()) and declare their cases skipped when a need is missing, so
// a missing server is counted as skipped, never as passed. Under CI=true a missing PostgreSQL,
// Redis or NATS fails the run instead.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
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

async function dockerAvailable() {
  if (!process.env.DOCKER_HOST && !fs.existsSync('/var/run/docker.sock')) return false;
  try {
    const { getContainerRuntimeClient } = require('testcontainers');
    await Promise.race([getContainerRuntimeClient(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 15_000))]);
    return true;
  } catch {
    return false;
  }
}

/** tmux, ../shared/eval and Chromium: what each is missing, in words. */
function probeLocal() {
  const root = path.resolve(__dirname, '..');
  const missing = [];
  const tmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
  process.env.CS_TEST_TMUX = tmux ? '1' : '';
  if (!tmux) missing.push('tmux (the CLI terminal tests)');
  const evalDir = path.resolve(root, process.env.EVAL_DIR || '../shared/eval');
  const haveEval = fs.existsSync(path.join(evalDir, 'livecareer/pdf'));
  process.env.CS_TEST_EVAL_DIR = haveEval ? evalDir : '';
  if (!haveEval) missing.push(`the evaluation set at ${evalDir} (the real-CV cases; EVAL_DIR names another)`);
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  const haveChromium = fs.existsSync(chromium);
  process.env.CS_TEST_CHROMIUM = haveChromium ? chromium : '';
  if (!haveChromium) missing.push(`Chromium at ${chromium} (the console suite; CHROMIUM_PATH names another)`);
  return missing;
}

/** PostgreSQL, Redis, NATS and Docker: what each is missing, in words. */
async function probeServers() {
  const servers = [
    ['CS_TEST_POSTGRES_URL', 'PostgreSQL', process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres', 5432],
    ['CS_TEST_REDIS_URL', 'Redis', process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379', 6379],
    ['CS_TEST_NATS_URL', 'NATS JetStream', process.env.TEST_NATS_URL || 'nats://127.0.0.1:4222', 4222],
  ];
  const missing = [];
  for (const [key, name, url, port] of servers) {
    const ok = await reachable(url, port);
    process.env[key] = ok ? url : '';
    if (!ok) missing.push(`${name} (${url})`);
  }
  if (missing.length && process.env.CI === 'true') {
    throw new Error(`CI=true and not reachable: ${missing.join(', ')}; run ../shared/scripts/ensure-services.sh`);
  }
  const docker = await dockerAvailable();
  process.env.CS_TEST_DOCKER = docker ? '1' : '';
  if (!docker) missing.push('Docker (the Qdrant, Elasticsearch and MinIO suites)');
  return missing;
}

/**
 * Sets CS_TEST_* for the suites; returns what is missing, in words. `servers: false` (the unit
 * tier) leaves the servers unprobed, as absent; a later tier's setup in the same run probes them.
 */
async function probeTestEnvironment({ servers = true } = {}) {
  const missing = JSON.parse(process.env.CS_TEST_MISSING || '[]');
  const found = [];
  if (process.env.CS_TEST_PROBED !== '1') {
    found.push(...probeLocal());
    process.env.CS_TEST_PROBED = '1';
  }
  if (servers && process.env.CS_TEST_SERVERS_PROBED !== '1') {
    found.push(...(await probeServers()));
    process.env.CS_TEST_SERVERS_PROBED = '1';
  }
  missing.push(...found);
  process.env.CS_TEST_MISSING = JSON.stringify(missing);
  // In-process code under test logs its job lines at info: the tests' output keeps warnings and errors.
  process.env.LOG_LEVEL ??= 'warn';
  if (found.length) process.stdout.write(`\ntests: skipping what needs ${found.join('; ')}\n`);
  return missing;
}

module.exports = { probeTestEnvironment };
