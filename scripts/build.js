#!/usr/bin/env node
// `npm run build`: compiles apps/ and libs/ to dist/ with swc (decorator metadata kept), rewriting
// the `@cs/*` aliases of tsconfig.base.json to relative requires, so `node dist/apps/<app>/src/main.js`
// runs each service without a TypeScript loader; then bundles the search console (apps/console)
// into dist/console, which CONSOLE_DIR points a gateway at (the image sets it).
const { spawnSync } = require('node:child_process');
const { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const { compilerOptions } = require(path.join(root, 'tsconfig.base.json'));
const paths = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, [target.replace(/\.ts$/, '')]]));
const config = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
    baseUrl: root,
    paths,
  },
  module: { type: 'commonjs' },
  sourceMaps: true,
};
const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-build-'));
const configFile = path.join(dir, 'swcrc.json');
writeFileSync(configFile, JSON.stringify(config));
rmSync(path.join(root, 'dist'), { recursive: true, force: true });
const result = spawnSync(
  process.execPath,
  [
    require.resolve('@swc/cli/bin/swc.js'),
    'apps',
    'libs',
    '-d',
    'dist',
    '--config-file',
    configFile,
    '--ignore',
    // The console's browser code is bundled by esbuild below, not compiled file by file.
    '**/*.spec.ts,**/*.int-spec.ts,**/*.contract.ts,**/testing/**,apps/console/web/**',
  ],
  { cwd: root, stdio: 'inherit' },
);
rmSync(dir, { recursive: true, force: true });
if (result.status !== 0) process.exit(result.status ?? 1);
// swc compiles only code: the data the compiled code requires beside it (the OpenAPI document's
// captured examples) is copied as it is.
for (const top of ['apps', 'libs'])
  for (const file of readdirSync(path.join(root, top), { recursive: true, encoding: 'utf8' }))
    if (file.endsWith('.json') && file.includes(`src${path.sep}`) && !/testing|node_modules|dist/.test(file))
      cpSync(path.join(root, top, file), path.join(root, 'dist', top, file));
// From the sources, where the console's page and style sheet are (dist holds only compiled code).
const console_ = spawnSync(
  process.execPath,
  [
    '-r',
    '@swc-node/register',
    '-e',
    `require('./apps/console/src/bundle.ts').writeConsole('dist/console').then((files) => process.stdout.write('dist/console: ' + files.join(', ') + '\\n'))`,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } },
);
process.exit(console_.status ?? 1);
