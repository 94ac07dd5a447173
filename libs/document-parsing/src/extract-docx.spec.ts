import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { describeWith, testEnvironment } from '@cs/test-services';
import { ACCEPTED_TYPES, cleanText, extractText } from './index';
import { keepBreaks } from './extract-docx';
import { docxWithBreaks } from './testing/bombs';
import { readZipParts } from './zip-parts';

const DOCX_CVS = path.join(testEnvironment().evalDir ?? '', 'docx-cvs');

describe('DOCX line breaks, carriage returns and tabs', () => {
  it('keep the words either side apart', async () => {
    expect(await extractText(docxWithBreaks(), ACCEPTED_TYPES.docx)).toBe(
      'Jane Doe\n\nSenior Engineer\nAcme Technologies\nBerlin\n\nSkills TypeScript\nPostgreSQL\n\nWorked independently\nPassionate about testing',
    );
  });

  it('become text runs that mammoth keeps, and only they change', () => {
    expect(keepBreaks('<w:r><w:t>a</w:t><w:br/><w:br w:type="page"/><w:cr/><w:br></w:br><w:ptab w:relativeTo="margin"/></w:r>')).toBe(
      '<w:r><w:t>a</w:t>' + '<w:t xml:space="preserve">\n</w:t>'.repeat(4) + '<w:tab/></w:r>',
    );
    const untouched = '<w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr><w:bookmarkStart w:id="0"/>';
    expect(keepBreaks(untouched)).toBe(untouched);
  });
});

/**
 * The places where a break stands between two letters in a CV's document.xml, as the words
 * either side would read glued together ("Technologies" + "MCB" -> "TechnologiesMCB").
 */
function gluedAtBreaks(documentXml: string): string[] {
  const glued: string[] = [];
  for (const paragraph of documentXml.split('</w:p>')) {
    const pieces = paragraph.split(/<w:(?:br|cr)\b[^>]*\/>/);
    for (let i = 1; i < pieces.length; i++) {
      const before = [...pieces[i - 1].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
      const after = [...pieces[i].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');
      const last = /(\p{L}+)$/u.exec(before)?.[1];
      const first = /^(\p{L}+)/u.exec(after)?.[1];
      if (last && first) glued.push(last + first);
    }
  }
  return glued;
}

describeWith(['eval'])('DOCX line breaks in the real CVs of the evaluation set', () => {
  it('leave no words glued where mammoth alone glued them in most CVs', async () => {
    const mammoth = await import('mammoth');
    const files = readdirSync(DOCX_CVS).filter((name) => name.endsWith('.docx'));
    let gluedBefore = 0;
    let filesWithFiveBefore = 0;
    let gluedAfter = 0;
    for (const file of files) {
      const bytes = readFileSync(path.join(DOCX_CVS, file));
      const places = gluedAtBreaks(
        readZipParts(bytes, (name) => name === 'word/document.xml')
          .get('word/document.xml')
          ?.toString('utf8') ?? '',
      );
      const before = cleanText((await mammoth.extractRawText({ buffer: bytes })).value);
      const after = await extractText(bytes, ACCEPTED_TYPES.docx);
      const countIn = (text: string) => places.filter((word) => text.includes(word)).length;
      const gluedHere = countIn(before);
      gluedBefore += gluedHere;
      if (gluedHere >= 5) filesWithFiveBefore++;
      // A glued form may also stand elsewhere as a word ("Java" + "Script"): after counts only forms that were there once, glued.
      gluedAfter += places.filter(
        (word) => before.includes(word) && after.includes(word) && !before.replace(word, '').includes(word),
      ).length;
    }
    console.log(
      `docx-cvs: ${files.length} files, ${filesWithFiveBefore} with 5+ glued places before; glued places ${gluedBefore} before, ${gluedAfter} after`,
    );
    expect(files.length).toBeGreaterThan(50);
    expect(filesWithFiveBefore).toBeGreaterThan(40);
    expect(gluedAfter).toBe(0);
  }, 60_000);
});
