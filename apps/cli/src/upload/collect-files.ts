import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { findCvFiles } from '@candidate-search/client/node';
import { CliError, ExitCode } from '../exit-codes';

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

/**
 * The files that `upload <files|dirs...>` means, as the SDK's findCvFiles finds them: each file
 * named, and every CV under each folder named (recursively, skipping dot-files and dot-folders
 * such as .git). A path that does not exist is a usage error before anything is uploaded.
 */
export async function collectFiles(args: readonly string[], cwd = process.cwd()): Promise<CollectedFiles> {
  const paths = args.map((arg) => path.resolve(cwd, arg));
  for (const [i, full] of paths.entries())
    await fs.stat(full).catch(() => {
      throw new CliError(`no such file or folder: ${args[i]}`, ExitCode.usage);
    });
  const { files, unsupported } = await findCvFiles(paths);
  return { files: files.map((f) => ({ path: f.path, size: f.bytes, mtimeMs: f.mtimeMs })), unsupported: unsupported.map((f) => f.path) };
}
