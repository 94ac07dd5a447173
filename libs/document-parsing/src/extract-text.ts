import { repairMojibake } from './mojibake';
import { ACCEPTED_TYPES, type AcceptedType } from './file-types';
import { extractDocx } from './extract-docx';
import { extractPdf } from './extract-pdf';
import { checkOleLimits } from './ole-limits';
import { MAX_TEXT_CHARS, ParseLimitError, limitMessages } from './parse-limits';
import { UnreadableFileError } from './unreadable-file.error';

export { UnreadableFileError };

async function extractDoc(bytes: Buffer): Promise<string> {
  checkOleLimits(bytes);
  const { default: WordExtractor } = await import('word-extractor');
  const document = await new WordExtractor().extract(bytes);
  return [document.getHeaders({ includeFooters: false }), document.getBody(), document.getFootnotes()].join('\n');
}

/** Tidy extracted text: Unicode compatibility forms, no control characters, at most one blank line. */
export function cleanText(text: string): string {
  return repairMojibake(text)
    .normalize('NFKC')
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u00ad\u200b-\u200d\ufeff]/g, '')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Plain text of a CV file, with the library made for its format, within the bounds of
 * parse-limits; throws ParseLimitError past one, UnreadableFileError for a file its library
 * cannot read.
 */
export async function extractText(bytes: Buffer, mime: AcceptedType): Promise<string> {
  let raw: string;
  try {
    switch (mime) {
      case ACCEPTED_TYPES.pdf:
        raw = await extractPdf(bytes);
        break;
      case ACCEPTED_TYPES.docx:
        raw = await extractDocx(bytes);
        break;
      case ACCEPTED_TYPES.doc:
        raw = await extractDoc(bytes);
        break;
      case ACCEPTED_TYPES.text:
        raw = bytes.toString('utf8');
        break;
    }
  } catch (error) {
    if (error instanceof ParseLimitError) throw error;
    // pdf.js recurses per nesting level; objects hidden where the nesting check cannot see them end here.
    if ((error as Error | null)?.name === 'RangeError' && /call stack/i.test((error as Error).message))
      throw new ParseLimitError('pdf-nesting', limitMessages.pdfNesting());
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnreadableFileError(`the file could not be read as ${mime}: ${reason}`);
  }
  if (raw.length > MAX_TEXT_CHARS) throw new ParseLimitError('text-length', limitMessages.textLength());
  return cleanText(raw);
}

const MIN_CV_LETTERS = 50;

/**
 * Why the text is too little to be a CV (a scan without a text layer, an empty page, a stray
 * note), in words for the document's status message; null when it is enough.
 */
export function insufficientTextReason(text: string): string | null {
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters >= MIN_CV_LETTERS) return null;
  if (letters === 0) return 'No text could be extracted from the file (is it a scan without a text layer?)';
  return `The file holds too little text for a CV: ${letters} letters, at least ${MIN_CV_LETTERS} are needed`;
}
