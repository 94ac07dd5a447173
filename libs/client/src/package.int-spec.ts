import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { VERSION } from './version';

const ROOT = path.resolve(__dirname, '../../..');
const LIB = path.join(ROOT, 'libs/client');
const manifest = JSON.parse(readFileSync(path.join(LIB, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};
const node = (args: string[], cwd: string) =>
  execFileSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the published package', () => {
  it('states the version the client reports', () => {
    expect(VERSION).toBe(manifest.version);
  });

  it('depends only on what its code imports: eventsource-parser (no @cs/* lib, no other package)', () => {
    expect(Object.keys(manifest.dependencies)).toEqual(['eventsource-parser']);
  });

  it('has a main entry that compiles for browsers: the DOM’s types only, none of Node’s', () => {
    const work = mkdtempSync(path.join(os.tmpdir(), 'cs-client-dom-'));
    const compilerOptions = {
      target: 'es2022',
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['es2022', 'dom', 'dom.iterable'],
      types: [],
      typeRoots: [],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    };
    writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [path.join(LIB, 'src/index.ts')] }));
    try {
      expect(() => node([require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], work)).not.toThrow();
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);

  /**
   * Builds the package with tsup into a scratch node_modules/@candidate-search/client (as npm would
   * install it), then imports it by name from ESM and CommonJS and type-checks a consumer under
   * Node's own module resolution, so the exports map, both formats and both .d.ts flavours are
   * what a user gets.
   */
  describe('built with tsup', () => {
    let work: string;
    beforeAll(() => {
      work = mkdtempSync(path.join(os.tmpdir(), 'cs-client-build-'));
      const pkg = path.join(work, 'node_modules/@candidate-search/client');
      mkdirSync(pkg, { recursive: true });
      cpSync(path.join(LIB, 'package.json'), path.join(pkg, 'package.json'));
      cpSync(path.join(LIB, 'README.md'), path.join(pkg, 'README.md'));
      symlinkSync(path.join(ROOT, 'node_modules/eventsource-parser'), path.join(work, 'node_modules/eventsource-parser'));
      node(
        [require.resolve('tsup/dist/cli-default.js'), '--config', 'libs/client/tsup.config.ts', '--out-dir', path.join(pkg, 'dist')],
        ROOT,
      );
    }, 120_000);
    afterAll(() => rmSync(work, { recursive: true, force: true }));

    const probe = (importMain: string, importNode: string) => `
      const main = ${importMain};
      const nodeEntry = ${importNode};
      const client = new nodeEntry.CandidateSearch({ baseUrl: 'http://127.0.0.1:9', apiKey: 'csk_x', fetch: async () => new Response(JSON.stringify({ error: 'not_found', message: 'gone' }), { status: 404, headers: { 'content-type': 'application/json' } }) });
      client.getDocument('00000000-0000-4000-8000-000000000000').catch((err) => {
        console.log(JSON.stringify({
          exports: Object.keys(main).sort(),
          version: main.VERSION,
          sameClass: client instanceof main.CandidateSearch,
          sameErrors: err instanceof main.NotFoundError && err instanceof main.CandidateSearchError && main.NotFoundError === nodeEntry.NotFoundError,
          error: err.error,
          uploadDirectory: typeof client.uploadDirectory,
        }));
      });`;

    it('imports from ESM and CommonJS by name, with the same exports, and one set of classes across the two entries', () => {
      writeFileSync(
        path.join(work, 'esm.mjs'),
        probe(`await import('@candidate-search/client')`, `await import('@candidate-search/client/node')`),
      );
      writeFileSync(path.join(work, 'cjs.cjs'), probe(`require('@candidate-search/client')`, `require('@candidate-search/client/node')`));
      const esm = JSON.parse(node(['esm.mjs'], work)) as Record<string, unknown>;
      const cjs = JSON.parse(node(['cjs.cjs'], work)) as Record<string, unknown>;
      expect(esm).toEqual(cjs);
      expect(esm).toMatchObject({
        version: manifest.version,
        sameClass: true,
        sameErrors: true,
        error: 'not_found',
        uploadDirectory: 'function',
      });
      expect(esm.exports).toEqual(
        expect.arrayContaining([
          'CandidateSearch',
          'CandidateSearchError',
          'SearchFailedError',
          'TimeoutError',
          'SEARCH_TYPES',
          'searchFilters',
        ]),
      );
    });

    it('keeps Node’s modules out of the main entry, so browsers can bundle it', () => {
      const dist = path.join(work, 'node_modules/@candidate-search/client/dist');
      const browserFiles = readdirSync(dist).filter((f) => /\.(m?js)$/.test(f) && !f.startsWith('node.'));
      expect(browserFiles.length).toBeGreaterThanOrEqual(4);
      for (const file of browserFiles)
        expect({
          file,
          nodeImports: readFileSync(path.join(dist, file), 'utf8').match(/(from |require\()["'](node:)?(fs|path|os|child_process)["']/g),
        }).toEqual({
          file,
          nodeImports: null,
        });
    });

    it('type-checks a consumer of both entries from ESM and CommonJS (Node16 resolution)', () => {
      const use = `
        import { CandidateSearch, SearchFailedError, type QuerySearchType, type SearchStatus } from '@candidate-search/client';
        import { CandidateSearch as NodeClient, type UploadDirectorySummary } from '@candidate-search/client/node';
        const type: QuerySearchType = 'hybrid';
        export async function run(): Promise<[string, UploadDirectorySummary]> {
          const cs = new CandidateSearch({ baseUrl: 'http://localhost:8080', apiKey: 'csk_x' });
          const { search, page } = await cs.search(type, 'accountant', { timeoutMs: 30_000 });
          const like = await cs.similar(page.results[0]?.documentId ?? '', { topK: 5, facets: ['seniority'] });
          const status: SearchStatus = await cs.getSearch(search.searchId);
          const summary = await new NodeClient({ baseUrl: 'http://localhost:8080', apiKey: 'csk_x' }).uploadDirectory('./cvs');
          try { await cs.waitForSearch(status.searchId); } catch (err) { if (err instanceof SearchFailedError) return [err.searchError, summary]; }
          return [page.results[0]?.documentName ?? like.page.metadata.distinctiveTerms?.[0] ?? '', summary];
        }`;
      writeFileSync(path.join(work, 'use-esm.mts'), use);
      writeFileSync(path.join(work, 'use-cjs.cts'), use);
      const compilerOptions = {
        module: 'node16',
        moduleResolution: 'node16',
        target: 'es2022',
        lib: ['es2022', 'dom'],
        strict: true,
        noEmit: true,
        // Resolution and the consumer's use are what is checked here; @types/node's own files need no second check.
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [path.join(ROOT, 'node_modules/@types')],
      };
      writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['use-esm.mts', 'use-cjs.cts'] }));
      expect(() => node([require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], work)).not.toThrow();
    }, 60_000);
  });
});
