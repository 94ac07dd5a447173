import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { ACCEPTED_TYPES, bytesMatchType, extractText, insufficientTextReason } from './index';
import {
  FIXTURE_CVS,
  FIXTURE_FORMATS,
  FIXTURE_TYPES,
  SAMPLE_CVS,
  docCv,
  fixtureCvFile,
  pdfCv,
  sampleCvFiles,
  textlessPdf,
} from './testing/fixture-cvs';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('fixture CVs', () => {
  describe.each(FIXTURE_FORMATS)('as %s', (format) => {
    it.each(FIXTURE_CVS.map((cv) => [cv.profession, cv.text]))('%s reads back through extractText with every word', async (_, text) => {
      const { bytes, mime } = await fixtureCvFile(text, format);
      expect(mime).toBe(FIXTURE_TYPES[format]);
      expect(words(await extractText(bytes, mime))).toEqual(words(text));
    });

    it('is what bytesMatchType takes it for, and no other accepted type', async () => {
      const { bytes, mime } = await fixtureCvFile(FIXTURE_CVS[0].text, format);
      for (const type of Object.values(ACCEPTED_TYPES))
        expect({ type, matches: bytesMatchType(bytes, type) }).toEqual({ type, matches: type === mime });
    });

    it('keeps the words outside ASCII', async () => {
      const texts = await Promise.all(
        FIXTURE_CVS.map(async (cv) => {
          const { bytes, mime } = await fixtureCvFile(cv.text, format);
          return extractText(bytes, mime);
        }),
      );
      const all = texts.join('\n');
      for (const word of ['café', 'Zürich', 'naïve', 'Müller', 'Étienne', 'Malmö', '•']) expect(all).toContain(word);
    });

    it('has the same bytes on every call, and other bytes but the same text in another variant', async () => {
      const { text } = FIXTURE_CVS[2];
      const first = await fixtureCvFile(text, format);
      const again = await fixtureCvFile(text, format);
      const variant = await fixtureCvFile(text, format, 1);
      expect(again.bytes.equals(first.bytes)).toBe(true);
      expect(variant.bytes.equals(first.bytes)).toBe(false);
      expect(await extractText(variant.bytes, variant.mime)).toBe(await extractText(first.bytes, first.mime));
    });
  });

  it('reads plain text exactly, and Word paragraphs one a line', async () => {
    const { text } = FIXTURE_CVS[0];
    expect(await extractText((await fixtureCvFile(text, 'txt')).bytes, ACCEPTED_TYPES.text)).toBe(text);
    // word-extractor gives a line per paragraph; cleanText keeps the blank lines between sections.
    expect(await extractText(docCv(text), ACCEPTED_TYPES.doc)).toBe(text);
  });

  it('runs the longest CV onto a second PDF page, read in order', async () => {
    const nurse = FIXTURE_CVS.find((cv) => cv.profession === 'nurse')!;
    const pdf = await pdfCv(nurse.text);
    expect((await PDFDocument.load(pdf)).getPageCount()).toBe(2);
    const text = await extractText(pdf, ACCEPTED_TYPES.pdf);
    expect(text.indexOf('Volunteering')).toBeGreaterThan(text.indexOf('Registered Nurse'));
    expect(words(text)).toEqual(words(nurse.text));
  });

  it('stores .doc text as UTF-16 when a character is outside Windows-1252, and on request', async () => {
    const text = 'Zofia Nowak\nNurse in Łódź and Kraków, café • naïve';
    expect(await extractText(docCv(text), ACCEPTED_TYPES.doc)).toBe(text);
    expect(docCv(text).includes(Buffer.from('Łódź', 'utf16le'))).toBe(true);
    const latin = 'Anna Müller\nZürich';
    expect(docCv(latin).includes(Buffer.from('Zürich', 'latin1'))).toBe(true);
    expect(await extractText(docCv(latin, 0, { utf16: true }), ACCEPTED_TYPES.doc)).toBe(latin);
  });

  it('gives a PDF with a drawing and no text, which holds no text for a CV', async () => {
    const pdf = await textlessPdf();
    expect(bytesMatchType(pdf, ACCEPTED_TYPES.pdf)).toBe(true);
    expect(insufficientTextReason(await extractText(pdf, ACCEPTED_TYPES.pdf))).toMatch(/^No text could be extracted/);
    expect((await textlessPdf(1)).equals(pdf)).toBe(false);
  });
});

describe('the sample CVs the README tour uploads (samples/cvs)', () => {
  const dir = path.resolve(__dirname, '../../../samples/cvs');

  it('are the files npm run samples writes, byte for byte', async () => {
    expect(readdirSync(dir).sort()).toEqual(SAMPLE_CVS.map((s) => s.fileName).sort());
    for (const file of await sampleCvFiles())
      expect({ file: file.fileName, same: readFileSync(path.join(dir, file.fileName)).equals(file.bytes) }).toEqual({
        file: file.fileName,
        same: true,
      });
  });
});
