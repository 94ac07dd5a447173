// @ts-check
// The hostile-input suites (`npm run test:hostile`): bombs, malformed requests, tenancy and SSRF
// sweeps against a started service. Slow by nature, so kept out of `npm test`; CI runs both.
const base = require('./jest.config.js');
const [unit] = base.projects;

/** @type {import('jest').Config} */
module.exports = {
  reporters: base.reporters,
  testTimeout: base.testTimeout,
  projects: [
    {
      ...unit,
      displayName: 'hostile',
      testMatch: ['<rootDir>/e2e/hostile/**/*.hostile-spec.ts'],
      globalSetup: '<rootDir>/e2e/support/global-setup.js',
    },
  ],
};
