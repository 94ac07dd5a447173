// Before the end-to-end suites: builds the word-vector cache and PGlite's new-cluster cache once
// (so parallel suites do not each make them), and finds PostgreSQL, Redis and NATS for the cluster suites, saying in one line
// what is missing when they cannot run.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const { probeTestEnvironment } = require('../../scripts/jest-probe');

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../..');
  const cache = path.join(root, 'node_modules/.cache/candidate-search/embeddings');
  const result = spawnSync(
    process.execPath,
    [
      '-r',
      '@swc-node/register',
      '-e',
      `(async () => {
        await require('./libs/embeddings/src/index.ts').loadWordVectors(${JSON.stringify(cache)});
        await require('./libs/pglite/src/cluster-template.ts').clusterTemplate(require('./libs/pglite/src/pglite.client.ts').START_PARAMS);
      })().catch((error) => { console.error(error); process.exit(1); });`,
    ],
    { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('could not build the word-vector or PGlite cluster cache for the e2e tests');

  const missing = await probeTestEnvironment();
  const cluster = ['CS_TEST_POSTGRES_URL', 'CS_TEST_REDIS_URL', 'CS_TEST_NATS_URL'].every((key) => process.env[key]);
  process.env.CS_E2E_CLUSTER = cluster ? 'available' : 'missing';
  if (!cluster)
    process.stdout.write(
      `\ne2e: cluster suites skipped, not reachable: ${missing.filter((m) => !m.startsWith('Docker') && !m.startsWith('../shared')).join(', ')}\n`,
    );
};
