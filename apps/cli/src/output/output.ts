import { terminalWidth, type OutputStream } from './table';

/**
 * Where a command's words go. With `--json`, stdout holds one JSON document and nothing else;
 * without it, stdout holds the human result (tables, confirmations). Progress, notes and
 * warnings always go to stderr, so they never mix into what a script reads.
 */
export class Output {
  constructor(
    readonly json: boolean,
    readonly stdout: OutputStream = process.stdout,
    readonly stderr: OutputStream = process.stderr,
  ) {}

  /** Both streams are a terminal: bars and prompts make sense. */
  get interactive(): boolean {
    return this.stdout.isTTY === true && this.stderr.isTTY === true;
  }

  get width(): number {
    return terminalWidth(this.stdout);
  }

  /** The command's result: `value` as JSON with --json, else the human text `human()` builds. */
  result(value: unknown, human: () => string): void {
    if (this.json) this.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    else this.stdout.write(`${human()}\n`);
  }

  /** A line of the human result; nothing with --json. */
  line(text: string): void {
    if (!this.json) this.stdout.write(`${text}\n`);
  }

  /** A note for the person at the terminal, whatever the mode. */
  note(text: string): void {
    this.stderr.write(`${text}\n`);
  }
}
