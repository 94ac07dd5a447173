import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { DocumentStatus } from '@candidate-search/client/node';
import { readOptionalFile, writePrivateFile } from '../config/config-store';
import type { LocalFile } from './collect-files';

export type { DocumentStatus };

/** What an earlier run learnt about one file. */
export interface FileRecord {
  size: number;
  mtimeMs: number;
  documentId: string;
  status: DocumentStatus;
  /** The server already had these bytes when this file was uploaded. */
  duplicate: boolean;
  /** The API's message for an invalid or failed document. */
  message: string | null;
}

interface StateDocument {
  version: 1;
  baseUrl: string;
  roots: string[];
  files: Record<string, FileRecord>;
}

/** Which run a state file belongs to: the service, the key's company and the set of paths. */
export interface StateKey {
  baseUrl: string;
  apiKey: string;
  /** The absolute paths given to upload. */
  roots: readonly string[];
}

/**
 * The state of `upload` for one set of paths, kept in the CLI's folder so that a run stopped
 * with Ctrl-C (or a crash) can resume: a file whose size and modification time are unchanged and
 * that has a document id is not uploaded again. Saves are serialised and coalesced: at most one
 * write at a time, and one more for whatever changed while it ran.
 */
export class UploadState {
  private writing: Promise<void> = Promise.resolve();
  private pendingSave: Promise<void> | null = null;

  private constructor(
    readonly file: string,
    private readonly doc: StateDocument,
  ) {}

  /** The state file of this key under `dir` (`<dir>/uploads/<hash>.json`), loaded, or empty. */
  static async open(dir: string, key: StateKey, options: { fresh?: boolean } = {}): Promise<UploadState> {
    const roots = [...new Set(key.roots)].sort();
    // The key itself is never stored; its hash only tells one company's state from another's.
    const id = createHash('sha256')
      .update(JSON.stringify([key.baseUrl, createHash('sha256').update(key.apiKey).digest('hex'), roots]))
      .digest('hex')
      .slice(0, 24);
    const file = path.join(dir, 'uploads', `${id}.json`);
    const empty: StateDocument = { version: 1, baseUrl: key.baseUrl, roots, files: {} };
    if (options.fresh) return new UploadState(file, empty);
    const text = await readOptionalFile(file);
    if (text === undefined) return new UploadState(file, empty);
    try {
      const loaded = JSON.parse(text) as Partial<StateDocument>;
      if (loaded.version !== 1 || typeof loaded.files !== 'object') return new UploadState(file, empty);
      return new UploadState(file, { ...empty, files: loaded.files });
    } catch {
      // A state file cut short (a crash mid-write cannot do it, a full disk might): start over;
      // the server's duplicate detection keeps re-uploaded files from becoming new documents.
      return new UploadState(file, empty);
    }
  }

  /** What an earlier run recorded for this file, if the file is unchanged since. */
  lookup(file: LocalFile): FileRecord | undefined {
    const record = this.doc.files[file.path];
    return record?.size === file.size && record.mtimeMs === file.mtimeMs ? record : undefined;
  }

  /** Records a file's document (or its new status) and saves soon. */
  record(file: LocalFile, update: Omit<FileRecord, 'size' | 'mtimeMs'>): Promise<void> {
    this.doc.files[file.path] = { size: file.size, mtimeMs: file.mtimeMs, ...update };
    return this.save();
  }

  get recordCount(): number {
    return Object.keys(this.doc.files).length;
  }

  /** Writes the state; a call while a write runs is folded into one write after it. */
  save(): Promise<void> {
    if (this.pendingSave) return this.pendingSave;
    const next = this.writing.then(() => {
      this.pendingSave = null;
      return writePrivateFile(this.file, `${JSON.stringify(this.doc)}\n`);
    });
    this.pendingSave = next;
    this.writing = next.catch(() => undefined);
    return next;
  }
}
