import * as path from 'node:path';
import Piscina from 'piscina';
import { UnreadableFileError, extractText } from './extract-text';
import type { WorkerAnswer } from './extract-worker';
import { FairScheduler } from './fair-scheduler';
import type { AcceptedType } from './file-types';
import { MAX_PARSE_MS, ParseLimitError, limitMessages } from './parse-limits';

/**
 * Extracts CV text on a pool of worker threads (piscina), so that parsing PDFs, the heaviest
 * step of ingestion, runs beside indexing and serving instead of blocking them. With no workers
 * (or where the worker file cannot load, as under a test runner's own TypeScript transform) it
 * parses on the calling thread.
 *
 * Files wait their turn in a FairScheduler by company, in front of the pool: ingestion hands
 * over more jobs at once than there are workers, and without turns one company's heavy files
 * would hold every worker while another company's CV waited behind them.
 */
export class TextExtractor {
  private readonly pool: Piscina | null;
  private readonly scheduler: FairScheduler;

  constructor(workers: number) {
    const filename = path.join(__dirname, `extract-worker${path.extname(__filename)}`);
    const canLoad = path.extname(__filename) !== '.ts' || process.execArgv.join(' ').includes('@swc-node/register');
    // A CV parses in well under 100 MB; a small old generation makes each worker collect early
    // instead of holding on to the garbage of thousands of PDFs. Workers beyond the first start
    // when files queue up and leave after half a minute idle, which hands back their memory
    // (about 70 MB each) between bursts of uploads.
    this.pool =
      workers > 0 && canLoad
        ? new Piscina({
            filename,
            minThreads: 1,
            maxThreads: workers,
            idleTimeout: 30_000,
            resourceLimits: { maxOldGenerationSizeMb: 192 },
          })
        : null;
    // A file queued in the pool behind each one parsing, so a worker that finishes starts the
    // next at once instead of waiting for the main thread (busy indexing) to hand it one: with a
    // slot a worker, `npm run bench` ingested 37.1 CVs/s, with two 42.9. One file at a time on the calling thread,
    // where parsing is mostly synchronous anyway.
    this.scheduler = new FairScheduler(this.pool ? workers * 2 : 1);
  }

  get workers(): number {
    return this.pool?.threads.length ?? 0;
  }

  /**
   * The file's text, read when `companyId`'s turn comes. Throws ParseLimitError when the file
   * breaks a bound of parse-limits, including a worker running out of memory or time (a
   * worker that does is ended and replaced), and UnreadableFileError when it cannot be read.
   */
  extract(bytes: Buffer, mime: AcceptedType, companyId: string): Promise<string> {
    return this.scheduler.run(companyId, () => this.extractNow(bytes, mime));
  }

  private async extractNow(bytes: Buffer, mime: AcceptedType): Promise<string> {
    const pool = this.pool;
    if (!pool) return extractText(bytes, mime);
    let answer: WorkerAnswer;
    try {
      // An abort ends the worker mid-file, the only way to stop a parse that is stuck in pdf.js.
      answer = (await pool.run({ bytes: new Uint8Array(bytes), mime }, { signal: AbortSignal.timeout(MAX_PARSE_MS) })) as WorkerAnswer;
    } catch (error) {
      throw workerFailure(error);
    }
    if (answer.ok) return answer.text;
    if (answer.limit) throw new ParseLimitError(answer.limit, answer.message);
    if (answer.unreadable) throw new UnreadableFileError(answer.message);
    throw new Error(answer.message);
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}

/**
 * What a worker that died on a file means: out of memory or time is the file's doing (told by
 * code and name, as the error may come from another realm), anything else is not.
 */
export function workerFailure(error: unknown): Error {
  const { code, name } = (error ?? {}) as NodeJS.ErrnoException;
  if (code === 'ERR_WORKER_OUT_OF_MEMORY') return new ParseLimitError('memory', limitMessages.memory());
  if (name === 'AbortError') return new ParseLimitError('time', limitMessages.time());
  return error instanceof Error ? error : new Error(String(error));
}
