import * as CFB from 'cfb';
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import { ACCEPTED_TYPES, type AcceptedType } from '../file-types';
import { storedZip } from '../zip-parts';

/**
 * CVs the project owns, written out in memory as PDF, DOCX, DOC and TXT, so that the core
 * suites need no files from ../shared. The bytes depend only on the text and `variant` (fixed
 * dates, no random ids): the same call gives the same bytes, so duplicate detection sees a
 * duplicate; another variant changes the bytes and nothing a reader extracts.
 */

export type FixtureFormat = 'pdf' | 'docx' | 'doc' | 'txt';
export const FIXTURE_FORMATS: readonly FixtureFormat[] = ['pdf', 'docx', 'doc', 'txt'];
export const FIXTURE_TYPES: Record<FixtureFormat, AcceptedType> = {
  pdf: ACCEPTED_TYPES.pdf,
  docx: ACCEPTED_TYPES.docx,
  doc: ACCEPTED_TYPES.doc,
  txt: ACCEPTED_TYPES.text,
};

export interface FixtureCv {
  /** A short key: accountant, developer, chef, teacher, nurse. */
  profession: string;
  /** The CV as its author wrote it: lines, headings on their own line, bullets starting "• ". */
  text: string;
}

/**
 * Five CVs of distinct professions, each with words outside ASCII (café, Zürich, naïve, •).
 * The nurse's runs to a second PDF page. All characters are in Windows-1252, which the PDF's
 * standard font and the .doc's 8-bit text can hold.
 */
export const FIXTURE_CVS: readonly FixtureCv[] = [
  {
    profession: 'accountant',
    text: `Anna Müller
Senior Accountant
Zürich, Switzerland • anna.mueller@example.com • +41 44 555 01 23

Summary
Chartered accountant with nine years of month-end close, general ledger reconciliations and statutory reporting under Swiss GAAP and IFRS.

Experience
Senior Accountant, Bergmann Treuhand AG, Zürich, 2019 to 2024
• Led the month-end and year-end close for twelve subsidiaries.
• Reconciled intercompany accounts and prepared VAT returns.
• Moved accounts payable from paper invoices to SAP workflows.
Staff Accountant, Café Lumière Holdings, Geneva, 2015 to 2019
• Prepared journal entries, bank reconciliations and cash forecasts.

Education
Master of Accounting and Finance, University of St. Gallen

Skills
SAP FI, Abacus, Excel, consolidation, audit preparation, payroll`,
  },
  {
    profession: 'developer',
    text: `Jonas Petersen
Software Developer
Hamburg, Germany • jonas.petersen@example.org

Summary
Backend developer building TypeScript and Go services on Kubernetes, with PostgreSQL, Redis and event streaming. Replaced a naïve polling loop with change data capture.

Experience
Senior Software Developer, Nordlicht Logistics, Hamburg, 2020 to 2024
• Designed the REST and gRPC APIs of the shipment tracking platform.
• Cut the p95 latency of route planning from 900 ms to 120 ms.
• Mentored four junior developers and ran the code review rota.
Software Developer, Pixelwerk Agentur, Berlin, 2016 to 2020
• Built Node.js backends and React frontends for retail clients.

Education
BSc Computer Science, Technische Universität München

Skills
TypeScript, Go, Node.js, NestJS, PostgreSQL, Redis, Kafka, Docker, Kubernetes, Terraform`,
  },
  {
    profession: 'chef',
    text: `Étienne Rousseau
Head Chef
Lyon, France • etienne.rousseau@example.net

Summary
Head chef of a seventy-cover bistro and café: seasonal menus, sourcing from local farms, food safety and kitchen cost control.

Experience
Head Chef, Café des Célestins, Lyon, 2018 to 2024
• Wrote four seasonal menus a year around regional produce.
• Kept food cost under 28 percent while raising covers by a third.
• Trained a brigade of nine cooks and two pastry apprentices.
Sous Chef, Brasserie Zürichsee, Zürich, 2013 to 2018
• Ran the pass on service, ordering and inventory.

Education
Diploma in Culinary Arts, Institut Paul Bocuse

Skills
French cuisine, pastry, menu costing, HACCP, butchery, fermentation`,
  },
  {
    profession: 'teacher',
    text: `Sofia Lindqvist
Secondary School Teacher
Malmö, Sweden • sofia.lindqvist@example.com

Summary
Mathematics and physics teacher for pupils aged twelve to sixteen, planning lessons, assessing coursework and leading the school's science club.

Experience
Mathematics Teacher, Västra Skolan, Malmö, 2017 to 2024
• Planned the curriculum for years seven to nine and set common assessments.
• Raised the share of pupils passing national tests from 71 to 86 percent.
• Coached colleagues on formative assessment and classroom management.
Student Teacher, Lycée Français de Zürich, 2016 to 2017
• Taught physics lessons in French and English.

Education
Master of Education, Lund University

Skills
Lesson planning, differentiation, GeoGebra, parent conferences, naïve misconceptions in physics`,
  },
  {
    profession: 'nurse',
    text: `Grace O'Connor
Registered Nurse
Dublin, Ireland • grace.oconnor@example.ie • +353 1 555 0142

Summary
Registered nurse with eleven years in paediatric intensive care and emergency nursing, calm under pressure and trusted by families.

Experience
Clinical Nurse Manager, Children's Health Ireland, Dublin, 2019 to 2024
• Led a team of twenty-two nurses on a fourteen-bed paediatric intensive care unit.
• Wrote the unit's sepsis screening protocol, now used across three hospitals.
• Ran the rota, staff appraisals and the induction of new graduates.
• Cut central line infections by half with a daily bundle audit.
• Chaired the unit's family liaison group and its monthly café meetings.
Staff Nurse, Universitätsspital Zürich, 2015 to 2019
• Cared for ventilated infants and children after cardiac surgery.
• Titrated vasoactive infusions and managed arterial and central lines.
• Trained new staff on the high-flow oxygen therapy protocol.
• Translated patient leaflets between English and German.
Staff Nurse, Mater Misericordiae University Hospital, Dublin, 2013 to 2015
• Triaged patients in a busy adult emergency department.
• Assisted in resuscitation and trauma calls.
• Gave medication, wound care and discharge teaching.

Education
Higher Diploma in Paediatric Intensive Care Nursing, Royal College of Surgeons in Ireland
Bachelor of Nursing Science, University College Dublin

Certifications
• Paediatric Advanced Life Support, renewed 2023
• Advanced Trauma Nursing Course
• Manual Handling Instructor

Skills
• Paediatric and neonatal intensive care
• Mechanical ventilation and non-invasive ventilation
• Sepsis recognition, early warning scores
• Medication safety and infusion pumps
• Clinical audit, quality improvement, staff education
• Family-centred care, breaking bad news

Languages
English, Irish, German, a little French (enough to order at a café, though naïve about verbs)

Volunteering
• First aid volunteer, Order of Malta Ireland, 2012 to 2024
• Mentor for nursing students on their first clinical placement`,
  },
];

