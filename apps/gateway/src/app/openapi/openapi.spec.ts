import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { OpenApiCheck } from '@cs/test-services';
import { buildOpenApiDocument } from './openapi';

const ROOT = path.resolve(__dirname, '../../../../..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

describe('the generated OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('names every operation and describes every success body with a schema', () => {
    const operations = Object.entries(document.paths ?? {}).flatMap(([template, item]) =>
      Object.entries(
        item as Record<string, { operationId?: string; responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>,
      ).map(([method, op]) => ({ template, method, op })),
    );
    expect(operations).toHaveLength(18);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    for (const { template, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (!status.startsWith('2')) continue;
        expect({ template, method, status, schema: response.content?.['application/json']?.schema ?? null }).toEqual({
          template,
          method,
          status,
          schema: expect.objectContaining({ $ref: expect.any(String) }),
        });
      }
    }
  });

  describe('OpenApiCheck (what the e2e suites hold every answer to)', () => {
    const check = new OpenApiCheck(document as never);
    const limits = new Headers({ 'RateLimit-Limit': '10', 'RateLimit-Remaining': '9', 'RateLimit-Reset': '1' });
    const created = {
      searchId: '0b1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00',
      searchGroupId: '1b1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00',
      status: 'processing',
      searchType: 'dense',
      query: 'accountant',
      estimatedTime: 'under 1 second',
      statusUrl: '/v1/public/searches/0b1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00',
      resultsUrl: '/v1/public/searches/0b1f6f0e-3f5e-4c56-9a43-1d3c5e0b8f00/results',
    };

    it('accepts an answer the document describes', () => {
      expect(check.problems('POST', '/v1/public/searches/dense', 202, limits, created)).toEqual([]);
    });

    it('refuses an unknown field, a wrong type, a missing header and an unlisted status', () => {
      expect(check.problems('POST', '/v1/public/searches/dense', 202, limits, { ...created, debug: true }).join()).toMatch(
        /additional properties/,
      );
      expect(check.problems('POST', '/v1/public/searches/dense', 202, limits, { ...created, query: 7 }).join()).toMatch(/must be string/);
      expect(check.problems('POST', '/v1/public/searches/dense', 202, new Headers(), created).join()).toMatch(
        /header RateLimit-Limit missing/,
      );
      expect(check.problems('POST', '/v1/public/searches/dense', 204, limits, null).join()).toMatch(/does not list status 204/);
    });

    it('tells the groups list from a search id', () => {
      const page = { data: [], pagination: { limit: 20, offset: 0, total: 0, hasMore: false } };
      expect(check.problems('GET', '/v1/public/searches/groups?limit=20', 200, limits, page)).toEqual([]);
    });
  });

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
