import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describeWith, testEnvironment } from '@cs/test-services';
import { ACCEPTED_TYPES, ParseLimitError, UnreadableFileError, cleanText, extractText, type AcceptedType, type ParseLimit } from './index';
import { docLoopBomb, docTableBomb, docxBomb, docxOfManyParts, pdfFlateBomb, pdfNestingBomb, pdfPageBomb } from './testing/bombs';
import { FIXTURE_CVS, docCv, docxCv, pdfCv } from './testing/fixture-cvs';

const EVAL = testEnvironment().evalDir ?? '';

const MB = 1024 * 1024;

/**
 * Extracts the file, expecting refusal for `limit`; returns the peak growth of RSS seen (and the
 * time taken, which the bench and the hostile suite report: tests check behaviour, not timings).
 */
async function expectRefused(
  bytes: Buffer,
  mime: AcceptedType,
  limit: ParseLimit,
  message: RegExp,
): Promise<{ ms: number; rssGrowthMb: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const started = performance.now();
  try {
    const refusal = await extractText(bytes, mime).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ParseLimitError);
    expect(refusal).toMatchObject({ limit, message: expect.stringMatching(message) });
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms: performance.now() - started, rssGrowthMb: (peak - before) / MB };
}

describe('parse bounds: hostile files are refused while unpacking, in bounded time and memory', () => {
  const docx = ACCEPTED_TYPES.docx;
  const pdf = ACCEPTED_TYPES.pdf;
  const doc = ACCEPTED_TYPES.doc;

  it('refuses a 1.6 MB DOCX whose document.xml inflates to 1.5 GB at the 32 MB part bound', async () => {
    const bomb = docxBomb();
    expect(bomb.length).toBeLessThan(2 * MB);
    const cost = await expectRefused(bomb, docx, 'unpacked-size', /^A part of the file expands to more than 32 MB when unpacked/);
    expect(cost.rssGrowthMb).toBeLessThan(200);
  });

  it('inflates to the bound whatever size the zip declares', async () => {
    await expectRefused(docxBomb(0, { inflatedMb: 100, declaredSize: 1000 }), docx, 'unpacked-size', /32 MB/);
  });

  it('refuses parts that pass one by one but unpack to more than 64 MB together', async () => {
    const cost = await expectRefused(
      docxBomb(0, { inflatedMb: 30, extraParts: 3 }),
      docx,
      'unpacked-size',
      /^The file expands to more than 64 MB when unpacked; a CV is far smaller$/,
    );
    expect(cost.rssGrowthMb).toBeLessThan(200);
  });

  it('refuses a zip directory of more than 2,000 entries', async () => {
    await expectRefused(docxOfManyParts(2_001), docx, 'zip-entries', /more than 2000 parts/);
  });

  it('refuses a 1 MB PDF with a 1 GB FlateDecode stream at the 64 MB stream bound, before pdf.js sees it', async () => {
    const bomb = pdfFlateBomb();
    expect(bomb.length).toBeLessThan(2 * MB);
    const cost = await expectRefused(bomb, pdf, 'pdf-stream-size', /^A stream in the PDF decodes to more than 64 MB/);
    expect(cost.rssGrowthMb).toBeLessThan(200);
  });

  it('follows filter chains: Flate inside Flate, Flate inside ASCIIHex', async () => {
    const doubled = pdfFlateBomb(0, { chain: 'flate-flate' });
    expect(doubled.length).toBeLessThan(100 * 1024);
    expect((await expectRefused(doubled, pdf, 'pdf-stream-size', /64 MB/)).rssGrowthMb).toBeLessThan(200);
    await expectRefused(pdfFlateBomb(0, { chain: 'hex-flate' }), pdf, 'pdf-stream-size', /64 MB/);
  });

  it('refuses streams that pass one by one but decode to more than 256 MB together', async () => {
    const cost = await expectRefused(pdfFlateBomb(0, { decodedMb: 60, streams: 5 }), pdf, 'pdf-decoded-size', /more than 256 MB in all/);
    expect(cost.rssGrowthMb).toBeLessThan(200);
  });

  it('refuses a valid PDF of 30,000 tiny pages without reading its pages', async () => {
    const bomb = pdfPageBomb();
    expect(bomb.length).toBeLessThan(10 * MB);
    const cost = await expectRefused(bomb, pdf, 'pdf-pages', /^The PDF has 30000 pages, more than the 500/);
    expect(cost.rssGrowthMb).toBeLessThan(200);
  });

  it('refuses a PDF nesting arrays 100,000 deep', async () => {
    await expectRefused(pdfNestingBomb(), pdf, 'pdf-nesting', /more than 256 levels deep/);
  });

  it('refuses a .doc whose header claims a 2 GB sector table, and one whose sector chain loops', async () => {
    for (const bomb of [docTableBomb(), docLoopBomb()]) {
      const cost = await expectRefused(bomb, doc, 'sector-chain', /sector chain in the file loops or runs past the end/);
      expect(cost.rssGrowthMb).toBeLessThan(50);
    }
  });

  it('refuses more than 1,000,000 characters of text', async () => {
    await expectRefused(Buffer.from('word '.repeat(200_001)), ACCEPTED_TYPES.text, 'text-length', /more than 1,000,000 characters/);
  });

  it('still reports a damaged zip as unreadable, not as past a bound', async () => {
    const truncated = docxBomb(0, { inflatedMb: 1 }).subarray(0, 2_000);
    await expect(extractText(truncated, docx)).rejects.toBeInstanceOf(UnreadableFileError);
  });
});