/** Lines the renderers show as headings (larger, bold in the PDF; Heading styles in Word). */
const HEADINGS = /^(Summary|Experience|Education|Skills|Certifications|Languages|Volunteering)$/;

// Everything dated is dated 2024-01-01, so the bytes never depend on the clock.
const FIXED_DATE = new Date(Date.UTC(2024, 0, 1));
const FIXED_ISO = '2024-01-01T00:00:00Z';

/** The CV as the given format, in bytes, with its MIME type. */
export async function fixtureCvFile(text: string, format: FixtureFormat, variant = 0): Promise<{ bytes: Buffer; mime: AcceptedType }> {
  const mime = FIXTURE_TYPES[format];
  switch (format) {
    case 'pdf':
      return { bytes: await pdfCv(text, variant), mime };
    case 'docx':
      return { bytes: docxCv(text, variant), mime };
    case 'doc':
      return { bytes: docCv(text, variant), mime };
    case 'txt':
      return { bytes: txtCv(text, variant), mime };
  }
}

/** UTF-8 text; a variant adds trailing blank lines, which extraction trims. */
export function txtCv(text: string, variant = 0): Buffer {
  return Buffer.from(text + '\n'.repeat(variant + 1), 'utf8');
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 64;

/**
 * A PDF of the CV in Helvetica (a standard font, so its WinAnsi encoding covers é, ü, ï and •),
 * wrapped to the page width and running onto further pages as needed, as a word processor
 * would print it. The variant is in the document's keywords, which no text extraction reads.
 */
export async function pdfCv(text: string, variant = 0): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(text.split('\n', 1)[0]);
  pdf.setCreator('Candidate Search test fixtures');
  pdf.setProducer('pdf-lib');
  pdf.setKeywords([`variant ${variant}`]);
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const width = A4.width - 2 * MARGIN;

  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const draw = (line: string, font: PDFFont, size: number, spaceBefore = 0) => {
    const leading = size * 1.45;
    if (y - spaceBefore - leading < MARGIN) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    } else {
      y -= spaceBefore;
    }
    y -= leading;
    page.drawText(line, { x: MARGIN, y, font, size, color: rgb(0.1, 0.1, 0.1) });
  };

  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') y -= 6;
    else if (index === 0) draw(line, bold, 20);
    else if (HEADINGS.test(line)) draw(line, bold, 13, 8);
    else for (const wrapped of wrap(line, regular, 10.5, width)) draw(wrapped, regular, 10.5);
  });
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** The line cut at spaces into pieces no wider than `width`. */
function wrap(line: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    const candidate = current ? `${current} ${word}` : word;
    if (current && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(current);
      current = word;
    } else {
      current = candidate;
    }
  }
  lines.push(current);
  return lines;
}

