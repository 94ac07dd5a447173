import { clientFor, type CliContext } from '../cli-context';
import { keyPrefix, resolveBaseUrl } from '../config/connection';
import { CliError, ExitCode } from '../exit-codes';
import { readHidden, readStdin } from '../prompts';

/** The key to log in with: --api-key, else CANDIDATE_SEARCH_API_KEY, else a hidden prompt on a terminal, else stdin. */
async function readKey(ctx: CliContext): Promise<{ key: string; from: string }> {
  if (ctx.options.apiKey) return { key: ctx.options.apiKey.trim(), from: '--api-key' };
  if (ctx.io.env.apiKey) return { key: ctx.io.env.apiKey, from: 'CANDIDATE_SEARCH_API_KEY' };
  if (ctx.io.stdin.isTTY) return { key: (await readHidden('API key: ', ctx.io.stdin, ctx.io.stderr)).trim(), from: 'the prompt' };
  return { key: (await readStdin(ctx.io.stdin)).trim(), from: 'stdin' };
}

/**
 * `login`: checks a key against the API (one cheap read: a document list of one) and stores it
 * with the service's address in the config file, 0600.
 */
export async function login(ctx: CliContext): Promise<ExitCode> {
  // A damaged config file is about to be replaced: it may not stop a login.
  const stored = await ctx.store.read().catch(() => undefined);
  const baseUrl = resolveBaseUrl(ctx.options, ctx.io.env, stored);
  ctx.baseUrl = baseUrl;
  const { key, from } = await readKey(ctx);
  if (!key) throw new CliError(`no API key in ${from}`, ExitCode.usage, 'type or pipe in the key the admin gave you (csk_...)');
  if (/\s/.test(key)) throw new CliError(`the key from ${from} holds whitespace: give the key alone`, ExitCode.usage);
  const documents = await clientFor(baseUrl, key).listDocuments({ limit: 1 });
  await ctx.store.write({ baseUrl, apiKey: key });
  const result = { baseUrl, keyPrefix: keyPrefix(key), configFile: ctx.store.file, documents: documents.pagination.total };
  ctx.out.result(
    result,
    () =>
      `Logged in to ${baseUrl} with key ${result.keyPrefix} (${result.documents} documents).\nSaved to ${ctx.store.file} (readable only by you).`,
  );
  return ExitCode.ok;
}

/** `logout`: removes the stored key. */
export async function logout(ctx: CliContext): Promise<ExitCode> {
  const removed = await ctx.store.remove();
  ctx.out.result({ removed, configFile: ctx.store.file }, () =>
    removed ? `Logged out: removed ${ctx.store.file}.` : `Not logged in: there is no ${ctx.store.file}.`,
  );
  return ExitCode.ok;
}
