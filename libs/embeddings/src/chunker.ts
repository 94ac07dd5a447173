export interface Chunk {
  index: number;
  text: string;
  start: number;
  end: number;
}

/**
 * Overlapping windows of about `size` words, cut at whitespace, with their offsets in the
 * text, so that a passage can be embedded alone and pointed back to.
 */
export function chunkText(text: string, size = 120, overlap = 30): Chunk[] {
  const words = [...text.matchAll(/\S+/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  const chunks: Chunk[] = [];
  if (words.length === 0) return chunks;
  const step = Math.max(1, size - overlap);
  for (let first = 0; first < words.length; first += step) {
    const last = Math.min(words.length, first + size) - 1;
    const start = words[first].start;
    const end = words[last].end;
    chunks.push({ index: chunks.length, text: text.slice(start, end), start, end });
    if (last === words.length - 1) break;
  }
  return chunks;
}
