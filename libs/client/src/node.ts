/**
 * @candidate-search/client/node: the client plus what needs a file system (Node 20+): uploading a
 * file by its path, and a directory of CVs with progress events and a summary. Everything of the
 * main entry is exported here too, so one import serves a Node program.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CandidateSearch as FetchClient, whyNotSearchable, type UploadOptions } from './client';
import {
  AuthenticationError,
  CandidateSearchError,
  ConnectionError,
  RateLimitError,
  TimeoutError,
  abortError,
  clientValidation,
} from './errors';
import { sleep } from './timing';
import { MAX_UPLOAD_BYTES, contentTypeOf, isTerminalDocument, type Document, type DocumentStatus, type UploadAccepted } from './types';

export * from './index';

/** Counts so far, carried by every event of uploadDirectory. */
export interface UploadTotals {
  /** Files found (CVs by extension, and files named that are not) and their bytes. */
  files: number;
  bytes: number;
  /** Files whose upload ended (uploaded, duplicate, failed or skipped) and their bytes. */
  filesDone: number;
  bytesDone: number;
  uploaded: number;
  duplicates: number;
  failed: number;
  skipped: number;
}

/** What happened to one file. */
export interface UploadedFile {
  /** The file's path: as named, or joined to the folder it was found in. */
  path: string;
  bytes: number;
  /** `uploaded` (a new document), `duplicate` (the same bytes were uploaded before), `failed`, `skipped`. */
  outcome: 'uploaded' | 'duplicate' | 'failed' | 'skipped';
  documentId?: string;
  /** The document's status: as the upload answered, or its final one when the upload waited (`deleted` meanwhile: see file-deleted). */
  status?: DocumentStatus | 'deleted';
  /** Why it was skipped or failed, or why its document is invalid or failed. */
  reason?: string;
  error?: Error;
}

export type UploadDirectoryEvent =
  | { type: 'scanned'; totals: UploadTotals }
  | { type: 'file-started'; path: string; bytes: number; totals: UploadTotals }
  /** The bytes of a file handed to the network so far (every 64 KB). */
  | { type: 'file-progress'; path: string; bytes: number; bytesSent: number; totals: UploadTotals }
  | { type: 'file-finished'; file: UploadedFile; totals: UploadTotals }
  | { type: 'file-processed'; file: UploadedFile; document: Document; totals: UploadTotals }
  /** With `wait`: the file's document was deleted before it was final (it will not be searchable). */
  | { type: 'file-deleted'; file: UploadedFile; totals: UploadTotals }
  | { type: 'rate-limited'; retryAfter: number; totals: UploadTotals };

export interface UploadDirectorySummary {
  files: UploadedFile[];
  totals: UploadTotals;
  /** With `wait`: true when some documents were still processing at its timeout (their status is the last seen). */
  waitTimedOut: boolean;
}

export interface UploadDirectoryOptions {
  /** Uploads at once (default 4). */
  concurrency?: number;
  /** Walk sub-folders too (default true). */
  recursive?: boolean;
  signal?: AbortSignal;
  onProgress?: (event: UploadDirectoryEvent) => void;
  /** Return true (or a reason) to leave a file out; it is reported as skipped. */
  skip?: (file: { path: string; bytes: number }) => boolean | string | undefined;
  /** MM-YYYY for every file (default: the current month, UTC). */
  documentDate?: string;
  documentType?: string;
  /**
   * A file's own document name, date or type, over the defaults (the file name without its
   * extension, documentDate, documentType): for instance the month the file was last written.
   */
  documentFor?: (file: CvFile) => { documentName?: string; documentDate?: string; documentType?: string };
  /** Follow the documents to completed, failed or invalid before resolving (default false). */
  wait?: boolean | { timeoutMs?: number };
  /** 429 answers to sit out per file before it counts as failed (default 20). */
  maxRateLimitWaits?: number;
}

export type NodeUploadOptions = Omit<UploadOptions, 'fileName'> & { fileName?: string };

