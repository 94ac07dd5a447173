import type { AppConfig } from '@cs/config';
import { loggerFor } from '@cs/telemetry';
import { bundleConsole } from '../../../console/src/bundle';
import { readConsoleDir, type ConsoleFiles } from '../../../gateway/src/app/console/console-files';

/**
 * The console's files: CONSOLE_DIR's when set (the image), else bundled now from the sources.
 * Without esbuild (a production install) and without CONSOLE_DIR the service runs without the
 * console rather than not at all.
 */
export async function standaloneConsoleFiles(config: AppConfig): Promise<ConsoleFiles | undefined> {
  if (config.consoleDir) return readConsoleDir(config.consoleDir);
  try {
    return await bundleConsole();
  } catch (error) {
    loggerFor('console').warn(
      { err: error instanceof Error ? error.message : String(error) },
      'the search console is not served: it could not be bundled (set CONSOLE_DIR to a built one, from npm run build)',
    );
    return undefined;
  }
}
