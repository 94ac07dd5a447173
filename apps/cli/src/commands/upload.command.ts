import * as path from 'node:path';
import type { CliContext } from '../cli-context';
import { ExitCode } from '../exit-codes';
import { countOutcomes, renderUploadSummary } from '../output/upload-format';
import { UploadProgress } from '../output/upload-progress';
import { collectFiles } from '../upload/collect-files';
import { sdkUploadPorts } from '../upload/sdk-upload-ports';
import { runUploads, type FileResult } from '../upload/upload-runner';
import { UploadState } from '../upload/upload-state';

export interface UploadCommandOptions {
  concurrency: number;
  wait: boolean;
  waitTimeoutSeconds: number;
  /** Ignore what an earlier run recorded. */
  resume: boolean;
  documentDate?: string;
}

/** Shell words for the resume line: each argument quoted when it needs it. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * `upload <files|dirs...>`: uploads the CVs, shows progress, waits until each is searchable, and
 * prints what became of every file. Ctrl-C stops starting uploads, aborts those in flight, saves
 * the state and exits 130; the same command resumes.
 */
export async function upload(ctx: CliContext, args: readonly string[], options: UploadCommandOptions): Promise<ExitCode> {
  const { connection, client } = await ctx.connect();
  const { files, unsupported } = await collectFiles(args, ctx.io.cwd);
  const roots = args.map((a) => path.resolve(ctx.io.cwd, a));
  const state = await UploadState.open(
    ctx.io.env.configDir,
    { baseUrl: connection.baseUrl, apiKey: connection.apiKey, roots },
    { fresh: !options.resume },
  );
  const toUpload = files.filter((f) => !state.lookup(f));
  const progress = new UploadProgress(
    ctx.out,
    { files: toUpload.length, bytes: toUpload.reduce((sum, f) => sum + f.size, 0), allFiles: files.length },
    { wait: options.wait, cwd: ctx.io.cwd },
  );
  if (files.length > toUpload.length)
    ctx.out.note(`${files.length - toUpload.length} of ${files.length} files were done by an earlier run: not uploading them again.`);

  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.once('SIGINT', onInterrupt);
  const resume = ['candidate-search', 'upload', ...args].map(shellWord).join(' ');
  let run;
  try {
    run = await runUploads({
      files,
      state,
      ports: sdkUploadPorts(client, { documentDate: options.documentDate }),
      concurrency: options.concurrency,
      signal: controller.signal,
      wait: options.wait,
      waitTimeoutMs: options.waitTimeoutSeconds * 1000,
      onEvent: (event) => progress.onEvent(event),
    });
  } catch (error) {
    progress.stop();
    // What finished is in the state file: say how to carry on once the cause is fixed.
    if (state.recordCount > 0) ctx.out.note(`Stopped. To resume once that is fixed, run the same command again: ${resume}`);
    throw error;
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  progress.stop();

  const counts = countOutcomes(run.results);
  ctx.out.result(
    {
      files: run.results,
      counts: { ...counts, unsupported: unsupported.length, notStarted: files.length - run.results.length },
      unsupported,
      interrupted: run.interrupted,
      timedOut: run.timedOut,
      stateFile: state.file,
    },
    () =>
      renderUploadSummary(run.results, {
        unsupported,
        cwd: ctx.io.cwd,
        width: ctx.out.width,
        notStarted: files.length - run.results.length,
      }),
  );
  if (run.interrupted) {
    const done = run.results.filter((r) => r.documentId !== null).length;
    ctx.out.note(`Interrupted: ${done} of ${files.length} files uploaded. To resume, run the same command again: ${resume}`);
    return ExitCode.interrupted;
  }
  if (run.timedOut)
    ctx.out.note(
      `Gave up waiting after ${options.waitTimeoutSeconds} s without progress; run the same command again to keep waiting: ${resume}`,
    );
  return isClean(run.results, unsupported) && !run.timedOut ? ExitCode.ok : ExitCode.uploadsIncomplete;
}

/** Every file became (or already was) a searchable document. */
const isClean = (results: readonly FileResult[], unsupported: readonly string[]) =>
  unsupported.length === 0 &&
  results.every((r) => r.outcome === 'completed' || r.outcome === 'duplicate' || (r.outcome === 'processing' && r.documentId !== null));
