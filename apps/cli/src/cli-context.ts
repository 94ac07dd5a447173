import { CandidateSearch } from '@candidate-search/client/node';
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
  async connect(): Promise<{ connection: Connection; client: CandidateSearch }> {
    const connection = await resolveConnection(this.options, this.io.env, this.store);
    this.baseUrl = connection.baseUrl;
    if (connection.keySource === 'config' && (await this.store.readableByOthers()))
      this.out.note(`warning: ${this.store.file} is readable by other users; run chmod 600 on it`);
    return { connection, client: clientFor(connection.baseUrl, connection.apiKey) };
  }
}

/** The SDK client the CLI uses. A command that shows progress passes onRetry to its calls, to say when it sits out a 429. */
export function clientFor(baseUrl: string, apiKey: string): CandidateSearch {
  return new CandidateSearch({ baseUrl, apiKey, userAgent: USER_AGENT });
}
