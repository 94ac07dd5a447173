import { repairMojibake } from './mojibake';
import { ACCEPTED_TYPES, type AcceptedType } from './file-types';

/** The file could not be read at all (corrupt, encrypted, truncated). */
export class UnreadableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableFileError';
  }
}

async function extractPdf(bytes: Buffer): Promise<string> {
  const { getDocumentProxy, extractText } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(pdf, { mergePages: false });
    return text.join('\n\n');
  } finally {
    await pdf.destroy();
  }
}

async function extractDocx(bytes: Buffer): Promise<string> {
  const mammoth = await import('mammoth');
  return (await mammoth.extractRawText({ buffer: bytes })).value;
}

async function extractDoc(bytes: Buffer): Promise<string> {
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

/** Plain text of a CV file, with the library made for its format; throws UnreadableFileError. */
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
    const reason = error instanceof Error ? error.message : String(error);
    throw new UnreadableFileError(`the file could not be read as ${mime}: ${reason}`);
  }
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
