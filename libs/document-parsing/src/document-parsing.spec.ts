import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describeWith, testEnvironment } from '@cs/test-services';
import { ACCEPTED_TYPES, UnreadableFileError, bytesMatchType, extractText, insufficientTextReason } from './index';
import { repairMojibake } from './mojibake';
import { FIXTURE_CVS, docCv, docxCv, pdfCv, textlessPdf } from './testing/fixture-cvs';

const EVAL = testEnvironment().evalDir ?? '';
const cv = (profession: string) => FIXTURE_CVS.find((c) => c.profession === profession)!.text;

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
  it('reads a PDF CV', async () => {
    const text = await extractText(await pdfCv(cv('accountant')), ACCEPTED_TYPES.pdf);
    expect(text.startsWith('Anna Müller\nSenior Accountant\nZürich, Switzerland')).toBe(true);
    expect(text).toContain('general ledger reconciliations');
    expect(insufficientTextReason(text)).toBeNull();
  });

  it('finds no text in the PDF that has none', async () => {
    const text = await extractText(await textlessPdf(), ACCEPTED_TYPES.pdf);
    expect(insufficientTextReason(text)).toMatch(/^No text could be extracted/);
  });

  it('tells a short text from no text', () => {
    expect(insufficientTextReason('Jane Doe\nPython developer with SQL')).toBe(
      'The file holds too little text for a CV: 29 letters, at least 50 are needed',
    );
    expect(insufficientTextReason('12 34 --')).toMatch(/^No text could be extracted/);
  });

  it('reads a DOCX CV', async () => {
    const text = await extractText(docxCv(cv('developer')), ACCEPTED_TYPES.docx);
    expect(text).toContain('Backend developer building TypeScript and Go services on Kubernetes');
    expect(text).toContain('naïve polling loop');
  });

  it('reads a Word 97-2003 .doc CV', async () => {
    const text = await extractText(docCv(cv('chef')), ACCEPTED_TYPES.doc);
    expect(text).toContain('Head Chef, Café des Célestins, Lyon, 2018 to 2024\n• Wrote four seasonal menus');
  });

  it('reports a corrupt PDF as unreadable', async () => {
    await expect(extractText(Buffer.from('%PDF-1.4\nthis is not a pdf body'), ACCEPTED_TYPES.pdf)).rejects.toBeInstanceOf(
      UnreadableFileError,
    );
    const pdf = await pdfCv(cv('teacher'));
    await expect(extractText(pdf.subarray(0, pdf.length / 2), ACCEPTED_TYPES.pdf)).rejects.toBeInstanceOf(UnreadableFileError);
  });

  it('reports a corrupt DOCX as unreadable', async () => {
    await expect(extractText(Buffer.from('PK\u0003\u0004word/ broken'), ACCEPTED_TYPES.docx)).rejects.toBeInstanceOf(UnreadableFileError);
    const docx = docxCv(cv('teacher'));
    await expect(extractText(docx.subarray(0, docx.length - 100), ACCEPTED_TYPES.docx)).rejects.toBeInstanceOf(UnreadableFileError);
  });

  it('reports a truncated .doc as unreadable', async () => {
    const doc = docCv(cv('teacher'));
    await expect(extractText(doc.subarray(0, doc.length - 600), ACCEPTED_TYPES.doc)).rejects.toBeInstanceOf(UnreadableFileError);
  });
});

describeWith(['eval'])('extractText on the evaluation set', () => {
  it('reads a livecareer PDF CV', async () => {
    const text = await extractText(readFileSync(path.join(EVAL, 'livecareer/pdf/ACCOUNTANT/10554236.pdf')), ACCEPTED_TYPES.pdf);
    expect(text.startsWith('ACCOUNTANT\nSummary')).toBe(true);
    expect(text).toContain('Account reconciliations');
    expect(insufficientTextReason(text)).toBeNull();
  });

  it('finds no text in the livecareer PDF that is a scan', async () => {
    const text = await extractText(readFileSync(path.join(EVAL, 'livecareer/pdf/BUSINESS-DEVELOPMENT/12632728.pdf')), ACCEPTED_TYPES.pdf);
    expect(insufficientTextReason(text)).toMatch(/^No text could be extracted/);
  });

  it('reads a DOCX CV of the evaluation set', async () => {
    const text = await extractText(readFileSync(path.join(EVAL, 'docx-cvs/1.docx')), ACCEPTED_TYPES.docx);
    expect(text).toContain('Java full stack developer');
  });

  it('leaves no mojibake in the text of real livecareer PDFs', async () => {
    const dir = path.join(EVAL, 'livecareer/pdf/ACCOUNTANT');
    for (const file of readdirSync(dir).slice(0, 15)) {
      const text = await extractText(readFileSync(path.join(dir, file)), 'application/pdf');
      expect(text).not.toMatch(/ï¼|ï1⁄4|â€|Â /);
    }
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
});
