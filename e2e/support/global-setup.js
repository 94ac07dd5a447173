// Builds the word-vector cache once before the end-to-end services start, so parallel test
// files do not each convert it.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

module.exports = async function globalSetup() {
  const root = path.resolve(__dirname, '../..');
  const cache = path.join(root, 'node_modules/.cache/candidate-search/embeddings');
  const result = spawnSync(
    process.execPath,
    ['-r', '@swc-node/register', '-e', `require('./libs/embeddings/src/index.ts').loadWordVectors(${JSON.stringify(cache)})`],
    { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error('could not build the word-vector cache for the e2e tests');
};
