import { createInterface } from 'node:readline';
import { CliError, ExitCode } from './exit-codes';

/** All of stdin, as `echo key | candidate-search login` gives it. */
export async function readStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    // A key is a line; a megabyte means the wrong thing was piped in.
    if (size > 1 << 20) throw new CliError('stdin holds more than 1 MB: pipe in the API key alone', ExitCode.usage);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Reads a line from the terminal without echoing it (the key must not stay on screen or in the
 * scrollback). Ctrl-C ends the CLI as interrupted, Ctrl-D or Enter ends the line.
 */
export function readHidden(
  prompt: string,
  stdin: NodeJS.ReadStream = process.stdin,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<string> {
  return new Promise((resolve, reject) => {
    stderr.write(prompt);
    let value = '';
    const finish = (error?: CliError) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          return;
        }
        if (char === '\u0003') {
          finish(new CliError('interrupted', ExitCode.interrupted));
          return;
        }
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** Asks a yes/no question on the terminal; only y or yes is a yes. */
export async function confirm(
  question: string,
  stdin: NodeJS.ReadStream = process.stdin,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<boolean> {
  const rl = createInterface({ input: stdin, output: stderr });
  try {
    const answer = await new Promise<string>((resolve) => rl.question(`${question} [y/N] `, resolve));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
