import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildOpenApiDocument } from './openapi';

const ROOT = path.resolve(__dirname, '../../../../..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

describe('the generated OpenAPI document, through openapi-typescript and tsc', () => {
  const document = buildOpenApiDocument();

  it('gives openapi-typescript a typed client in which a wrong field type does not compile', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-openapi-'));
    try {
      writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(document));
      const generated = spawnSync(bin('openapi-typescript'), [path.join(dir, 'openapi.json'), '-o', path.join(dir, 'api.d.ts')], {
        encoding: 'utf8',
      });
      expect(generated.status).toBe(0);
      const types = readFileSync(path.join(dir, 'api.d.ts'), 'utf8');
      // Only the document's empty top-level maps (webhooks, $defs) may be empty records; a body,
      // parameter or schema never is.
      const empty = types
        .split('\n')
        .filter((line) => line.includes('Record<string, never>') && !/^export type (webhooks|\$defs) = /.test(line));
      expect(empty).toEqual([]);
      const client = (withExpectation: boolean) =>
        [
          "import type { components, operations } from './api';",
          "type Doc = components['schemas']['Document'];",
          'declare const doc: Doc;',
          'export const name: string = doc.documentName;',
          ...(withExpectation ? ['// @ts-expect-error documentId is a string'] : []),
          'export const wrong: number = doc.documentId;',
          "type Results = operations['getSearchResults']['responses'][200]['content']['application/json'];",
          'declare const results: Results;',
          'export const score: number = results.results[0].score;',
        ].join('\n');
      const compile = (source: string) => {
        writeFileSync(path.join(dir, 'client.ts'), source);
        return spawnSync(
          bin('tsc'),
          ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', path.join(dir, 'client.ts')],
          { encoding: 'utf8' },
        );
      };
      expect(compile(client(true)).stdout).toBe('');
      const wrong = compile(client(false));
      expect(wrong.status).not.toBe(0);
      expect(wrong.stdout).toMatch(/Type 'string' is not assignable to type 'number'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
