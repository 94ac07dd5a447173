import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

// @nx/enforce-module-boundaries quietly checks nothing (one warning) when no Nx project graph is
// cached, as on a fresh clone; `npm run lint` computes the graph first, and so does this spec. The
// probe is text linted as if it were a file of the lib (the rule finds the project by path), so
// nothing is written into the source tree; the type-aware parser knows only the files its tsconfig
// holds, so the probe is linted without type information.
const root = path.resolve(__dirname, '..');
const RULE = '@nx/enforce-module-boundaries';
const PROBE = 'boundary-probe.ts';

async function lintProbe(source: string, lib = 'ranking'): Promise<ESLint.LintResult> {
  const eslint = new ESLint({ cwd: root, overrideConfig: { ...tseslint.configs.disableTypeChecked, files: [`**/${PROBE}`] } });
  const [result] = await eslint.lintText(source, { filePath: path.join(root, `libs/${lib}/src/${PROBE}`) });
  return result;
}

describe('module boundaries (the ESLint config of the repository)', () => {
  beforeAll(() => {
    execFileSync(path.join(root, 'node_modules/.bin/nx'), ['show', 'projects'], { cwd: root, stdio: 'ignore' });
  }, 120_000);

  it('refuses a domain lib importing an app by path and an adapter by alias, and lets it import a domain lib', async () => {
    const result = await lintProbe(
      [
        "import { GatewayModule } from '../../../apps/gateway/src/app/gateway.module';",
        "import { openPglite } from '@cs/pglite';",
        "import { tokenize } from '@cs/text-analysis';",
        'export const probe = [GatewayModule, openPglite, tokenize];',
        '',
      ].join('\n'),
    );
    const boundaries = result.messages.filter((m) => m.ruleId === RULE);
    expect(boundaries.map((m) => [m.line, m.message])).toEqual([
      [1, expect.stringMatching(/relative or absolute path/)],
      [2, expect.stringMatching(/tagged with "type:domain" can only depend on libs tagged with "type:domain"/)],
    ]);
    // Nothing else went wrong on the way (no parse error, no missing graph).
    expect(result.messages.filter((m) => m.ruleId !== RULE && m.ruleId?.startsWith('@typescript-eslint/') !== true)).toEqual([]);
  }, 120_000);

  it('refuses the SDK (published alone as @candidate-search/client) importing any lib of ours, even telemetry', async () => {
    const result = await lintProbe(
      ["import { api } from '@cs/contracts';", "import { inSpan } from '@cs/telemetry';", 'export const probe = [api, inSpan];', ''].join(
        '\n',
      ),
      'client',
    );
    const boundaries = result.messages.filter((m) => m.ruleId === RULE);
    expect(boundaries.map((m) => [m.line, m.message])).toEqual([
      [1, expect.stringMatching(/tagged with "type:client" cannot depend on any libs with tags/)],
      [2, expect.stringMatching(/tagged with "type:client" cannot depend on any libs with tags/)],
    ]);
  }, 120_000);
});
