// @ts-check
// The slow end-to-end suites, kept out of `npm test` so that it stays under 15 minutes; CI runs
// them too. Each waits on time passing rather than on work:
// - `faults` (`npm run test:faults`): services killed, stalled and restarted, jobs dead-lettered,
//   data kept across restarts, the dense model switched and reindexed;
// - `waits` (`npm run test:waits`): long polls and event streams held open until a search ends,
//   webhook deliveries retried with backoff.
const base = require('./jest.config.js');
const [, , e2e] = base.projects;

/** @type {import('jest').Config} */
module.exports = {
  maxWorkers: base.maxWorkers,
  reporters: base.reporters,
  testTimeout: base.testTimeout,
  testSequencer: base.testSequencer,
  projects: [
    { ...e2e, displayName: 'faults', testMatch: ['<rootDir>/e2e/faults/**/*.faults-spec.ts'] },
    { ...e2e, displayName: 'waits', testMatch: ['<rootDir>/e2e/waits/**/*.waits-spec.ts'] },
  ],
};
