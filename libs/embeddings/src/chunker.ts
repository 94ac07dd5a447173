import type { TextSpan } from '@cs/text-analysis';

/** A numbered passage of a document: its text and where it stands in the document's text. */
export interface Chunk extends TextSpan {
  index: number;
  text: string;
}

/**
 * Overlapping windows of about `size` words, cut at whitespace, with their offsets in the
 * text, so that a passage can be embedded alone and pointed back to. A window never crosses a
 * section boundary (an offset in `boundaries`, such as where "Experience" begins), so a passage
 * stays about one thing.
 */
export function chunkText(text: string, size = 120, overlap = 30, boundaries: readonly number[] = []): Chunk[] {
  const cuts = [...new Set([0, ...boundaries.filter((b) => b > 0 && b < text.length), text.length])].sort((a, b) => a - b);
  const chunks: Chunk[] = [];
  for (let s = 0; s + 1 < cuts.length; s++) {
    const words = [...text.slice(cuts[s], cuts[s + 1]).matchAll(/\S+/g)].map((m) => ({
      start: cuts[s] + m.index,
      end: cuts[s] + m.index + m[0].length,
    }));
    if (words.length === 0) continue;
    const step = Math.max(1, size - overlap);
    for (let first = 0; first < words.length; first += step) {
      const last = Math.min(words.length, first + size) - 1;
      const start = words[first].start;
      const end = words[last].end;
      chunks.push({ index: chunks.length, text: text.slice(start, end), start, end });
      if (last === words.length - 1) break;
    }
  }
  return chunks;
}