/** A one-page PDF holding only a drawn rectangle, no text: what a scan without a text layer gives a parser. */
export async function textlessPdf(variant = 0): Promise<Buffer> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setKeywords([`variant ${variant}`]);
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  pdf.addPage([A4.width, A4.height]).drawRectangle({ x: 72, y: 400, width: 450, height: 300, color: rgb(0.85, 0.85, 0.85) });
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const DOCX_PARTS = {
  contentTypes:
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
    '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>' +
    '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>',
  packageRels:
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>' +
    '</Relationships>',
  documentRels:
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
  styles:
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="${W}">` +
    '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/><w:sz w:val="21"/></w:rPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/><w:rPr><w:b/><w:sz w:val="40"/></w:rPr></w:style>' +
    '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:spacing w:before="240"/></w:pPr><w:rPr><w:b/><w:sz w:val="26"/></w:rPr></w:style>' +
    '</w:styles>',
};

/**
 * A DOCX of the CV as Word would save a simple one: a paragraph per line, the name in the Title
 * style, section names in Heading 1, core properties with fixed dates. Stored uncompressed with
 * our own zip writer, whose entries carry a fixed date. The variant is an XML comment in the body.
 */
export function docxCv(text: string, variant = 0): Buffer {
  const paragraphs = text.split('\n').map((line, index) => {
    const style = index === 0 ? 'Title' : HEADINGS.test(line) ? 'Heading1' : null;
    const properties = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : '';
    return line ? `<w:p>${properties}<w:r><w:t xml:space="preserve">${escapeXml(line)}</w:t></w:r></w:p>` : '<w:p/>';
  });
  const document =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body><!-- variant ${variant} -->` +
    paragraphs.join('') +
    '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1276" w:right="1276" w:bottom="1276" w:left="1276"/></w:sectPr></w:body></w:document>';
  const core =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
    'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
    `<dc:title>${escapeXml(text.split('\n', 1)[0])}</dc:title><dc:creator>Candidate Search test fixtures</dc:creator>` +
    `<dcterms:created xsi:type="dcterms:W3CDTF">${FIXED_ISO}</dcterms:created><dcterms:modified xsi:type="dcterms:W3CDTF">${FIXED_ISO}</dcterms:modified>` +
    '</cp:coreProperties>';
  return storedZip(
    new Map([
      ['[Content_Types].xml', Buffer.from(DOCX_PARTS.contentTypes)],
      ['_rels/.rels', Buffer.from(DOCX_PARTS.packageRels)],
      ['docProps/core.xml', Buffer.from(core)],
      ['word/document.xml', Buffer.from(document)],
      ['word/_rels/document.xml.rels', Buffer.from(DOCX_PARTS.documentRels)],
      ['word/styles.xml', Buffer.from(DOCX_PARTS.styles)],
    ]),
  );
}

/** Windows-1252's bytes 0x80 to 0x9f, by the character each stands for (the rest of the code page is Latin-1). */
const CP1252_HIGH = new Map(
  Array.from('€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ', (character, i) => [character, 0x80 + i]),
);

/** The text in Windows-1252, or null when a character is outside it. */
function cp1252(text: string): Buffer | null {
  const bytes = Buffer.alloc(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const byte = CP1252_HIGH.get(text[i]) ?? (code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : null);
    if (byte === null) return null;
    bytes[i] = byte;
  }
  return bytes;
}

// Where the FIB's fields are in the WordDocument stream (MS-DOC 2.5.1): FibBase, then the
// counts and arrays of FibRgW97, FibRgLw97 and FibRgFcLcb97 of a Word 97 file (nFib 0x00C1).
const FIB = {
  wIdent: 0x00,
  nFib: 0x02,
  lid: 0x06,
  flags: 0x0a,
  nFibBack: 0x0c,
  fcMin: 0x18,
  fcMac: 0x1c,
  csw: 0x20,
  cslw: 0x3e,
  cbMac: 0x40,
  lProductCreated: 0x44,
  lProductRevised: 0x48,
  ccpText: 0x4c,
  cbRgFcLcb: 0x98,
  fcClx: 0x1a2,
  lcbClx: 0x1a6,
  cswNew: 0x382,
} as const;
const FIB_FLAGS = { fWhichTblStm: 0x0200, fExtChar: 0x1000 } as const;
/** The text starts at the third 512-byte block of the stream, past the FIB, as Word places it. */
const TEXT_OFFSET = 0x400;

