// ESLint flat config: typescript-eslint's strict and stylistic type-checked rules over every TypeScript
// file (apps, libs, e2e, bench, deploy, scripts), Prettier's config last so that no rule fights the
// formatter, and Nx's module boundaries between the layers of STYLE.md.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import nx from '@nx/eslint-plugin';

// STYLE.md's layers as Nx tags (each project.json): what a project of each tag may import.
const layers = {
  'type:domain': ['type:domain'],
  'type:port': ['type:port', 'type:domain'],
  // An adapter may build on another (embedded indexes on append-log, records on pglite and postgres).
  'type:adapter': ['type:adapter', 'type:port', 'type:domain'],
  'type:wiring': ['type:wiring', 'type:adapter', 'type:port', 'type:domain'],
  'type:app': ['type:wiring', 'type:adapter', 'type:port', 'type:domain', 'type:client'],
  // The standalone process composes the apps' modules: the one app allowed to import apps.
  'type:standalone': ['type:app', 'type:wiring', 'type:adapter', 'type:port', 'type:domain'],
  'type:e2e': ['type:wiring', 'type:adapter', 'type:port', 'type:domain', 'type:client'],
  'type:test': ['type:test', 'type:adapter', 'type:port', 'type:domain'],
};
// Logs and trace context (libs/telemetry) cross every layer, as a logger does; it imports none.
layers['type:telemetry'] = [];
for (const tags of Object.values(layers)) tags.push('type:telemetry');
// The SDK (libs/client) is published alone as @candidate-search/client: it imports nothing of ours, not even telemetry.
layers['type:client'] = [];

// Test code (specs, the shared contract suites, testing/ folders, e2e) may also use the test-only libs.
const testFiles = [
  '**/*.spec.ts',
  '**/*.int-spec.ts',
  '**/*.e2e-spec.ts',
  '**/*.hostile-spec.ts',
  '**/*.contract.ts',
  '**/testing/**/*.ts',
  'e2e/**/*.ts',
];
const boundaries = (withTests, allow = []) => [
  'error',
  {
    allow,
    depConstraints: Object.entries(layers).map(([sourceTag, tags]) => ({
      sourceTag,
      onlyDependOnLibsWithTags: withTests && !tags.includes('type:test') ? [...tags, 'type:test'] : tags,
    })),
  },
];

export default defineConfig(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'tmp/**',
      'data/**',
      'coverage/**',
      '.nx/**',
      'libs/contracts/src/gen/**',
      'libs/client/src/generated/**',
      'libs/client/dist/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts', 'deploy/**/*.ts', 'scripts/*.ts'],
    extends: [tseslint.configs.strictTypeChecked, tseslint.configs.stylisticTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // STYLE.md: floating promises, misused promises and non-exhaustive switches are errors.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Numbers in messages and keys (`${ms} ms`, `${id}:${n}`) are what most of our templates hold and print
      // exactly as meant; objects, nullish values and unions with them stay errors.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `() => resolve()` and `(x) => void …` shorthands in callbacks read as intended; the rule still
      // reports a void value used anywhere else.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
      // Nest modules are decorated empty classes (`@Module({...}) class XModule {}`): DI needs the class.
      '@typescript-eslint/no-extraneous-class': ['error', { allowWithDecorator: true }],
      // `_name` marks what is unused on purpose (a field dropped by destructuring, a port parameter an adapter ignores).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Off: stylisticTypeChecked's non-nullable-type-assertion-style turns `x as T` (x: T | undefined) into `x!`,
      // which this strict rule then refuses; the two contradict each other, and the claim is the same either way.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Off: both are used on purpose; a `type` object literal stays assignable to Record<string, unknown>
      // (metrics labels, JSON), an interface does not, so converting them breaks callers.
      '@typescript-eslint/consistent-type-definitions': 'off',
      // Off: async methods that implement Promise-returning ports (search, count, ack) without awaiting turn
      // a throw into a rejected promise; dropping `async` would make it a synchronous throw.
      '@typescript-eslint/require-await': 'off',
      // Off until tsconfig has noUncheckedIndexedAccess: without it `rows[0]` and indexed lookups are typed as
      // present, so the rule calls the guards for absent rows unnecessary; removing them would change behaviour.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // An empty string falls back on purpose (`env.X || default`, an empty header): `??` would keep the ''.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
      // Off: the indexed loops left are hot loops over postings and vectors (embedded BM25, the embedder),
      // written indexed on purpose; for-of's iterator there has not been measured.
      '@typescript-eslint/prefer-for-of': 'off',
      // Off: Nest types its options bags as classes (NestApplicationContextOptions); the documented way to pass
      // them is an object literal.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
    },
  },
  {
    plugins: { '@nx': nx },
  },
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(false) },
  },
  {
    files: testFiles,
    rules: { '@nx/enforce-module-boundaries': boundaries(true) },
  },
  {
    // The standalone process composes the six services' modules, which it imports by path (apps have no
    // import alias); STYLE.md allows it this and no other app.
    files: ['apps/standalone/src/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(true, [
        '^(\\.\\./)+(dense|gateway|ingestion|reranker|search-orchestrator|sparse)/src/app/',
      ]),
    },
  },
  {
    // zod-openapi marks a schema's `example` deprecated for `examples`; switching changes the published
    // OpenAPI document (and Swagger UI's samples), a decision for the contract, not for lint.
    files: ['libs/contracts/src/api.ts', 'apps/gateway/src/app/openapi/openapi.ts'],
    rules: { '@typescript-eslint/no-deprecated': 'off' },
  },
  {
    // The pg rows are typed with numbers that node-postgres returns as strings (bigint counts, numerics):
    // Number() is what makes them numbers.
    files: ['libs/records/**/*.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-conversion': 'off' },
  },
  {
    // Test and bench code reads JSON answers as loose records; the e2e client checks each against the served OpenAPI
    // document at run time (ajv), and the assertions check the shape. Typing them from libs/contracts is
    // the follow-up.
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', '**/*.hostile-spec.ts', '**/*.int-spec.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  prettier,
);
