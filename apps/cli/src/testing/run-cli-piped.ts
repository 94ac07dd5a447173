import { PassThrough } from 'node:stream';
import { runCli } from '../program';

/** Runs the CLI in process with piped (not terminal) streams and the given config folder. */
export async function runCliPiped(args: string[], configDir: string, env: { baseUrl?: string; apiKey?: string } = {}, input?: string) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough() as unknown as NodeJS.ReadStream;
  if (input !== undefined) (stdin as unknown as PassThrough).end(input);
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runCli(args, { env: { configDir, baseUrl: env.baseUrl, apiKey: env.apiKey }, stdin, stdout, stderr, cwd: configDir });
  return { code, stdout: out, stderr: err };
}
