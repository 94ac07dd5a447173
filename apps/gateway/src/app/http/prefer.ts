import type { Request, Response } from 'express';

/** The longest `Prefer: wait` honoured; a longer one is shortened to it. */
export const MAX_WAIT_SECONDS = 30;

/**
 * The `wait` preference of the `Prefer` headers (RFC 7240), in whole seconds capped at
 * {@link MAX_WAIT_SECONDS}, or null when there is none or it is malformed: a server ignores a
 * preference it cannot read. Only the first `wait` counts (RFC 7240 section 2). Linear in the
 * header's length, which Node bounds (16 KB of headers).
 */
export function preferredWait(header: string | string[] | undefined): number | null {
  if (header === undefined) return null;
  for (const preference of splitOutsideQuotes(Array.isArray(header) ? header.join(',') : header, ',')) {
    // Parameters after ';' belong to the preference; wait takes none, and they change nothing.
    const [head] = splitOutsideQuotes(preference, ';');
    const eq = head.indexOf('=');
    const name = (eq < 0 ? head : head.slice(0, eq)).trim().toLowerCase();
    if (name !== 'wait') continue;
    const value = eq < 0 ? '' : head.slice(eq + 1).trim();
    // delta-seconds is 1*DIGIT (RFC 9111): no sign, no fraction, no quotes.
    if (!/^\d+$/.test(value)) return null;
    return Math.min(Number(value), MAX_WAIT_SECONDS);
  }
  return null;
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * The wait a request prefers; its answer varies with `Prefer` whether or not it sent one
 * (`Vary: Prefer`, for caches between us and the client).
 */
export function waitPreference(req: Request, res: Response): number | null {
  res.vary('Prefer');
  return preferredWait(req.headers.prefer);
}

/** Says that the wait was honoured, and for how long at most. */
export function applyWait(res: Response, seconds: number): void {
  res.setHeader('Preference-Applied', `wait=${seconds}`);
}
