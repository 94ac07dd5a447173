import * as path from 'node:path';
import { CandidateSearchError, RateLimitError, isFileFailure, type CandidateSearch } from '@candidate-search/client/node';
import type { LocalFile } from './collect-files';
import type { Seen, UploadPorts } from './upload-runner';

/** MM-YYYY of a file's modification time: when the CV was last written, which the API reads "Present" as. */
export function documentDateOf(mtimeMs: number): string {
  const date = new Date(mtimeMs);
  const year = Math.min(2099, Math.max(1900, date.getUTCFullYear()));
  return `${String(date.getUTCMonth() + 1).padStart(2, '0')}-${year}`;
}

/**
 * The upload runner's ports over the SDK. A rate limit pauses the run; a refused file or a
 * server error fails that file; a refused key or an unreachable service ends the run (every
 * other file would fail the same way), to be resumed later.
 */
export function sdkUploadPorts(client: CandidateSearch, options: { documentDate?: string } = {}): UploadPorts {
  return {
    async upload(file: LocalFile, signal: AbortSignal, onRateLimited: (waitMs: number) => void) {
      // Named by the whole file name: chef.pdf and chef.docx stay apart in every table.
      const accepted = await client.uploadFile(file.path, {
        documentName: path.basename(file.path),
        documentDate: options.documentDate ?? documentDateOf(file.mtimeMs),
        signal,
        // The SDK sits out a 429 before retrying: the other uploads wait with it, and the bar says so.
        onRetry: (retry) => retry.reason === 'rate-limited' && onRateLimited(retry.delayMs),
      });
      return { documentId: accepted.documentId, status: accepted.status, duplicate: accepted.duplicate, message: accepted.message };
    },

    async statuses(documentIds, signal) {
      const seen = new Map<string, Seen>();
      for (const [documentId, state] of await client.documentStatuses(documentIds, { signal }))
        seen.set(documentId, { status: state.status, message: state.reason ?? null });
      return seen;
    },

    rateLimitWaitMs: (error) => (error instanceof RateLimitError ? (error.retryAfter ?? 10) * 1000 : undefined),

    uploadFailure(error) {
      if (!isFileFailure(error)) return undefined;
      return error instanceof CandidateSearchError ? error.message : `cannot read the file: ${error.message}`;
    },
  };
}
