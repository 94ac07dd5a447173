import { getDocument } from 'pdfjs-dist';
import * as pdfWorker from 'pdfjs-dist/build/pdf.worker.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { el } from './dom';

// pdf.js parses in this page's thread: the page's Trusted Types allow no policy, so no Worker can
// be started from a URL. A CV is a few pages, parsed in a few tens of milliseconds.
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfWorker;

/** Pages of a PDF drawn in the pane; a CV longer than this says how many more it has. */
export const MAX_PAGES = 5;

/** A match to mark on a page: the place of a query word in one of the page's text runs. */
function matchesIn(text: string, pattern: RegExp): { start: number; end: number }[] {
  return [...text.matchAll(pattern)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/**
 * Draws the PDF's first pages into `container` as canvases, each with the places of `words`
 * (whole words starting so, any case) marked in yellow over it; resolves with how many pages the
 * PDF has. Nothing of the PDF becomes DOM but the canvases (its text is in the pane below).
 */
export async function renderPdf(data: Uint8Array, container: HTMLElement, words: readonly string[], signal: AbortSignal): Promise<number> {
  // Fonts the PDF does not embed are the system's: nothing is fetched from anywhere.
  const task = getDocument({ data, useSystemFonts: true });
  const pdf = await task.promise;
  try {
    const escaped = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const pattern = escaped.length ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join('|')})[\\p{L}\\p{N}]*`, 'giu') : null;
    const width = Math.max(300, container.clientWidth || 600);
    for (let n = 1; n <= Math.min(pdf.numPages, MAX_PAGES); n++) {
      if (signal.aborted) break;
      const page = await pdf.getPage(n);
      const viewport = page.getViewport({ scale: width / page.getViewport({ scale: 1 }).width });
      const scale = window.devicePixelRatio || 1;
      const canvas = el('canvas', { class: 'pdf-canvas', role: 'img', 'aria-label': `Page ${n} of ${pdf.numPages} of the original` });
      canvas.width = Math.floor(viewport.width * scale);
      canvas.height = Math.floor(viewport.height * scale);
      const context = canvas.getContext('2d')!;
      container.append(el('div', { class: 'pdf-page' }, [canvas]));
      await page.render({ canvas, canvasContext: context, viewport, transform: scale === 1 ? undefined : [scale, 0, 0, scale, 0, 0] })
        .promise;
      if (!pattern) continue;
      const content = await page.getTextContent();
      context.save();
      context.scale(scale, scale);
      context.fillStyle = 'rgba(255, 196, 0, 0.4)';
      for (const item of content.items as TextItem[]) {
        if (!item.str || item.width === 0) continue;
        const matches = matchesIn(item.str, pattern);
        if (!matches.length) continue;
        // The run's baseline origin and height in page units, then each match by its share of the run's characters.
        const [, , , d, x, y] = item.transform as number[];
        const height = Math.abs(d) || item.height;
        for (const { start, end } of matches) {
          const from = x + (item.width * start) / item.str.length;
          const to = x + (item.width * end) / item.str.length;
          const [left, top] = viewport.convertToViewportPoint(from, y + height) as [number, number];
          const [right, bottom] = viewport.convertToViewportPoint(to, y - height * 0.25) as [number, number];
          context.fillRect(Math.min(left, right), Math.min(top, bottom), Math.abs(right - left), Math.abs(bottom - top));
        }
      }
      context.restore();
    }
    return pdf.numPages;
  } finally {
    await task.destroy();
  }
}
