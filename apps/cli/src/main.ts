import { loadCliEnvironment } from '@cs/config';
import { runCli } from './program';

// The exit code is set rather than forced with process.exit, so that stdout is flushed when it is a pipe.
runCli(process.argv.slice(2), {
  env: loadCliEnvironment(),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
