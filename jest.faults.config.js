// @ts-check
// The fault and lifecycle suites (`npm run test:faults`): services killed, stalled and restarted,
// jobs dead-lettered, data kept across restarts, the dense model switched and reindexed. Each one
// waits on processes going down and coming back, so together they take minutes: they are kept out
// of `npm test`, and CI runs both.
const base = require('./jest.config.js');
const [, , e2e] = base.projects;

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: base.maxWorkers,
  reporters: base.reporters,
  testTimeout: base.testTimeout,
  testSequencer: base.testSequencer,
  projects: [{ ...e2e, displayName: 'faults', testMatch: ['<rootDir>/e2e/faults/**/*.faults-spec.ts'] }],
};
