import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** The browser code, its page and its style sheet. */
export const CONSOLE_WEB_DIR = path.resolve(__dirname, '../web');

/**
 * Bundles the console with esbuild, in memory: `index.html` naming the content-hashed script,
 * style sheet and icon, and those three files. esbuild is a development dependency, loaded only here:
 * `npm start` bundles at start (about a tenth of a second), so the console always matches the
 * sources and a fresh clone needs no build step; `npm run build` writes the same files to
 * dist/console for the image, whose runtime has no esbuild.
 */
export async function bundleConsole(webDir = CONSOLE_WEB_DIR): Promise<Map<string, Uint8Array>> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: { console: path.join(webDir, 'main.ts') },
    bundle: true,
    write: false,
    // Output paths are only names here: nothing is written.
    outdir: path.join(webDir, 'out'),
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    // pdf.js (a megabyte and more) goes in a chunk of its own, loaded the first time a PDF is shown.
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    minify: true,
    legalComments: 'none',
    tsconfig: path.join(webDir, 'tsconfig.json'),
    logLevel: 'silent',
  });
  // esbuild answers from a child process it keeps for later builds; the service builds once.
  await esbuild.stop();
  const files = new Map<string, Uint8Array>();
  for (const output of result.outputFiles) files.set(path.basename(output.path), output.contents);
  const script = [...files.keys()].find((name) => name.startsWith('console-') && name.endsWith('.js'));
  const style = [...files.keys()].find((name) => name.endsWith('.css'));
  if (!script || !style) throw new Error(`the console bundle lacks its script or style sheet: ${[...files.keys()].join(', ')}`);
  // Named by its content like the bundle, so that it too may be cached for good.
  const iconBytes = await fs.readFile(path.join(webDir, 'icon.svg'));
  const icon = `icon-${createHash('sha256').update(iconBytes).digest('hex').slice(0, 8)}.svg`;
  files.set(icon, iconBytes);
  const page = (await fs.readFile(path.join(webDir, 'index.html'), 'utf8'))
    .replace('{{script}}', `/console/${script}`)
    .replace('{{style}}', `/console/${style}`)
    .replace('{{icon}}', `/console/${icon}`);
  files.set('index.html', Buffer.from(page));
  return files;
}

/** Writes the bundle to `dir` (emptied first): what CONSOLE_DIR points a gateway at. */
export async function writeConsole(dir: string): Promise<string[]> {
  const files = await bundleConsole();
  await fs.rm(dir, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  for (const [name, bytes] of files) await fs.writeFile(path.join(dir, name), bytes);
  return [...files.keys()];
}
