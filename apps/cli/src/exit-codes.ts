/**
 * The exit codes of `candidate-search`, one per kind of failure a script may want to tell
 * apart (documented in `--help` and apps/cli/README.md).
 */
export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  unavailable: 6,
  uploadsIncomplete: 7,
  notSearchable: 8,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The table `--help` and the README print. */
export const EXIT_CODE_HELP: readonly (readonly [ExitCode, string])[] = [
  [ExitCode.ok, 'done'],
  [ExitCode.unexpected, 'unexpected error (a bug, or an answer the CLI did not expect)'],
  [ExitCode.usage, 'bad arguments, or a request the API refused as invalid (400)'],
  [ExitCode.auth, 'no API key, or the API refused it (401)'],
  [ExitCode.notFound, 'no such document or search (404)'],
  [ExitCode.rateLimited, 'rate limited (429) after the retries'],
  [ExitCode.unavailable, 'service unreachable, unavailable or failing (network error, 5xx), or a search that failed'],
  [ExitCode.uploadsIncomplete, 'upload: some files were invalid, failed or not uploaded'],
  [ExitCode.notSearchable, 'similar: the document is not a read CV: still processing, invalid or failed (409)'],
  [ExitCode.interrupted, 'interrupted (Ctrl-C); upload says how to resume'],
];

/** A failure the CLI explains in its own words, with the exit code that says what failed. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** What to do about it, printed on a line of its own. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** An HTTP status the API answered with (an SDK error carries it), as an exit code. */
export function exitCodeForStatus(status: number): ExitCode {
  if (status === 400 || status === 413 || status === 415 || status === 422) return ExitCode.usage;
  if (status === 401 || status === 403) return ExitCode.auth;
  if (status === 404 || status === 410) return ExitCode.notFound;
  if (status === 429) return ExitCode.rateLimited;
  if (status >= 500 || status === 408) return ExitCode.unavailable;
  return ExitCode.unexpected;
}
