import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '@cs/config';
import { DomainError } from '@cs/contracts';
import { answerError } from '../http/error.filter';

/**
 * The search console's built files by name: `index.html` and the content-hashed script, style
 * sheet and icon it names (`console-<hash>.js`). Bundled in memory by the standalone process, or
 * read from CONSOLE_DIR (`npm run build` writes dist/console).
 */
export type ConsoleFiles = ReadonlyMap<string, Uint8Array>;

const PREFIX = '/console';
const INDEX = 'index.html';
/** A console build holds a handful of small files; anything else in the folder is not ours to serve. */
const MAX_FILES = 32;
const MAX_FILE_BYTES = 2 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Reads a built console folder once, at start; throws when it is not one (no index.html), so a wrong CONSOLE_DIR stops the start. */
export function readConsoleDir(dir: string): ConsoleFiles {
  const names = readdirSync(dir).filter((name) => CONTENT_TYPES[path.extname(name)] && statSync(path.join(dir, name)).isFile());
  if (!names.includes(INDEX)) throw new Error(`CONSOLE_DIR ${dir} holds no ${INDEX}: build it with npm run build (dist/console)`);
  if (names.length > MAX_FILES) throw new Error(`CONSOLE_DIR ${dir} holds ${names.length} files; a console build has a handful`);
  const files = new Map<string, Uint8Array>();
  for (const name of names) {
    const bytes = readFileSync(path.join(dir, name));
    if (bytes.length > MAX_FILE_BYTES) throw new Error(`CONSOLE_DIR ${dir}: ${name} is over 2 MB; a console build is far smaller`);
    files.set(name, bytes);
  }
  return files;
}

/**
 * Where the page may connect besides its own origin: S3's public endpoint when presigned uploads
 * go there (a cluster with S3), since the browser PUTs the file to it directly.
 */
export function consoleConnectSources(config: AppConfig): string[] {
  const s3 = config.cluster.s3?.publicEndpoint;
  if (!s3) return [];
  return [`${s3.useSSL ? 'https' : 'http'}://${s3.endPoint}${s3.port ? `:${s3.port}` : ''}`];
}

/**
 * The page renders CV text, which is hostile input: no inline script or style, nothing from
 * another origin, and Trusted Types so that an HTML sink (innerHTML) given a string throws
 * instead of parsing it, whatever a future change to the page does.
 */
function contentSecurityPolicy(connectSources: string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    `connect-src ${["'self'", ...connectSources].join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
}

/**
 * Serves the console at /console (GET and HEAD; other methods 405 with Allow, unknown files 404,
 * both with the error body). It is mounted before routing and answers only paths under /console,
 * so the API's routes, authentication and 404/405 answers are untouched. `index.html` is
 * revalidated on every load (it names the current build's files); the other files are
 * content-hashed by the build, so a browser keeps them for good.
 */
export function serveConsole(files: ConsoleFiles, connectSources: string[]): (req: Request, res: Response, next: NextFunction) => void {
  const csp = contentSecurityPolicy(connectSources);
  return (req, res, next) => {
    const requested = req.path;
    if (requested !== PREFIX && !requested.startsWith(`${PREFIX}/`)) {
      next();
      return;
    }
    // The request metrics' route label (http-setup), so console loads are not counted as unmatched.
    res.locals.route = PREFIX;
    const name = requested === PREFIX || requested === `${PREFIX}/` ? INDEX : requested.slice(PREFIX.length + 1);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      answerError(
        new DomainError('method_not_allowed', `${req.method} is not allowed on ${requested.slice(0, 200)}; it takes GET, HEAD`),
        req,
        res,
      );
      return;
    }
    const body = files.get(name);
    if (!body) {
      answerError(new DomainError('not_found', `no route ${req.method} ${requested.slice(0, 200)}`), req, res);
      return;
    }
    res.setHeader('Content-Type', CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', name === INDEX ? 'no-cache' : 'public, max-age=31536000, immutable');
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    res.status(200).end(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  };
}
