/** The MIME types a CV may have, by the contract's decisions. */
export const ACCEPTED_TYPES = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  doc: 'application/msword',
  text: 'text/plain',
} as const;
export type AcceptedType = (typeof ACCEPTED_TYPES)[keyof typeof ACCEPTED_TYPES];

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

const ACCEPTED = new Set<string>(Object.values(ACCEPTED_TYPES));

/** The bare MIME type of a Content-Type header (`text/plain; charset=utf-8` -> `text/plain`). */
export function mimeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function isAcceptedType(mime: string): mime is AcceptedType {
  return ACCEPTED.has(mime);
}

const startsWith = (bytes: Buffer, signature: number[]) => signature.every((b, i) => bytes[i] === b);

/**
 * Whether the bytes are what the declared type says (magic numbers): `%PDF-` for PDF, an OLE
 * compound file for DOC, a ZIP holding `word/` parts for DOCX, UTF-8 without NUL bytes for text.
 */
export function bytesMatchType(bytes: Buffer, mime: AcceptedType): boolean {
  switch (mime) {
    case ACCEPTED_TYPES.pdf:
      return bytes.subarray(0, 1024).includes('%PDF-');
    case ACCEPTED_TYPES.doc:
      return startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    case ACCEPTED_TYPES.docx:
      return startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && bytes.includes('word/');
    case ACCEPTED_TYPES.text:
      return !bytes.includes(0) && isUtf8(bytes);
  }
}

function isUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}
