// @ts-check
const os = require('node:os');
const { compilerOptions } = require('./tsconfig.base.json');

// `@cs/<lib>` imports resolve to the libs' sources, exactly as tsconfig paths say.
const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
};
const shared = {
  rootDir: __dirname,
  moduleNameMapper,
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  testEnvironment: 'node',
};

/** @type {import('jest').Config} */
module.exports = {
  // At least two suites at a time: the e2e suites mostly wait on the services they start, so on
  // 2 cores Jest's default (one worker) left a core idle (one whole run: 561 s with two, against
  // 1,366 to 1,562 s with one).
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  // Not Jest's 5 s: the unit suites run beside the end-to-end ones, whose services load both cores,
  // so an await that takes milliseconds alone may take seconds. A hung test still fails, later.
  // (A global option: Jest ignores it in a project's config.)
  testTimeout: 30_000,
  reporters: ['default', '<rootDir>/scripts/jest-summary-reporter.js'],
  testSequencer: '<rootDir>/scripts/jest-sequencer.js',
  // Three tiers (`npm run test:unit`, `test:integration`, `test:e2e`; `npm test` runs all three).
  // A unit spec opens no socket and starts no process; an integration spec talks to a real server
  // (PostgreSQL, Redis, NATS, s3rver, a container, an HTTP or gRPC server it starts) or starts a
  // process; an end-to-end spec drives a started service over HTTP.
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,bench,deploy}/**/*.spec.ts'],
      globalSetup: '<rootDir>/scripts/jest-unit-setup.js',
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,bench,deploy}/**/*.int-spec.ts'],
      globalSetup: '<rootDir>/scripts/jest-integration-setup.js',
    },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'], globalSetup: '<rootDir>/e2e/support/global-setup.js' },
  ],
};
