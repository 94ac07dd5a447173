import { isTerminalDocument, pollDelay } from '@candidate-search/client/node';
import type { LocalFile } from './collect-files';
import type { DocumentStatus, FileRecord, UploadState } from './upload-state';

/** How one file ended. */
export type Outcome = 'completed' | 'duplicate' | 'invalid' | 'failed' | 'not-uploaded' | 'processing';

export interface FileResult {
  file: string;
  size: number;
  outcome: Outcome;
  documentId: string | null;
  /** The API's message: why a document is invalid or failed, or why the upload was refused. */
  message: string | null;
  /** Done by an earlier, interrupted run of the same command: not uploaded again. */
  fromEarlierRun: boolean;
}

/** What the server answered to an upload. */
export interface Accepted {
  documentId: string;
  status: DocumentStatus;
  duplicate: boolean;
  message: string | null;
}

/** A document's status, as a poll sees it: `deleted` when the API no longer knows it. */
export interface Seen {
  status: DocumentStatus | 'deleted';
  message: string | null;
}

/** What the runner needs of the API: the SDK behind it in the CLI, fakes in tests. */
export interface UploadPorts {
  /** Uploads a file; onRateLimited is called when a 429 holds it back for waitMs before a retry. */
  upload(file: LocalFile, signal: AbortSignal, onRateLimited: (waitMs: number) => void): Promise<Accepted>;
  /** The current status of each of these documents (`deleted` included). */
  statuses(documentIds: readonly string[], signal: AbortSignal): Promise<Map<string, Seen>>;
  /** When the error is a rate limit, how long to wait before uploading again; else undefined. */
  rateLimitWaitMs(error: unknown): number | undefined;
  /** When the error says the upload cannot succeed as is (refused file, network down), its message; else undefined (a bug: rethrown). */
  uploadFailure(error: unknown): string | undefined;
}

export type UploadEvent =
  | { type: 'uploaded'; file: LocalFile; result: FileResult }
  | { type: 'settled'; result: FileResult }
  | { type: 'rate-limited'; untilMs: number };

export interface UploadRunOptions {
  files: readonly LocalFile[];
  state: UploadState;
  ports: UploadPorts;
  concurrency: number;
  /** Ctrl-C: no upload starts after it, the ones in flight are aborted. */
  signal: AbortSignal;
  /** Wait until every document is searchable (completed) or refused (invalid, failed). */
  wait: boolean;
  /** Give up waiting when no document changed status for this long. */
  waitTimeoutMs: number;
  onEvent?: (event: UploadEvent) => void;
  /** Poll delays, growing as the contract asks (every 1 s at first, at most every 5 s). */
  pollDelayMs?: (poll: number) => number;
  now?: () => number;
}

export interface UploadRun {
  results: FileResult[];
  interrupted: boolean;
  /** Documents still not searchable when waiting gave up. */
  timedOut: boolean;
}

const isFinal = (status: DocumentStatus) => isTerminalDocument(status);