/**
 * A Word 97-2003 .doc of the CV: an OLE compound file (written by SheetJS's cfb) holding a
 * WordDocument stream with a Word 97 FIB and the text, and a 1Table stream with the CLX, a piece
 * table of one piece. The text is stored as 8-bit Windows-1252 ("compressed") when every
 * character fits, else as UTF-16LE, or as UTF-16LE always with `utf16`. Paragraphs end in CR, as
 * Word ends them. Only what text readers need is written: no stylesheet, formatting pages or
 * document properties, which Word itself would add. The variant is in the FIB's
 * lProductRevised (the build that last saved it), which no reader of text looks at. cfb adds
 * a 4-byte placeholder stream of its own ("\u0001Sh33tJ5"), which readers of .doc ignore.
 */
export function docCv(text: string, variant = 0, options: { utf16?: boolean } = {}): Buffer {
  const paragraphs = text.replace(/\r\n?/g, '\n') + '\n';
  const body = paragraphs.replace(/\n/g, '\r');
  const compressed = options.utf16 ? null : cp1252(body);
  const textBytes = compressed ?? Buffer.from(body, 'utf16le');
  const characters = body.length;

  const word = Buffer.alloc(TEXT_OFFSET + textBytes.length);
  word.writeUInt16LE(0xa5ec, FIB.wIdent);
  word.writeUInt16LE(0x00c1, FIB.nFib);
  word.writeUInt16LE(0x0409, FIB.lid);
  word.writeUInt16LE(FIB_FLAGS.fWhichTblStm | FIB_FLAGS.fExtChar, FIB.flags);
  word.writeUInt16LE(0x00bf, FIB.nFibBack);
  word.writeUInt32LE(TEXT_OFFSET, FIB.fcMin);
  word.writeUInt32LE(TEXT_OFFSET + textBytes.length, FIB.fcMac);
  word.writeUInt16LE(14, FIB.csw);
  word.writeUInt16LE(22, FIB.cslw);
  word.writeUInt32LE(word.length, FIB.cbMac);
  word.writeUInt32LE(variant, FIB.lProductRevised);
  word.writeUInt32LE(characters, FIB.ccpText);
  word.writeUInt16LE(0x005d, FIB.cbRgFcLcb);
  word.writeUInt16LE(0, FIB.cswNew);
  textBytes.copy(word, TEXT_OFFSET);

  // Clx: a Pcdt (0x02, its size, then a PlcPcd): the CPs 0 and `characters`, then one Pcd whose
  // fc says where the text is; bit 30 set means 8-bit text at half the stored offset.
  const plcPcd = Buffer.alloc(8 + 8);
  plcPcd.writeUInt32LE(0, 0);
  plcPcd.writeUInt32LE(characters, 4);
  plcPcd.writeUInt32LE(compressed ? (0x40000000 | (TEXT_OFFSET * 2)) >>> 0 : TEXT_OFFSET, 8 + 2);
  const clx = Buffer.concat([Buffer.from([0x02]), uint32(plcPcd.length), plcPcd]);
  word.writeUInt32LE(0, FIB.fcClx);
  word.writeUInt32LE(clx.length, FIB.lcbClx);

  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, '/WordDocument', word);
  CFB.utils.cfb_add(container, '/1Table', clx);
  return Buffer.from(CFB.write(container, { type: 'buffer' }) as Uint8Array);
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value, 0);
  return bytes;
}

/** The README tour's sample CVs (samples/cvs): each fixture CV once, the formats spread over them. */
export const SAMPLE_CVS: readonly { profession: string; fileName: string; format: FixtureFormat }[] = [
  { profession: 'accountant', fileName: 'anna-mueller-accountant.pdf', format: 'pdf' },
  { profession: 'developer', fileName: 'jonas-petersen-developer.docx', format: 'docx' },
  { profession: 'chef', fileName: 'etienne-rousseau-chef.doc', format: 'doc' },
  { profession: 'teacher', fileName: 'sofia-lindqvist-teacher.txt', format: 'txt' },
  { profession: 'nurse', fileName: 'grace-oconnor-nurse.pdf', format: 'pdf' },
];

/** The sample CVs' bytes, as `npm run samples` writes them. */
export async function sampleCvFiles(): Promise<{ fileName: string; bytes: Buffer }[]> {
  return Promise.all(
    SAMPLE_CVS.map(async (sample) => {
      const cv = FIXTURE_CVS.find((c) => c.profession === sample.profession);
      if (!cv) throw new Error(`no fixture CV for ${sample.profession}`);
      return { fileName: sample.fileName, bytes: (await fixtureCvFile(cv.text, sample.format)).bytes };
    }),
  );
}
