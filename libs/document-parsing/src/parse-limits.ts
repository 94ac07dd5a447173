/**
 * Bounds on what reading one CV file may cost. Uploads are at most 10 MB, but compression lets
 * 10 MB stand for gigabytes, and a valid file can still ask for 30,000 pages; each bound below
 * is checked while the bytes are unpacked or read, so a hostile file stops at the bound instead
 * of after it has taken the memory. The figures are far above any real CV: the 2,484 livecareer
 * PDFs and 65 DOCX CVs of the evaluation set unpack to at most a few MB and run to a few pages,
 * and long academic CVs run to 30 to 60 pages and about 150,000 characters.
 */

const MB = 1024 * 1024;

/** Total bytes a DOCX's XML parts may unpack to: real CVs unpack to well under 5 MB. */
export const MAX_UNPACKED_BYTES = 64 * MB;
/** Bytes one part of a DOCX may unpack to; a 60-page CV's document.xml is about 3 MB. */
export const MAX_UNPACKED_PART_BYTES = 32 * MB;
/** Entries in a DOCX's zip directory: a CV has 10 to 50, a few hundred with many images. */
export const MAX_ZIP_ENTRIES = 2_000;

/** Bytes one PDF stream may decode to: a full-page 300 dpi colour scan decodes to 26 MB. */
export const MAX_PDF_STREAM_BYTES = 64 * MB;
/** Bytes all a PDF's streams together may decode to: a 10 MB file of real content decodes to at most about 100 MB. */
export const MAX_PDF_DECODED_BYTES = 256 * MB;
/** Pages of a PDF: academic CVs run to 30 to 60 pages; a 500-page file is a book. */
export const MAX_PDF_PAGES = 500;
/** Nesting of PDF arrays and dictionaries: real files nest fewer than 20 deep; the parser recurses per level. */
export const MAX_PDF_NESTING = 256;

/** Characters of extracted text: a long academic CV holds about 150,000; a million is 300 dense pages. */
export const MAX_TEXT_CHARS = 1_000_000;

/** Wall-clock time one file may take to read on a parse worker: CVs take well under a second. */
export const MAX_PARSE_MS = 60_000;

/** Which bound a file broke, for logs and tests; the message says it in words. */
export type ParseLimit =
  | 'unpacked-size'
  | 'zip-entries'
  | 'pdf-stream-size'
  | 'pdf-decoded-size'
  | 'pdf-pages'
  | 'pdf-nesting'
  | 'sector-chain'
  | 'text-length'
  | 'memory'
  | 'time';

/**
 * The file breaks one of the bounds above: not a CV, whatever it holds, and reading it again
 * would break the bound again. Ingestion ends such a document `invalid` with this message.
 */
export class ParseLimitError extends Error {
  constructor(
    readonly limit: ParseLimit,
    message: string,
  ) {
    super(message);
    this.name = 'ParseLimitError';
  }
}

const megabytes = (bytes: number) => `${Math.round(bytes / MB)} MB`;

/** The messages a document's status shows, one per bound. */
export const limitMessages = {
  unpackedSize: () => `The file expands to more than ${megabytes(MAX_UNPACKED_BYTES)} when unpacked; a CV is far smaller`,
  unpackedPart: () => `A part of the file expands to more than ${megabytes(MAX_UNPACKED_PART_BYTES)} when unpacked; a CV is far smaller`,
  zipEntries: () => `The file holds more than ${MAX_ZIP_ENTRIES} parts; a CV holds a few dozen`,
  pdfStream: () => `A stream in the PDF decodes to more than ${megabytes(MAX_PDF_STREAM_BYTES)}; a CV's are far smaller`,
  pdfDecoded: () => `The PDF's streams decode to more than ${megabytes(MAX_PDF_DECODED_BYTES)} in all; a CV's are far smaller`,
  pdfPages: (pages: number) => `The PDF has ${pages} pages, more than the ${MAX_PDF_PAGES} a CV could have`,
  pdfNesting: () => `The PDF nests its objects more than ${MAX_PDF_NESTING} levels deep; real files nest a few levels`,
  sectorChain: () => 'A sector chain in the file loops or runs past the end of the file, which would take unbounded memory to read',
  textLength: () => `The file holds more than ${MAX_TEXT_CHARS.toLocaleString('en')} characters of text; a CV holds far fewer`,
  memory: () => 'The file needed too much memory to read; a CV needs far less',
  time: () => `The file took more than ${MAX_PARSE_MS / 1000} s to read; a CV takes under a second`,
} as const;