/** The client for Node: the fetch client, plus uploads from the file system. */
export class CandidateSearch extends FetchClient {
  /**
   * Uploads a CV: a path (its type from the extension, its name from the file name), or bytes or
   * a Blob as the main entry takes them (then options.fileName is required).
   */
  override async uploadFile(file: string | Uint8Array | ArrayBuffer | Blob, options: NodeUploadOptions = {}): Promise<UploadAccepted> {
    if (typeof file !== 'string') {
      if (!options.fileName) throw new TypeError('uploadFile: fileName is required when uploading bytes');
      return super.uploadFile(file, { ...options, fileName: options.fileName });
    }
    // Checked before reading, so a huge file is refused without loading it.
    const { size } = await fs.stat(file);
    const fileName = options.fileName ?? path.basename(file);
    if (size > MAX_UPLOAD_BYTES)
      throw clientValidation('payload_too_large', `${fileName} has ${size} bytes; the API takes at most ${MAX_UPLOAD_BYTES}`);
    const bytes = await fs.readFile(file, { signal: options.signal });
    return super.uploadFile(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), { ...options, fileName });
  }

  /**
   * Uploads CVs: every PDF, DOCX, DOC and TXT file under a folder, or under each folder of a list
   * and each file it names (findCvFiles says which), concurrency at a time, reporting progress
   * events; resolves with one entry per file. A file the API refuses (or that cannot be read) is
   * recorded as failed and the others go on; a 429 pauses every upload until its Retry-After. A
   * refused key (AuthenticationError) or an unreachable service (ConnectionError) would fail every
   * file alike: the uploads in flight are aborted and the call rejects with that error. With
   * `wait`, follows the new documents to their final status (completed, failed, invalid).
   */
  async uploadDirectory(paths: string | readonly string[], options: UploadDirectoryOptions = {}): Promise<UploadDirectorySummary> {
    const { files: cvs, unsupported } = await findCvFiles(typeof paths === 'string' ? [paths] : paths, {
      recursive: options.recursive,
      signal: options.signal,
    });
    const found = [...cvs.map((f) => ({ ...f, notCv: false })), ...unsupported.map((f) => ({ ...f, notCv: true }))].sort((a, b) =>
      a.path.localeCompare(b.path),
    );
    const totals: UploadTotals = { files: 0, bytes: 0, filesDone: 0, bytesDone: 0, uploaded: 0, duplicates: 0, failed: 0, skipped: 0 };
    const emit = (event: UploadDirectoryEvent) => options.onProgress?.(event);
    const files: UploadedFile[] = [];
    const queue: (CvFile & { index: number })[] = [];
    for (const file of found) {
      totals.files++;
      totals.bytes += file.bytes;
      const skip = file.notCv ? NOT_A_CV : options.skip?.({ path: file.path, bytes: file.bytes });
      const reason = skip ? (typeof skip === 'string' ? skip : 'skipped') : file.bytes === 0 ? 'empty file' : undefined;
      const tooBig = file.bytes > MAX_UPLOAD_BYTES ? `${file.bytes} bytes: over the API's ${MAX_UPLOAD_BYTES}` : undefined;
      files.push({ path: file.path, bytes: file.bytes, outcome: 'skipped', ...(reason || tooBig ? { reason: reason ?? tooBig } : {}) });
      if (!reason && !tooBig) queue.push({ path: file.path, bytes: file.bytes, mtimeMs: file.mtimeMs, index: files.length - 1 });
    }
    emit({ type: 'scanned', totals: { ...totals } });
    for (const file of files)
      if (file.reason && file.outcome === 'skipped') {
        totals.skipped++;
        totals.filesDone++;
        totals.bytesDone += file.bytes;
        emit({ type: 'file-finished', file, totals: { ...totals } });
      }

    // Aborted by the caller, or by a failure that ends the run: no upload starts after it, those in flight stop.
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    let ended: Error | undefined;
    let pausedUntil = 0;
    const pause = (ms: number, retryAfter: number) => {
      // One 429 pauses every worker: the limit is the key's, not the file's.
      pausedUntil = Math.max(pausedUntil, Date.now() + ms);
      emit({ type: 'rate-limited', retryAfter, totals: { ...totals } });
    };
    const maxWaits = options.maxRateLimitWaits ?? 20;
    const uploadOne = async (item: (typeof queue)[number]) => {
      const report = files[item.index];
      emit({ type: 'file-started', path: item.path, bytes: item.bytes, totals: { ...totals } });
      const own = options.documentFor?.({ path: item.path, bytes: item.bytes, mtimeMs: item.mtimeMs }) ?? {};
      for (let waits = 0; ; waits++) {
        if (pausedUntil > Date.now()) await sleep(pausedUntil - Date.now(), signal);
        try {
          const accepted = await this.uploadFile(item.path, {
            documentName: own.documentName,
            documentDate: own.documentDate ?? options.documentDate,
            documentType: own.documentType ?? options.documentType,
            signal,
            // The client sits out a 429 itself before retrying: the other workers wait with it.
            onRetry: (retry) =>
              retry.error instanceof RateLimitError && pause(retry.delayMs, retry.error.retryAfter ?? Math.ceil(retry.delayMs / 1000)),
            onProgress: (p) => {
              if (p.phase === 'uploading' && p.bytesSent > 0)
                emit({ type: 'file-progress', path: item.path, bytes: item.bytes, bytesSent: p.bytesSent, totals: { ...totals } });
            },
          });
          const refused = isTerminalDocument(accepted.status) && accepted.status !== 'completed';
          Object.assign(report, {
            outcome: accepted.duplicate ? 'duplicate' : 'uploaded',
            documentId: accepted.documentId,
            status: accepted.status,
            reason: refused ? (accepted.message ?? accepted.status) : undefined,
          } satisfies Partial<UploadedFile>);
          if (accepted.duplicate) totals.duplicates++;
          else totals.uploaded++;
          break;
        } catch (err) {
          if (signal.aborted) throw err;
          if (err instanceof RateLimitError && waits < maxWaits) {
            pause((err.retryAfter ?? 1) * 1000, err.retryAfter ?? 1);
            continue;
          }
          if (!isFileFailure(err)) throw err;
          Object.assign(report, { outcome: 'failed', reason: err.message, error: err } satisfies Partial<UploadedFile>);
          totals.failed++;
          break;
        }
      }
      totals.filesDone++;
      totals.bytesDone += item.bytes;
      emit({ type: 'file-finished', file: report, totals: { ...totals } });
    };

    let next = 0;
    const worker = async () => {
      try {
        while (next < queue.length && !signal.aborted) await uploadOne(queue[next++]);
      } catch (err) {
        // The first failure that ends the run is the one reported; the others' are its aborts.
        if (signal.aborted) return;
        ended = err instanceof Error ? err : new Error(String(err));
        stop.abort();
      }
    };
    // Every worker has stopped before the call rejects: no upload goes on behind the caller's back.
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, queue.length)) }, worker));
    if (ended) throw ended;
    if (options.signal?.aborted) throw abortError(options.signal);

    let waitTimedOut = false;
    if (options.wait && byIdCount(files) > 0) {
      const byId = new Map<string, UploadedFile[]>();
      for (const file of files) if (file.documentId) byId.set(file.documentId, [...(byId.get(file.documentId) ?? []), file]);
      try {
        await this.waitForDocuments([...byId.keys()], {
          signal: options.signal,
          timeoutMs: typeof options.wait === 'object' ? options.wait.timeoutMs : undefined,
          onDocument: (document) => {
            for (const file of byId.get(document.documentId) ?? []) {
              file.status = document.status;
              if (document.status !== 'completed') file.reason = whyNotSearchable(document);
              emit({ type: 'file-processed', file, document, totals: { ...totals } });
            }
          },
          onDeleted: (documentId) => {
            for (const file of byId.get(documentId) ?? []) {
              file.status = 'deleted';
              file.reason = 'the document was deleted before it was searchable';
              emit({ type: 'file-deleted', file, totals: { ...totals } });
            }
          },
        });
      } catch (err) {
        // The uploads are done and reported: a slow pipeline leaves the rest at their last status.
        if (!(err instanceof TimeoutError)) throw err;
        waitTimedOut = true;
      }
    }
    return { files, totals, waitTimedOut };
  }
}

