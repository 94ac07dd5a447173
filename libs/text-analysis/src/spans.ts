/**
 * Where something stands in a text: UTF-16 offsets, `end` exclusive, so `text.slice(start, end)`
 * is the thing. Tokens and terms, highlights and their matches, a document's chunks and a CV's
 * sections are all spans of this kind; each adds what it is to its offsets.
 */
export interface TextSpan {
  start: number;
  end: number;
}
