import { existsSync, readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { ACCEPTED_TYPES, UnreadableFileError, bytesMatchType, extractText, insufficientTextReason } from './index';
import { repairMojibake } from './mojibake';

const EVAL = path.resolve(__dirname, '../../../../shared/eval');
const haveEval = existsSync(EVAL);
const withEval = haveEval ? it : it.skip;
if (!haveEval) console.log(`document-parsing: ../shared/eval not found at ${EVAL}; real-file cases skipped`);

describe('bytesMatchType', () => {
  it('tells the declared type from the bytes', () => {
    expect(bytesMatchType(Buffer.from('%PDF-1.7\n...'), ACCEPTED_TYPES.pdf)).toBe(true);
    expect(bytesMatchType(Buffer.from('%PDF-1.7\n...'), ACCEPTED_TYPES.docx)).toBe(false);
    expect(bytesMatchType(Buffer.from('plain words'), ACCEPTED_TYPES.pdf)).toBe(false);
    expect(bytesMatchType(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]), ACCEPTED_TYPES.doc)).toBe(true);
    expect(bytesMatchType(Buffer.from('héllo wörld'), ACCEPTED_TYPES.text)).toBe(true);
    expect(bytesMatchType(Buffer.from([0x68, 0x00, 0x69]), ACCEPTED_TYPES.text)).toBe(false);
    expect(bytesMatchType(Buffer.from([0xff, 0xfe, 0xc3]), ACCEPTED_TYPES.text)).toBe(false);
  });
});

describe('extractText', () => {
  withEval('reads a real PDF CV', async () => {
    const text = await extractText(readFileSync(path.join(EVAL, 'livecareer/pdf/ACCOUNTANT/10554236.pdf')), ACCEPTED_TYPES.pdf);
    expect(text.startsWith('ACCOUNTANT\nSummary')).toBe(true);
    expect(text).toContain('Account reconciliations');
    expect(insufficientTextReason(text)).toBeNull();
  });

  withEval('finds no text in the PDF that has none', async () => {
    const text = await extractText(readFileSync(path.join(EVAL, 'livecareer/pdf/BUSINESS-DEVELOPMENT/12632728.pdf')), ACCEPTED_TYPES.pdf);
    expect(insufficientTextReason(text)).toMatch(/^No text could be extracted/);
  });

  it('tells a short text from no text', () => {
    expect(insufficientTextReason('Jane Doe\nPython developer with SQL')).toBe(
      'The file holds too little text for a CV: 29 letters, at least 50 are needed',
    );
    expect(insufficientTextReason('12 34 --')).toMatch(/^No text could be extracted/);
  });

  withEval('reads a real DOCX CV', async () => {
    const text = await extractText(readFileSync(path.join(EVAL, 'docx-cvs/1.docx')), ACCEPTED_TYPES.docx);
    expect(text).toContain('Java full stack developer');
  });

  it('reports a corrupt PDF as unreadable', async () => {
    await expect(extractText(Buffer.from('%PDF-1.4\nthis is not a pdf body'), ACCEPTED_TYPES.pdf)).rejects.toBeInstanceOf(
      UnreadableFileError,
    );
  });

  it('reports a corrupt DOCX as unreadable', async () => {
    await expect(extractText(Buffer.from('PK\u0003\u0004word/ broken'), ACCEPTED_TYPES.docx)).rejects.toBeInstanceOf(UnreadableFileError);
  });
});

describe('repairMojibake', () => {
  it('re-decodes UTF-8 read as Windows-1252 and mends the truncated forms PDFs leave', () => {
    expect(repairMojibake('2010 â€“ 2012, cafÃ©, â€œquotedâ€\u009d')).toBe('2010 – 2012, café, “quoted”');
    expect(repairMojibake('Company Name ï¼ City')).toBe('Company Name : City');
    expect(repairMojibake('reports.Â \nin\u00c2 aspect')).toBe('reports. \nin aspect');
  });

  it('leaves correct text alone', () => {
    const text = 'Âge: São Paulo, Zürich — naïve café ½';
    expect(repairMojibake(text)).toBe(text);
  });

  withEval('leaves no mojibake in the text of real livecareer PDFs', async () => {
    const dir = path.join(EVAL, 'livecareer/pdf/ACCOUNTANT');
    for (const file of readdirSync(dir).slice(0, 15)) {
      const text = await extractText(readFileSync(path.join(dir, file)), 'application/pdf');
      expect(text).not.toMatch(/ï¼|ï1⁄4|â€|Â /);
    }
  });
});
