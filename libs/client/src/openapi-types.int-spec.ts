import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

describe('the generated OpenAPI types', () => {
  it('match a fresh generation from the gateway’s document (run `npm run client:types` when this fails)', () => {
    const fresh = execFileSync(process.execPath, ['-r', '@swc-node/register', 'scripts/client-types.ts', '--stdout'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(readFileSync(path.join(__dirname, 'generated/openapi.ts'), 'utf8')).toBe(fresh);
  }, 120_000);
});
