/**
 * @candidate-search/client/node: the client plus what needs a file system (Node 20+): uploading a
 * file by its path, and a directory of CVs with progress events and a summary. Everything of the
 * main entry is exported here too, so one import serves a Node program.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CandidateSearch as FetchClient, type UploadOptions } from './client';
import { RateLimitError, TimeoutError, abortError, clientValidation } from './errors';
import { sleep } from './timing';
import { MAX_UPLOAD_BYTES, contentTypeOf, type Document, type DocumentStatus, type UploadAccepted } from './types';

export * from './index';

/** Counts so far, carried by every event of uploadDirectory. */
export interface UploadTotals {
  /** Files found (supported types, not skipped by name) and their bytes. */
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
  /** The file's path as found under the directory. */
  path: string;
  bytes: number;
  /** `uploaded` (a new document), `duplicate` (the same bytes were uploaded before), `failed`, `skipped`. */
  outcome: 'uploaded' | 'duplicate' | 'failed' | 'skipped';
  documentId?: string;
  /** The document's status: as the upload answered, or its final one when the upload waited. */
  status?: DocumentStatus;
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
  /** Walk sub-directories too (default true). */
  recursive?: boolean;
  signal?: AbortSignal;
  onProgress?: (event: UploadDirectoryEvent) => void;
  /** Return true (or a reason) to leave a file out; it is reported as skipped. */
  skip?: (file: { path: string; bytes: number }) => boolean | string | undefined;
  /** MM-YYYY for every file (default: the current month, UTC). */
  documentDate?: string;
  documentType?: string;
  /** Follow the documents to completed, failed or invalid before resolving (default false). */
  wait?: boolean | { timeoutMs?: number };
  /** 429 answers to sit out per file before it counts as failed (default 20). */
  maxRateLimitWaits?: number;
}

export type NodeUploadOptions = Omit<UploadOptions, 'fileName'> & { fileName?: string };

const SUPPORTED = /\.(pdf|docx|doc|txt)$/i;

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
   * Uploads every PDF, DOCX, DOC and TXT file under dir (hidden files and other types are left
   * alone), concurrency at a time, reporting progress events; resolves with one entry per file.
   * A file's failure does not stop the others; a 429 pauses every upload until its Retry-After.
   * With `wait`, follows the new documents to their final status (completed, failed, invalid).
   */
  async uploadDirectory(dir: string, options: UploadDirectoryOptions = {}): Promise<UploadDirectorySummary> {
    const found = await walk(dir, options.recursive ?? true, options.signal);
    const totals: UploadTotals = { files: 0, bytes: 0, filesDone: 0, bytesDone: 0, uploaded: 0, duplicates: 0, failed: 0, skipped: 0 };
    const emit = (event: UploadDirectoryEvent) => options.onProgress?.(event);
    const files: UploadedFile[] = [];
    const queue: { path: string; bytes: number; index: number }[] = [];
    for (const file of found) {
      totals.files++;
      totals.bytes += file.bytes;
      const skip = options.skip?.(file);
      const reason = skip ? (typeof skip === 'string' ? skip : 'skipped') : file.bytes === 0 ? 'empty file' : undefined;
      const tooBig = file.bytes > MAX_UPLOAD_BYTES ? `${file.bytes} bytes: over the API's ${MAX_UPLOAD_BYTES}` : undefined;
      files.push({ path: file.path, bytes: file.bytes, outcome: 'skipped', ...(reason || tooBig ? { reason: reason ?? tooBig } : {}) });
      if (!reason && !tooBig) queue.push({ ...file, index: files.length - 1 });
    }
    emit({ type: 'scanned', totals: { ...totals } });
    for (const file of files)
      if (file.reason && file.outcome === 'skipped') {
        totals.skipped++;
        totals.filesDone++;
        totals.bytesDone += file.bytes;
        emit({ type: 'file-finished', file, totals: { ...totals } });
      }

    let pausedUntil = 0;
    const maxWaits = options.maxRateLimitWaits ?? 20;
    const uploadOne = async (item: (typeof queue)[number]) => {
      const report = files[item.index];
      emit({ type: 'file-started', path: item.path, bytes: item.bytes, totals: { ...totals } });
      for (let waits = 0; ; waits++) {
        if (pausedUntil > Date.now()) await sleep(pausedUntil - Date.now(), options.signal);
        try {
          const accepted = await this.uploadFile(item.path, {
            documentDate: options.documentDate,
            documentType: options.documentType,
            signal: options.signal,
            onProgress: (p) => {
              if (p.phase === 'uploading' && p.bytesSent > 0)
                emit({ type: 'file-progress', path: item.path, bytes: item.bytes, bytesSent: p.bytesSent, totals: { ...totals } });
            },
          });
          Object.assign(report, {
            outcome: accepted.duplicate ? 'duplicate' : 'uploaded',
            documentId: accepted.documentId,
            status: accepted.status,
            reason: undefined,
          } satisfies Partial<UploadedFile>);
          if (accepted.duplicate) totals.duplicates++;
          else totals.uploaded++;
          break;
        } catch (err) {
          if (options.signal?.aborted) throw abortError(options.signal);
          if (err instanceof RateLimitError && waits < maxWaits) {
            // One 429 pauses every worker: the limit is the key's, not the file's.
            const retryAfter = err.retryAfter ?? 1;
            pausedUntil = Math.max(pausedUntil, Date.now() + retryAfter * 1000);
            emit({ type: 'rate-limited', retryAfter, totals: { ...totals } });
            continue;
          }
          const error = err instanceof Error ? err : new Error(String(err));
          Object.assign(report, { outcome: 'failed', reason: error.message, error } satisfies Partial<UploadedFile>);
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
      while (next < queue.length) await uploadOne(queue[next++]);
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, queue.length)) }, worker));

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
              if (document.status !== 'completed') file.reason = document.error?.message ?? document.message ?? document.status;
              emit({ type: 'file-processed', file, document, totals: { ...totals } });
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

/** The supported files under dir, sorted by path so runs are repeatable. */
async function walk(dir: string, recursive: boolean, signal: AbortSignal | undefined): Promise<{ path: string; bytes: number }[]> {
  const out: { path: string; bytes: number }[] = [];
  const visit = async (folder: string) => {
    if (signal?.aborted) throw abortError(signal);
    const entries = await fs.readdir(folder, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (recursive) await visit(full);
      } else if (entry.isFile() && SUPPORTED.test(entry.name) && contentTypeOf(entry.name)) {
        out.push({ path: full, bytes: (await fs.stat(full)).size });
      }
    }
  };
  await visit(dir);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}
