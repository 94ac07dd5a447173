import { readZipParts, storedZip } from './zip-parts';

/** The parts mammoth reads for text: the XML parts and their relationships. Images are never read, so never unpacked. */
const isTextPart = (name: string) => /\.(xml|rels)$/i.test(name);

/**
 * mammoth's raw text drops line breaks (`<w:br/>`, of any type) and knows no carriage returns
 * (`<w:cr/>`), which glued the words either side together in 51 of the 65 DOCX CVs of the
 * evaluation set ("TechnologiesMCB"); a run's text holding a newline keeps them apart, and an
 * absolute-position tab (`<w:ptab/>`) becomes the tab mammoth already keeps.
 */
export function keepBreaks(xml: string): string {
  return xml
    .replace(/<w:(?:br|cr)\b[^>]*?(?:\/>|>\s*<\/w:(?:br|cr)>)/g, '<w:t xml:space="preserve">\n</w:t>')
    .replace(/<w:ptab\b[^>]*?(?:\/>|>\s*<\/w:ptab>)/g, '<w:tab/>');
}

/** UTF-16 parts (a byte order mark of FF FE or FE FF) are rare and left as they are. */
const isUtf16 = (part: Buffer) => (part[0] === 0xff && part[1] === 0xfe) || (part[0] === 0xfe && part[1] === 0xff);

/**
 * The raw text of a DOCX. Its XML parts are unpacked first under the bounds of zip-parts, with
 * breaks kept as whitespace; mammoth then reads a stored (uncompressed) zip of just those parts,
 * so nothing it unpacks can be larger than what was checked.
 */
export async function extractDocx(bytes: Buffer): Promise<string> {
  const parts = readZipParts(bytes, isTextPart);
  for (const [name, part] of parts) {
    if (name.startsWith('word/') && name.endsWith('.xml') && !isUtf16(part))
      parts.set(name, Buffer.from(keepBreaks(part.toString('utf8')), 'utf8'));
  }
  const mammoth = await import('mammoth');
  return (await mammoth.extractRawText({ buffer: storedZip(parts) })).value;
}
