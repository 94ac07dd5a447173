import { CandidateSearch, type FetchLike } from '@candidate-search/client/node';
import type { CliEnvironment } from '@cs/config';
import { ConfigStore } from './config/config-store';
import { resolveConnection, type Connection, type GlobalOptions } from './config/connection';
import { Output } from './output/output';
import type { OutputStream } from './output/table';

/** What the CLI was started with: its environment and streams (tests give their own). */
export interface CliIo {
  env: CliEnvironment;
  stdin: NodeJS.ReadStream;
  stdout: OutputStream;
  stderr: OutputStream;
  cwd: string;
}

/** Sent as User-Agent, so the service's logs tell the CLI's requests apart. */
const USER_AGENT = 'candidate-search-cli';

/** What a command works with: its output, the config store, and the API once it asks for it. */
export class CliContext {
  readonly out: Output;
  readonly store: ConfigStore;
  /** The service the command talks to, once connect() resolved it (for error messages). */
  baseUrl?: string;

  constructor(
    readonly io: CliIo,
    readonly options: GlobalOptions,
  ) {
    this.out = new Output(options.json === true, io.stdout, io.stderr);
    this.store = new ConfigStore(io.env.configDir);
  }

  /** The service, key and SDK client the flags, environment and login give. */
  async connect(hooks: ClientHooks = {}): Promise<{ connection: Connection; client: CandidateSearch }> {
    const connection = await resolveConnection(this.options, this.io.env, this.store);
    this.baseUrl = connection.baseUrl;
    if (connection.keySource === 'config' && (await this.store.readableByOthers()))
      this.out.note(`warning: ${this.store.file} is readable by other users; run chmod 600 on it`);
    return { connection, client: clientFor(connection.baseUrl, connection.apiKey, hooks) };
  }
}

export interface ClientHooks {
  /** A 429 arrived; the SDK sits out its Retry-After (seconds) before retrying. */
  onRateLimited?: (retryAfterSeconds: number) => void;
}

/**
 * The SDK client the CLI uses. Its fetch is wrapped to see 429 answers as they come: the SDK
 * retries them itself after Retry-After, and the upload bar says it is waiting rather than
 * looking stuck.
 */
export function clientFor(baseUrl: string, apiKey: string, hooks: ClientHooks = {}): CandidateSearch {
  const observed: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status === 429) hooks.onRateLimited?.(Number(response.headers.get('retry-after')) || 1);
    return response;
  };
  return new CandidateSearch({ baseUrl, apiKey, userAgent: USER_AGENT, fetch: observed });
}
