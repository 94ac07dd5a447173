import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { UnreadableFileError, extractText } from './extract-text';
import type { AcceptedType } from './file-types';
import { ParseLimitError, type ParseLimit } from './parse-limits';

/** Niceness of the parse threads: above the main thread's, which serves searches and indexes. */
const PARSE_THREAD_NICENESS = 10;

/**
 * Lowers this thread's scheduling priority, so that with a parse worker a core, searches made
 * during a bulk upload still get the CPU first. Linux gives each thread its own niceness, and
 * /proc/thread-self names the thread's id; elsewhere this does nothing.
 */
function deprioritiseThisThread(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (threadId > 0) setPriority(threadId, PARSE_THREAD_NICENESS);
  } catch {
    // not Linux, or not permitted: parse at the normal priority
  }
}

deprioritiseThisThread();

export type WorkerAnswer = { ok: true; text: string } | { ok: false; limit?: ParseLimit; unreadable: boolean; message: string };

/** Runs in a worker thread (piscina): one file's text, errors returned as values (classes do not cross threads). */
export default async function extractInWorker({ bytes, mime }: { bytes: Uint8Array; mime: AcceptedType }): Promise<WorkerAnswer> {
  try {
    return { ok: true, text: await extractText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), mime) };
  } catch (error) {
    return {
      ok: false,
      limit: error instanceof ParseLimitError ? error.limit : undefined,
      unreadable: error instanceof UnreadableFileError,
      message: error instanceof Error ? error.message : String(error),
    };
  }
}