function outcomeOf(status: DocumentStatus, duplicate: boolean): Outcome {
  if (duplicate) return 'duplicate';
  switch (status) {
    case 'completed':
    case 'invalid':
    case 'failed':
      return status;
    case 'uploading':
    case 'pending':
      return 'processing';
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Uploads files with a few in flight, skipping those an earlier run finished (the state file),
 * recording each document as its upload is answered and each status as it settles, and polls the
 * documents not yet searchable, alongside the uploads, until all are. A rate limit pauses every
 * upload until it frees rather than failing files: a bulk upload is expected to meet it.
 *
 * Built on the SDK's uploadFile, not its uploadDirectory: a run here skips what the state file
 * recorded yet still waits for those it left processing, polls while it uploads (its documents
 * settle on the second bar as the first fills), judges a wait by time without progress, and on
 * Ctrl-C returns what it did; uploadDirectory would need an option for each.
 */
export async function runUploads(options: UploadRunOptions): Promise<UploadRun> {
  const { state, ports, signal } = options;
  const now = options.now ?? Date.now;
  const emit = (event: UploadEvent) => options.onEvent?.(event);
  const results = new Map<string, FileResult>();
  /** Documents to poll: document id -> the files (usually one) that gave it. */
  const waiting = new Map<string, { file: LocalFile; result: FileResult }[]>();
  const record = (file: LocalFile, result: FileResult, status: DocumentStatus, duplicate: boolean) => {
    if (result.documentId === null) return Promise.resolve();
    const entry: Omit<FileRecord, 'size' | 'mtimeMs'> = { documentId: result.documentId, status, duplicate, message: result.message };
    return state.record(file, entry);
  };
  const watch = (file: LocalFile, result: FileResult) => {
    if (result.documentId === null) return;
    const list = waiting.get(result.documentId) ?? [];
    list.push({ file, result });
    waiting.set(result.documentId, list);
  };

  const queue: LocalFile[] = [];
  for (const file of options.files) {
    const earlier = state.lookup(file);
    if (!earlier) {
      queue.push(file);
      continue;
    }
    const result: FileResult = {
      file: file.path,
      size: file.size,
      outcome: outcomeOf(earlier.status, earlier.duplicate),
      documentId: earlier.documentId,
      message: earlier.message,
      fromEarlierRun: true,
    };
    results.set(file.path, result);
    if (isFinal(earlier.status)) emit({ type: 'settled', result });
    else watch(file, result);
  }

  let rateLimitedUntil = 0;
  const rateLimited = (waitMs: number) => {
    rateLimitedUntil = Math.max(rateLimitedUntil, now() + waitMs);
    emit({ type: 'rate-limited', untilMs: rateLimitedUntil });
  };
  // Stops every part when one fails (a bug), as the caller's signal does: nothing uploads or records after.
  const stopAll = new AbortController();
  const working = AbortSignal.any([signal, stopAll.signal]);
  let uploadsDone = false;
  let lastChange = now();
  const uploader = async () => {
    for (let file = queue.shift(); file && !working.aborted; file = queue.shift()) {
      for (;;) {
        const pause = rateLimitedUntil - now();
        if (pause > 0) await sleep(pause, working);
        if (working.aborted) return;
        let accepted: Accepted;
        try {
          accepted = await ports.upload(file, working, rateLimited);
        } catch (error) {
          if (working.aborted) return;
          const wait = ports.rateLimitWaitMs(error);
          if (wait !== undefined) {
            rateLimited(wait);
            continue;
          }
          const message = ports.uploadFailure(error);
          if (message === undefined) throw error;
          const result: FileResult = {
            file: file.path,
            size: file.size,
            outcome: 'not-uploaded',
            documentId: null,
            message,
            fromEarlierRun: false,
          };
          results.set(file.path, result);
          emit({ type: 'uploaded', file, result });
          emit({ type: 'settled', result });
          break;
        }
        const result: FileResult = {
          file: file.path,
          size: file.size,
          outcome: outcomeOf(accepted.status, accepted.duplicate),
          documentId: accepted.documentId,
          message: isFinal(accepted.status) && accepted.status !== 'completed' ? accepted.message : null,
          fromEarlierRun: false,
        };
        results.set(file.path, result);
        lastChange = now();
        await record(file, result, accepted.status, accepted.duplicate);
        emit({ type: 'uploaded', file, result });
        if (isFinal(accepted.status)) emit({ type: 'settled', result });
        else watch(file, result);
        break;
      }
    }
  };

  let timedOut = false;
  const pollSignal = working;
  const poller = async () => {
    for (let poll = 0; !pollSignal.aborted; poll++) {
      if (uploadsDone && waiting.size === 0) return;
      if (uploadsDone && now() - lastChange > options.waitTimeoutMs) {
        timedOut = true;
        return;
      }
      await sleep((options.pollDelayMs ?? pollDelay)(poll), pollSignal);
      if (pollSignal.aborted || waiting.size === 0) continue;
      // Only the documents asked about: uploads answered during the poll are not in its answer.
      const asked = [...waiting.keys()];
      const seen = await ports.statuses(asked, pollSignal).catch((error: unknown) => {
        // A poll that fails (a rate limit, a blip) is tried again at the next tick.
        if (pollSignal.aborted || ports.uploadFailure(error) !== undefined || ports.rateLimitWaitMs(error) !== undefined) return undefined;
        throw error;
      });
      if (!seen) continue;
      for (const documentId of asked) {
        const entries = waiting.get(documentId) ?? [];
        const polled = seen.get(documentId);
        if (!polled) continue;
        // Deleted meanwhile: it will never be searchable.
        const { status, message }: { status: DocumentStatus; message: string | null } =
          polled.status === 'deleted'
            ? { status: 'failed', message: 'the document was deleted before it was searchable' }
            : { status: polled.status, message: polled.message };
        if (!isFinal(status)) continue;
        waiting.delete(documentId);
        lastChange = now();
        for (const { file, result } of entries) {
          if (result.outcome !== 'duplicate') result.outcome = outcomeOf(status, false);
          result.message = status === 'completed' ? null : message;
          await record(file, result, status, result.outcome === 'duplicate');
          emit({ type: 'settled', result });
        }
      }
    }
  };

  const uploaders = Array.from({ length: Math.max(1, options.concurrency) }, uploader);
  const uploads = Promise.all(uploaders).finally(() => {
    uploadsDone = true;
  });
  const polling = options.wait ? poller() : uploads;
  try {
    await Promise.all([uploads, polling]);
  } catch (error) {
    // A bug in one part: stop the others, and let them end, before reporting it.
    stopAll.abort();
    await Promise.allSettled([...uploaders, polling]);
    throw error;
  }
  await state.save();
  const ordered = options.files.map((f) => results.get(f.path)).filter((r): r is FileResult => r !== undefined);
  return { results: ordered, interrupted: signal.aborted, timedOut };
}
