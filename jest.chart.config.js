// @ts-check
// The Helm chart's suite (`npm run test:chart`): helm lint and helm template over every values file
// in helm/candidate-search/ci/, each object checked against Kubernetes' schemas and by kubectl
// kustomize. Rendering takes seconds a file, so it is kept out of `npm test`; CI runs both.
const base = require('./jest.config.js');
const [unit] = base.projects;

/** @type {import('jest').Config} */
module.exports = {
  reporters: base.reporters,
  testTimeout: base.testTimeout,
  projects: [{ ...unit, displayName: 'chart', testMatch: ['<rootDir>/deploy/**/*.chart-spec.ts'], globalSetup: undefined }],
};
