import { chunkText } from './chunker';

describe('chunkText', () => {
  it('covers every word with overlapping windows whose offsets point back into the text', () => {
    const text = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' \n ');
    const chunks = chunkText(text, 100, 20);
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    for (const c of chunks) expect(text.slice(c.start, c.end)).toBe(c.text);
    expect(chunks[0].text.startsWith('word0 ')).toBe(true);
    expect(chunks[1].text.startsWith('word80 ')).toBe(true);
    expect(chunks.at(-1)?.text.endsWith('word299')).toBe(true);
  });

  it('never lets a passage cross a section boundary', () => {
    const text = 'Summary\nAccountant for ten years.\nExperience\nAcme: ledgers, payroll and audits.';
    const boundary = text.indexOf('Experience');
    const chunks = chunkText(text, 100, 20, [boundary]);
    expect(chunks.map((c) => c.text)).toEqual(['Summary\nAccountant for ten years.', 'Experience\nAcme: ledgers, payroll and audits.']);
  });

  it('gives no chunk for blank text', () => {
    expect(chunkText('  \n ')).toEqual([]);
  });
});
