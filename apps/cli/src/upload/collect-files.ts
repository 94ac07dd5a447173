import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CliError, ExitCode } from '../exit-codes';

/** The extensions the API accepts (pdf, docx, doc, txt), as the SDK picks a content type by them. */
export const CV_EXTENSIONS = ['.pdf', '.docx', '.doc', '.txt'] as const;

export interface LocalFile {
  /** Absolute path. */
  path: string;
  size: number;
  mtimeMs: number;
}

export interface CollectedFiles {
  /** The CVs to upload, in path order, each once. */
  files: LocalFile[];
  /** Files named on the command line that are not CVs by extension: reported, never uploaded. */
  unsupported: string[];
}

const isCv = (file: string) => (CV_EXTENSIONS as readonly string[]).includes(path.extname(file).toLowerCase());

/**
 * The files that `upload <files|dirs...>` means: each file named, and every CV under each folder
 * named (recursively, skipping dot-files and dot-folders such as .git). A path that does not
 * exist is a usage error before anything is uploaded.
 */
export async function collectFiles(args: readonly string[], cwd = process.cwd()): Promise<CollectedFiles> {
  const found = new Map<string, LocalFile>();
  const unsupported: string[] = [];
  const add = async (file: string) => {
    const stat = await fs.stat(file);
    found.set(file, { path: file, size: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) });
  };
  const walk = async (dir: string): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile() && isCv(entry.name)) await add(full);
    }
  };
  for (const arg of args) {
    const full = path.resolve(cwd, arg);
    let stat;
    try {
      stat = await fs.stat(full);
    } catch {
      throw new CliError(`no such file or folder: ${arg}`, ExitCode.usage);
    }
    if (stat.isDirectory()) await walk(full);
    else if (isCv(full)) await add(full);
    else unsupported.push(full);
  }
  return { files: [...found.values()].sort((a, b) => a.path.localeCompare(b.path)), unsupported };
}
