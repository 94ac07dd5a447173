import * as path from 'node:path';
import Piscina from 'piscina';
import { UnreadableFileError, extractText } from './extract-text';
import type { WorkerAnswer } from './extract-worker';
import type { AcceptedType } from './file-types';

/**
 * Extracts CV text on a pool of worker threads (piscina), so that parsing PDFs, the heaviest
 * step of ingestion, runs beside indexing and serving instead of blocking them. With no workers
 * (or where the worker file cannot load, as under a test runner's own TypeScript transform) it
 * parses on the calling thread.
 */
export class TextExtractor {
  private readonly pool: Piscina | null;

  constructor(workers: number) {
    const filename = path.join(__dirname, `extract-worker${path.extname(__filename)}`);
    const canLoad = path.extname(__filename) !== '.ts' || process.execArgv.join(' ').includes('@swc-node/register');
    // A CV parses in well under 100 MB; a small old generation makes each worker collect early
    // instead of holding on to the garbage of thousands of PDFs. Workers beyond the first start
    // when files queue up and leave after half a minute idle, which hands back their memory
    // (about 70 MB each) between bursts of uploads.
    this.pool =
      workers > 0 && canLoad
        ? new Piscina({ filename, minThreads: 1, maxThreads: workers, idleTimeout: 30_000, resourceLimits: { maxOldGenerationSizeMb: 192 } })
        : null;
  }

  get workers(): number {
    return this.pool?.threads.length ?? 0;
  }

  async extract(bytes: Buffer, mime: AcceptedType): Promise<string> {
    if (!this.pool) return extractText(bytes, mime);
    const answer = (await this.pool.run({ bytes: new Uint8Array(bytes), mime })) as WorkerAnswer;
    if (answer.ok) return answer.text;
    if (answer.unreadable) throw new UnreadableFileError(answer.message);
    throw new Error(answer.message);
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