const byIdCount = (files: UploadedFile[]) => files.filter((f) => f.documentId).length;

/** A CV file found on disk. */
export interface CvFile {
  path: string;
  bytes: number;
  /** Its modification time (epoch ms). */
  mtimeMs: number;
}

const NOT_A_CV = 'not a PDF, DOCX, DOC or text file';

/** A file that cannot be read, by Node's error code (ENOENT, EACCES, EISDIR...). */
const isFsError = (err: unknown): err is NodeJS.ErrnoException =>
  err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string';

/**
 * Whether an upload's failure is the file's own (the API refused it, the server failed it after
 * retries, it could not be read), so the other files may still succeed. Not a refused key or an
 * unreachable service, which every file would meet, nor an error of the program itself.
 */
export function isFileFailure(err: unknown): err is Error {
  if (err instanceof AuthenticationError || err instanceof ConnectionError) return false;
  return err instanceof CandidateSearchError || isFsError(err);
}

/**
 * The CV files that a list of paths means, as uploadDirectory and a CLI take them: every PDF,
 * DOCX, DOC and TXT file (by extension, any case) under each folder, recursively unless
 * `recursive` is false, skipping dot-files and dot-folders (.git); and each file named, once
 * however often named. Named files of another type are returned apart, as `unsupported`, never uploaded. Sorted
 * by path, so runs are repeatable. A path that does not exist rejects (ENOENT) before anything
 * else is read.
 */
export async function findCvFiles(
  paths: readonly string[],
  options: { recursive?: boolean; signal?: AbortSignal } = {},
): Promise<{ files: CvFile[]; unsupported: CvFile[] }> {
  const found = new Map<string, CvFile>();
  const unsupported = new Map<string, CvFile>();
  const add = async (file: string, to = found) => {
    const stat = await fs.stat(file);
    to.set(path.resolve(file), { path: file, bytes: stat.size, mtimeMs: Math.trunc(stat.mtimeMs) });
  };
  const visit = async (folder: string, deeper: boolean) => {
    if (options.signal?.aborted) throw abortError(options.signal);
    const entries = await fs.readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (deeper) await visit(full, true);
      } else if (entry.isFile() && contentTypeOf(entry.name)) await add(full);
    }
  };
  const stats = await Promise.all(paths.map((p) => fs.stat(p)));
  for (const [i, p] of paths.entries()) {
    if (stats[i].isDirectory()) await visit(p, options.recursive ?? true);
    else if (contentTypeOf(p)) await add(p);
    else await add(p, unsupported);
  }
  const byPath = (a: CvFile, b: CvFile) => a.path.localeCompare(b.path);
  return { files: [...found.values()].sort(byPath), unsupported: [...unsupported.values()].sort(byPath) };
}