/** How the PDF path read a file before the bounds: unpdf's extractText, all pages at once. */
async function unboundedPdfText(bytes: Buffer): Promise<string> {
  const { getDocumentProxy, extractText: unpdfText } = await import('unpdf');
  const document = await getDocumentProxy(new Uint8Array(bytes));
  try {
    return cleanText((await unpdfText(document, { mergePages: false })).text.join('\n\n'));
  } finally {
    await document.destroy();
  }
}

/** How the DOCX path read a file before the bounds: mammoth alone, whitespace aside. */
async function unboundedDocxWords(bytes: Buffer): Promise<string> {
  const mammoth = await import('mammoth');
  return squeeze(cleanText((await mammoth.extractRawText({ buffer: bytes })).value));
}
const squeeze = (text: string) => text.replace(/\s+/g, '');

describe('parse bounds leave CVs as they were', () => {
  it('reads the fixture CVs as PDF exactly as before, and as DOCX with the same words as mammoth alone', async () => {
    for (const { profession, text } of FIXTURE_CVS) {
      const pdf = await pdfCv(text);
      expect({ profession, text: await extractText(pdf, ACCEPTED_TYPES.pdf) }).toEqual({ profession, text: await unboundedPdfText(pdf) });
      const docx = docxCv(text);
      expect({ profession, text: squeeze(await extractText(docx, ACCEPTED_TYPES.docx)) }).toEqual({
        profession,
        text: await unboundedDocxWords(docx),
      });
    }
  });

  it('reads the fixture CVs as .doc exactly as word-extractor alone does', async () => {
    const { default: WordExtractor } = await import('word-extractor');
    for (const { profession, text } of FIXTURE_CVS) {
      const doc = docCv(text);
      const unbounded = cleanText((await new WordExtractor().extract(doc)).getBody());
      expect({ profession, text: await extractText(doc, ACCEPTED_TYPES.doc) }).toEqual({ profession, text: unbounded });
    }
  });
});

describeWith(['eval'])('parse bounds leave the real CVs of the evaluation set as they were', () => {
  it('reads a sample of the livecareer PDFs exactly as before (the first 3 of each category)', async () => {
    const root = path.join(EVAL, 'livecareer/pdf');
    const files = readdirSync(root).flatMap((category) =>
      readdirSync(path.join(root, category))
        .sort()
        .slice(0, 3)
        .map((file) => path.join(root, category, file)),
    );
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect({ file, text: await extractText(bytes, ACCEPTED_TYPES.pdf) }).toEqual({ file, text: await unboundedPdfText(bytes) });
    }
  }, 120_000);

  it('reads every DOCX CV of the evaluation set with the same words as mammoth alone, apart from whitespace', async () => {
    const dir = path.join(EVAL, 'docx-cvs');
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.docx'))) {
      const bytes = readFileSync(path.join(dir, file));
      expect({ file, text: squeeze(await extractText(bytes, ACCEPTED_TYPES.docx)) }).toEqual({
        file,
        text: await unboundedDocxWords(bytes),
      });
    }
  }, 60_000);
});
