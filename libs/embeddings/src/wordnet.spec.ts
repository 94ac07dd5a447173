import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WordNet } from './wordnet';

/** Lines of a data file, each given its byte offset as its first field, as the WNDB format has it. */
function dataFile(lines: ((offsetOf: (key: string) => string) => [string, string])[]): { text: string; offsets: Map<string, number> } {
  const offsets = new Map<string, number>();
  const header = '  1 This is a tiny WordNet for tests  \n';
  // Every offset is 8 digits, so the lines' lengths do not depend on the offsets they name.
  const pad = (n: number) => String(n).padStart(8, '0');
  let at = header.length;
  const placeholder = (key: string) => (offsets.has(key) ? pad(offsets.get(key) ?? 0) : '00000000');
  for (const line of lines) {
    const [key, text] = line(placeholder);
    offsets.set(key, at);
    at += `${pad(0)}${text}\n`.length;
  }
  const offsetOf = (key: string) => pad(offsets.get(key) ?? 0);
  return {
    text:
      header +
      lines
        .map((line) => line(offsetOf))
        .map(([key, text]) => `${offsetOf(key)}${text}\n`)
        .join(''),
    offsets,
  };
}

describe('WordNet (WNDB files)', () => {
  let dir: string;
  let wordnet: WordNet;
  let offsets: Map<string, number>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wndb-'));
    const nouns = dataFile([
      () => ['produce', ' 13 n 02 produce 0 green_goods 0 000 | fresh fruits and vegetable grown for the market  '],
      (o) => ['crop', ` 13 n 02 crop 0 harvest 0 001 @ ${o('produce')} n 0000 | the yield from plants in a single growing season  `],
      () => ['riding crop', ' 06 n 02 crop 1 riding_crop 0 000 | a short whip  '],
    ]);
    const verbs = dataFile([() => ['grow', ' 30 v 02 grow 0 raise 0 000 | cultivate by growing  ']]);
    const nounOffsets = nouns.offsets;
    const license = '  1 This software and database is being provided to you, the LICENSEE  \n  2 by Princeton University  \n';
    const files: Record<string, string> = {
      'index.noun': `${license}crop n 2 1 @ 2 1 ${nounOffsets.get('crop')} ${nounOffsets.get('riding crop')}  \nharvest n 1 1 @ 1 1 ${nounOffsets.get('crop')}  \nproduce n 1 0 1 0 ${nounOffsets.get('produce')}  \nriding_crop n 1 0 1 0 ${nounOffsets.get('riding crop')}  \n`,
      'index.verb': `${license}grow v 1 0 1 1 ${verbs.offsets.get('grow')}  \nraise v 1 0 1 0 ${verbs.offsets.get('grow')}  \n`,
      'index.adj': license,
      'index.adv': license,
      'data.noun': nouns.text,
      'data.verb': verbs.text,
      'data.adj': '',
      'data.adv': '',
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text, 'latin1');
    offsets = nounOffsets;
    wordnet = await WordNet.load(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds lemmas by bisection, and inflected forms by morphy’s rules', () => {
    expect(wordnet.lemmaOf('crop', 'noun')).toBe('crop');
    expect(wordnet.lemmaOf('crops', 'noun')).toBe('crop');
    expect(wordnet.lemmaOf('grows', 'verb')).toBe('grow');
    expect(wordnet.lemmaOf('growing', 'verb')).toBe('grow');
    expect(wordnet.lemmaOf('grows', 'noun')).toBeNull();
    expect(wordnet.has('harvests')).toBe(true);
    // Before the first lemma, after the last, and the licence lines are no lemmas.
    for (const word of ['aardvark', 'zebra', 'this', 'licensee', '']) expect(wordnet.has(word)).toBe(false);
  });

  it('lists a word’s senses most frequent first, and reads a synset’s words and hypernyms at its offset', () => {
    expect(wordnet.senses('crops', 'noun')).toEqual([offsets.get('crop'), offsets.get('riding crop')]);
    expect(wordnet.synset('noun', offsets.get('crop') ?? 0)).toEqual({
      pos: 'noun',
      words: ['crop', 'harvest'],
      hypernyms: [offsets.get('produce')],
    });
    expect(wordnet.synset('noun', offsets.get('riding crop') ?? 0).words).toEqual(['crop', 'riding_crop']);
    expect(wordnet.synset('verb', wordnet.senses('grow', 'verb')[0])).toEqual({ pos: 'verb', words: ['grow', 'raise'], hypernyms: [] });
  });

  it('lists the single-word lemmas once each', () => {
    expect([...wordnet.lemmas()].sort()).toEqual(['crop', 'grow', 'harvest', 'produce', 'raise']);
  });

  it('reads the shipped WordNet 3.1', async () => {
    const shipped = await WordNet.load();
    expect(shipped.lemmaOf('nurses', 'noun')).toBe('nurse');
    const [first] = shipped.senses('advisor', 'noun');
    expect(shipped.synset('noun', first).words).toContain('consultant');
  });
});
