import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { generateWebhookSecret, signWebhook, webhookHeaders } from './signing';

/** The verifier docs/api.md shows receivers, compiled as written: it must accept what we send and refuse what we would refuse. */
function docsVerifier(): (secret: string, headers: Record<string, string | undefined>, rawBody: string) => unknown {
  const docs = readFileSync(path.resolve(__dirname, '../../../docs/api.md'), 'utf8');
  const section = docs.slice(docs.indexOf('### Verifying a delivery'));
  const sample = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!sample) throw new Error('docs/api.md has no TypeScript sample under "Verifying a delivery"');
  const { outputText } = ts.transpileModule(`${sample}\nexports.verifyWebhook = verifyWebhook;`, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  const exports: { verifyWebhook?: ReturnType<typeof docsVerifier> } = {};
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the documented sample, run as a receiver would run it
  new Function('require', 'exports', outputText)(require, exports);
  return exports.verifyWebhook!;
}

describe("docs/api.md's verification sample", () => {
  const verify = docsVerifier();
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ id: 'e1', type: 'webhook.test', timestamp: new Date().toISOString(), data: { webhookId: 'w1' } });

  it('accepts a delivery as the dispatcher signs it', () => {
    expect(verify(secret, webhookHeaders(secret, 'e1', body), body)).toEqual(JSON.parse(body));
  });

  it('refuses a changed body, another secret, and a delivery signed 6 minutes ago', () => {
    const headers = webhookHeaders(secret, 'e1', body);
    expect(() => verify(secret, headers, body.replace('w1', 'w2'))).toThrow('bad signature');
    expect(() => verify(generateWebhookSecret(), headers, body)).toThrow('bad signature');
    expect(() => verify(secret, webhookHeaders(secret, 'e1', body, new Date(Date.now() - 360_000)), body)).toThrow(/stale/);
  });

  it('finds the matching one among several signatures', () => {
    const headers = webhookHeaders(secret, 'e1', body);
    const timestamp = Number(headers['webhook-timestamp']);
    const other = signWebhook(generateWebhookSecret(), 'e1', timestamp, body);
    expect(verify(secret, { ...headers, 'webhook-signature': `${other} ${headers['webhook-signature']}` }, body)).toEqual(JSON.parse(body));
  });
});
