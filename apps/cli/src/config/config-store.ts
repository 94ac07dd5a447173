import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** What `login` stores. */
export interface StoredConfig {
  baseUrl: string;
  apiKey: string;
}

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * Writes `data` to `file` so that no reader ever sees a half-written file nor the secret with
 * looser permissions: a temporary file created 0600 in the same folder, then renamed over it.
 * The folder is made 0700 (and set so if it already existed: it holds keys).
 */
export async function writePrivateFile(file: string, data: string): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: DIR_MODE });
  await fs.chmod(dir, DIR_MODE);
  const temporary = path.join(dir, `.${path.basename(file)}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(temporary, 'wx', FILE_MODE);
  try {
    // The umask can only take bits away; chmod makes the mode exact whatever it is.
    await handle.chmod(FILE_MODE);
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

/** The file's content, or undefined when it does not exist. */
export async function readOptionalFile(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The CLI's config file: `config.json` in its folder, holding the key `login` checked. */
export class ConfigStore {
  readonly file: string;

  constructor(readonly dir: string) {
    this.file = path.join(dir, 'config.json');
  }

  /** The stored config, or undefined before the first login; a file it cannot read is an error naming it. */
  async read(): Promise<StoredConfig | undefined> {
    const text = await readOptionalFile(this.file);
    if (text === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${this.file} is not valid JSON: run candidate-search login again, or delete it`);
    }
    const { baseUrl, apiKey } = (parsed ?? {}) as Partial<Record<keyof StoredConfig, unknown>>;
    if (typeof baseUrl !== 'string' || typeof apiKey !== 'string')
      throw new Error(`${this.file} lacks baseUrl or apiKey: run candidate-search login again, or delete it`);
    return { baseUrl, apiKey };
  }

  async write(config: StoredConfig): Promise<void> {
    await writePrivateFile(this.file, `${JSON.stringify(config, null, 2)}\n`);
  }

  /** True when there was a file to remove. */
  async remove(): Promise<boolean> {
    try {
      await fs.unlink(this.file);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  /**
   * Whether others than its owner may read the file (a copy, an editor or a backup restore can
   * widen the mode); the CLI warns, as ssh does for its keys. Always false on Windows, whose
   * modes do not say.
   */
  async readableByOthers(): Promise<boolean> {
    if (process.platform === 'win32') return false;
    try {
      return ((await fs.stat(this.file)).mode & 0o077) !== 0;
    } catch {
      return false;
    }
  }
}
