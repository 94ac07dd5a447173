import { defineConfig } from 'tsup';

// ESM (.mjs) and CommonJS (.js) with their .d.ts, from the repository root (`npm run build:client`).
// Splitting keeps the code both entries share in one chunk, so `@candidate-search/client/node`'s errors
// are the same classes as the main entry's (instanceof holds across the two imports).
export default defineConfig({
  entry: { index: 'libs/client/src/index.ts', node: 'libs/client/src/node.ts' },
  outDir: 'libs/client/dist',
  format: ['esm', 'cjs'],
  dts: { compilerOptions: { composite: false, incremental: false } },
  splitting: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  tsconfig: 'libs/client/tsconfig.build.json',
  external: ['eventsource-parser', /^node:/],
});
