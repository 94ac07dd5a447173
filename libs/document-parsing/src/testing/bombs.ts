import { constants, deflateRawSync } from 'node:zlib';
import { storedZip } from '../zip-parts';

/**
 * Hostile files for the parse bounds' tests, built in memory in milliseconds without ever
 * holding what they unpack to. Each takes a `variant` that changes its bytes (and nothing
 * else), so the same bomb can be uploaded twice without being taken for a duplicate.
 */

const MB = 1024 * 1024;

/**
 * Raw deflate data that inflates to `prefix`, then `repeats` times `unit`, then `suffix`: the
 * unit is compressed once, ending with a full flush (byte-aligned, no references back), and
 * that block is repeated; 1 MB of one byte compresses to about 1 KB.
 */
function repeatedDeflate(prefix: string, unit: Buffer, repeats: number, suffix: string): Buffer {
  const flushed = (data: Buffer) => deflateRawSync(data, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const block = flushed(unit);
  return Buffer.concat([flushed(Buffer.from(prefix)), ...Array<Buffer>(repeats).fill(block), deflateRawSync(Buffer.from(suffix))]);
}

/** A zip of the given entries, each either stored bytes or raw deflate data with its inflated size. */
function zip(entries: { name: string; stored?: Buffer; deflated?: Buffer; inflatedSize?: number }[], comment: string): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const data = entry.deflated ?? entry.stored!;
    const size = entry.deflated ? entry.inflatedSize! : data.length;
    const method = entry.deflated ? 8 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(Math.min(size, 0xfffffffe), 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(Math.min(size, 0xfffffffe), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    directory.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const commentBytes = Buffer.from(comment);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(
    directory.reduce((sum, b) => sum + b.length, 0),
    12,
  );
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(commentBytes.length, 20);
  return Buffer.concat([...parts, ...directory, end, commentBytes]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const PACKAGE_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
const DOCUMENT_START =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
const DOCUMENT_END = '</w:body></w:document>';

/**
 * A DOCX (1.6 MB) whose word/document.xml inflates to about 1.5 GB of one paragraph's text.
 * Its zip declares the true sizes unless `declaredSize` says otherwise (declared sizes can lie);
 * `extraParts` adds that many more XML parts inflating to `inflatedMb` each.
 */
export function docxBomb(variant = 0, options: { inflatedMb?: number; declaredSize?: number; extraParts?: number } = {}): Buffer {
  const inflatedMb = options.inflatedMb ?? 1536;
  const prefix = `${DOCUMENT_START}<w:p><w:r><w:t>`;
  const suffix = `</w:t></w:r></w:p>${DOCUMENT_END}`;
  const deflated = repeatedDeflate(prefix, Buffer.alloc(MB, 'A'), inflatedMb, suffix);
  const inflatedSize = options.declaredSize ?? prefix.length + inflatedMb * MB + suffix.length;
  const extra = Array.from({ length: options.extraParts ?? 0 }, (_, i) => ({ name: `word/extra${i}.xml`, deflated, inflatedSize }));
  return zip(
    [
      { name: '[Content_Types].xml', stored: Buffer.from(CONTENT_TYPES) },
      { name: '_rels/.rels', stored: Buffer.from(PACKAGE_RELS) },
      { name: 'word/document.xml', deflated, inflatedSize },
      ...extra,
    ],
    `variant ${variant}`,
  );
}

/** A DOCX of `entries` empty parts: a zip directory no CV has. */
export function docxOfManyParts(entries: number): Buffer {
  return zip(
    Array.from({ length: entries }, (_, i) => ({ name: `word/part${i}.xml`, stored: Buffer.alloc(0) })),
    '',
  );
}

/**
 * A small, valid DOCX whose paragraphs hold line breaks, carriage returns and tabs between
 * words, as Word writes them, for the test that words stay apart.
 */
export function docxWithBreaks(): Buffer {
  const body =
    '<w:p><w:r><w:t>Jane Doe</w:t></w:r></w:p>' +
    '<w:p><w:r><w:t>Senior Engineer</w:t><w:br/><w:t>Acme Technologies</w:t></w:r><w:r><w:br w:type="page"/></w:r><w:r><w:t>Berlin</w:t></w:r></w:p>' +
    '<w:p><w:r><w:t>Skills</w:t><w:tab/><w:t>TypeScript</w:t><w:cr/><w:t>PostgreSQL</w:t></w:r></w:p>' +
    '<w:p><w:r><w:t xml:space="preserve">Worked independently</w:t></w:r><w:r><w:br></w:br></w:r><w:r><w:t>Passionate about testing</w:t></w:r></w:p>';
  const parts = new Map<string, Buffer>([
    ['[Content_Types].xml', Buffer.from(CONTENT_TYPES)],
    ['_rels/.rels', Buffer.from(PACKAGE_RELS)],
    ['word/document.xml', Buffer.from(DOCUMENT_START + body + DOCUMENT_END)],
  ]);
  return storedZip(parts);
}

/** A PDF of the given objects (bodies without `n 0 obj`), object 1 the catalog, with a correct cross-reference table. */
function pdf(objects: (string | Buffer)[], variant: number): Buffer {
  const chunks: Buffer[] = [Buffer.from(`%PDF-1.7\n%\xe2\xe3\xcf\xd3\n% variant ${variant}\n`, 'latin1')];
  let offset = chunks[0].length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const object = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    chunks.push(object);
    offset += object.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  chunks.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(chunks);
}

const streamObject = (dictionary: string, data: Buffer) =>
  Buffer.concat([Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);

const FONT = '<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>';

/**
 * A PDF (about 1 MB) whose page content stream is FlateDecode of about 1 GB of spaces; or,
 * by `chain`, the same under a second FlateDecode or under ASCIIHexDecode; `streams` pages
 * each with such a stream.
 */
export function pdfFlateBomb(
  variant = 0,
  options: { decodedMb?: number; streams?: number; chain?: 'flate' | 'flate-flate' | 'hex-flate' } = {},
): Buffer {
  const deflated = repeatedDeflate('BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n', Buffer.alloc(MB, ' '), options.decodedMb ?? 1024, '\n');
  // zlib wrapping: a header pdf.js accepts; the checksum, which pdf.js ignores, is left zero.
  const wrap = (data: Buffer) => Buffer.concat([Buffer.from([0x78, 0xda]), data, Buffer.alloc(4)]);
  const chain = options.chain ?? 'flate';
  const [filter, data] =
    chain === 'flate'
      ? ['/FlateDecode', wrap(deflated)]
      : chain === 'flate-flate'
        ? ['[/FlateDecode /FlateDecode]', wrap(deflateRawSync(wrap(deflated)))]
        : ['[/ASCIIHexDecode /FlateDecode]', Buffer.from(wrap(deflated).toString('hex') + '>')];
  const streams = options.streams ?? 1;
  const pages = Array.from({ length: streams }, (_, i) => `${3 + 2 * i} 0 R`);
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pages.join(' ')}] /Count ${streams} /Resources ${FONT} >>`,
  ];
  for (let i = 0; i < streams; i++) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + 2 * i} 0 R >>`);
    objects.push(streamObject(`/Filter ${filter}`, data));
  }
  return pdf(objects, variant);
}

/** A valid PDF of `pages` tiny pages (30,000 make about 9 MB, under the 10 MB upload limit), each a word of text. */
export function pdfPageBomb(variant = 0, pages = 30_000): Buffer {
  const objects: (string | Buffer)[] = ['<< /Type /Catalog /Pages 2 0 R >>', ''];
  const kids: string[] = [];
  for (let i = 0; i < pages; i++) {
    const page = objects.length + 1;
    kids.push(`${page} 0 R`);
    objects.push(`<</Type/Page/Parent 2 0 R/MediaBox[0 0 99 99]/Contents ${page + 1} 0 R>>`);
    objects.push(streamObject('', Buffer.from(`BT/F1 9 Tf 9 9 Td(p${i})Tj ET`)));
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} /Resources ${FONT} >>`;
  return pdf(objects, variant);
}

/** A one-page PDF whose catalog holds an array nested `depth` deep (100,000 by default, 200 KB); pdf.js's parser recurses per level. */
export function pdfNestingBomb(variant = 0, depth = 100_000): Buffer {
  return pdf(
    [
      `<< /Type /Catalog /Pages 2 0 R /Nested ${'['.repeat(depth) + ']'.repeat(depth)} >>`,
      `<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources ${FONT} >>`,
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      streamObject('', Buffer.from('BT /F1 12 Tf 72 720 Td (Hello) Tj ET')),
    ],
    variant,
  );
}

/**
 * The 512-byte header of an OLE compound file (the container of .doc) with 512-byte sectors,
 * `tableSectors` sectors of allocation table listed from sector 0, the directory at sector 1.
 */
function oleHeader(variant: number, tableSectors: number): Buffer {
  const header = Buffer.alloc(512, 0xff);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.fill(0, 8, 0x4c);
  header.writeUInt32LE(variant, 8); // the class id, which nothing reads
  header.writeUInt16LE(0x3e, 0x18); // minor version
  header.writeUInt16LE(3, 0x1a); // major version 3: 512-byte sectors
  header.writeUInt16LE(0xfffe, 0x1c); // little-endian
  header.writeUInt16LE(9, 0x1e); // sectors of 2^9 bytes
  header.writeUInt16LE(6, 0x20); // short sectors of 2^6 bytes
  header.writeUInt32LE(tableSectors, 0x2c);
  header.writeInt32LE(1, 0x30); // the directory's first sector
  header.writeUInt32LE(4096, 0x38); // streams under 4 KB live in short sectors
  header.writeInt32LE(-2, 0x3c); // no short-sector table
  header.writeInt32LE(-2, 0x44); // no further table locations
  header.writeInt32LE(0, 0x4c); // the table's first sector is sector 0
  return header;
}

/** A directory sector: the root entry and a WordDocument stream of `size` bytes from `start`. */
function oleDirectory(start: number, size: number): Buffer {
  const directory = Buffer.alloc(512);
  const entry = (index: number, name: string, type: number, first: number, bytes: number, child: number) => {
    const at = index * 128;
    directory.write(`${name}\0`, at, 'utf16le');
    directory.writeUInt16LE((name.length + 1) * 2, at + 0x40);
    directory.writeUInt8(type, at + 0x42);
    directory.writeUInt8(1, at + 0x43); // black
    directory.writeInt32LE(-1, at + 0x44);
    directory.writeInt32LE(-1, at + 0x48);
    directory.writeInt32LE(child, at + 0x4c);
    directory.writeInt32LE(first, at + 0x74);
    directory.writeUInt32LE(bytes, at + 0x78);
  };
  entry(0, 'Root Entry', 5, -2, 0, 1);
  entry(1, 'WordDocument', 2, start, size, -1);
  return directory;
}

/**
 * A 1.5 KB .doc whose header claims 4 million sectors of allocation table: word-extractor
 * allocates the table as claimed, a 2 GB Buffer.
 */
export function docTableBomb(variant = 0): Buffer {
  const table = Buffer.alloc(512, 0xff);
  table.writeInt32LE(-3, 0); // sector 0: the table itself
  table.writeInt32LE(-2, 4); // sector 1: the directory, one sector
  return Buffer.concat([oleHeader(variant, 4_000_000), table, oleDirectory(2, 8192), Buffer.alloc(512)]);
}

/** A 2 KB .doc whose WordDocument stream's sector chain loops (2 -> 3 -> 2): word-extractor follows it until memory runs out. */
export function docLoopBomb(variant = 0): Buffer {
  const table = Buffer.alloc(512, 0xff);
  table.writeInt32LE(-3, 0);
  table.writeInt32LE(-2, 4);
  table.writeInt32LE(3, 8);
  table.writeInt32LE(2, 12);
  return Buffer.concat([oleHeader(variant, 1), table, oleDirectory(2, 8192), Buffer.alloc(1024)]);
}
