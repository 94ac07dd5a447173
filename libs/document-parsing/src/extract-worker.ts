import { UnreadableFileError, extractText } from './extract-text';
import type { AcceptedType } from './file-types';

export type WorkerAnswer = { ok: true; text: string } | { ok: false; unreadable: boolean; message: string };

/** Runs in a worker thread (piscina): one file's text, errors returned as values (classes do not cross threads). */
export default async function extractInWorker({ bytes, mime }: { bytes: Uint8Array; mime: AcceptedType }): Promise<WorkerAnswer> {
  try {
    return { ok: true, text: await extractText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), mime) };
  } catch (error) {
    return { ok: false, unreadable: error instanceof UnreadableFileError, message: error instanceof Error ? error.message : String(error) };
  }
}
