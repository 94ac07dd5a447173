import type { CliEnvironment } from '@cs/config';
import { CliError, ExitCode } from '../exit-codes';
import type { ConfigStore, StoredConfig } from './config-store';

/** Where `npm start` serves. */
export const DEFAULT_BASE_URL = 'http://localhost:8080';

/** The options every command takes. */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  json?: boolean;
}

export interface Connection {
  baseUrl: string;
  apiKey: string;
  /** Where the key came from, for messages. */
  keySource: '--api-key' | 'CANDIDATE_SEARCH_API_KEY' | 'config';
}

/** A base URL as the SDK takes it: http(s), no trailing slash; anything else is a usage error. */
export function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`not a URL: ${value}`, ExitCode.usage, 'give the service address, for example http://localhost:8080');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`not an http or https URL: ${value}`, ExitCode.usage);
  return url.toString().replace(/\/+$/, '');
}

/** The base URL: --base-url, else CANDIDATE_SEARCH_URL, else the logged-in one, else localhost:8080. */
export function resolveBaseUrl(options: GlobalOptions, env: CliEnvironment, stored: StoredConfig | undefined): string {
  return normalizeBaseUrl(options.baseUrl ?? env.baseUrl ?? stored?.baseUrl ?? DEFAULT_BASE_URL);
}

/**
 * The service and key a command uses: each from its flag, else its environment variable, else
 * what `login` stored. The stored key goes only to the service it was checked against, never to
 * another one named by --base-url. No key is an auth error (exit 3) saying how to give one.
 */
export async function resolveConnection(options: GlobalOptions, env: CliEnvironment, store: ConfigStore): Promise<Connection> {
  const stored = await store.read();
  const baseUrl = resolveBaseUrl(options, env, stored);
  if (options.apiKey) return { baseUrl, apiKey: options.apiKey.trim(), keySource: '--api-key' };
  if (env.apiKey) return { baseUrl, apiKey: env.apiKey, keySource: 'CANDIDATE_SEARCH_API_KEY' };
  if (stored && normalizeBaseUrl(stored.baseUrl) === baseUrl) return { baseUrl, apiKey: stored.apiKey, keySource: 'config' };
  const elsewhere = stored ? ` (the stored key is for ${stored.baseUrl})` : '';
  throw new CliError(
    `no API key for ${baseUrl}${elsewhere}`,
    ExitCode.auth,
    `run candidate-search login${baseUrl === DEFAULT_BASE_URL ? '' : ` --base-url ${baseUrl}`}, or set CANDIDATE_SEARCH_API_KEY, or pass --api-key`,
  );
}

/** The first 8 characters of a key, as support quotes them: enough to tell keys apart, never the secret. */
export const keyPrefix = (apiKey: string): string => `${apiKey.slice(0, 8)}…`;
