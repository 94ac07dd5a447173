import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describeWith, testEnvironment } from '@cs/test-services';
import { extractText } from './extract-text';
import { repairMojibake } from './mojibake';

const EVAL = testEnvironment().evalDir ?? '';

describe('repairMojibake', () => {
  it('repairs text decoded as Windows-1252 twice, as the livecareer PDFs hold it', () => {
    // UTF-8 of `—`, `’`, `•`, `®` read as Windows-1252, written as UTF-8, and read so again.
    expect(repairMojibake('department\u00c3\u00a2\u00e2\u201a\u00ac\u00e2\u20acdeveloped')).toBe('department—developed');
    expect(repairMojibake('students\u00c3\u00a2\u00e2\u201a\u00ac\u00e2\u201e\u00a2 needs')).toBe('students’ needs');
    expect(repairMojibake('PowerPoint \u00c3\u00a2\u00e2\u201a\u00ac\u00c2\u00a2Advanced')).toBe('PowerPoint •Advanced');
    expect(repairMojibake('Zumba\u00c3\u201a\u00c2\u00ae Fitness')).toBe('Zumba® Fitness');
    expect(repairMojibake('caf\u00c3\u0192\u00c2\u00a9')).toBe('café');
  });

  it('mends sequences whose last byte a PDF dropped, by their context', () => {
    expect(repairMojibake('the “Orientationâ€ groups, “Yes We Canâ€.')).toBe('the “Orientation” groups, “Yes We Can”.');
    expect(repairMojibake('SKILLS â— Budgets â— Payroll')).toBe('SKILLS ● Budgets ● Payroll');
    expect(repairMojibake('skills â– Marketing')).toBe('skills ■ Marketing');
    expect(repairMojibake('ï¬lm')).toBe('\ufb01lm');
    expect(repairMojibake('Nuestras RaÃces, la compañÃa, TÃtulo, biologÃa')).toBe('Nuestras Raíces, la compañía, Título, biología');
    expect(repairMojibake('inÂhouse, studentÂathletes, a 16Â10 record')).toBe('in-house, student-athletes, a 16-10 record');
  });

  it('leaves correct text alone, capitals with Ã and Â included', () => {
    const text = 'Âge: São Paulo, SÃO PAULO, JOÃO, CÂMARA, Zürich — naïve café ½, “quoted” – ok';
    expect(repairMojibake(text)).toBe(text);
  });
});

describeWith(['eval'])('repairMojibake on the evaluation set', () => {
  // One PDF for each form found in the corpus: double encoding, dropped last bytes, lone Ã and Â.
  const SAMPLES = [
    'FINANCE/25101183',
    'FITNESS/12695799',
    'TEACHER/58105060',
    'CHEF/33964275',
    'DIGITAL-MEDIA/91539554',
    'DIGITAL-MEDIA/17562754',
    'ACCOUNTANT/14470533',
  ];
  it('leaves none of them in the text of livecareer PDFs that hold each form', async () => {
    for (const sample of SAMPLES) {
      const file = path.join(EVAL, 'livecareer/pdf', `${sample}.pdf`);
      if (!existsSync(file)) throw new Error(`sample ${sample} is missing from ${EVAL}`);
      const text = await extractText(readFileSync(file), 'application/pdf');
      expect({ sample, mojibake: text.match(/.{0,12}(?:â€|â—|â–|Ã[¢‚ƒa-z]|[a-z]Ã|[a-z]Â[a-z]|ï¬|ï¼).{0,12}/g) }).toEqual({
        sample,
        mojibake: null,
      });
    }
  });
});
