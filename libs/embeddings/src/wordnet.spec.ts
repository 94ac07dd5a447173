import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WordNet } from './wordnet';

describe('WordNet (WNDB files)', () => {
  let dir: string;
  let wordnet: WordNet;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wndb-'));
    const license = '  1 This software and database is being provided to you, the LICENSEE  \n  2 by Princeton University  \n';
    const files: Record<string, string> = {
      // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
      'index.noun': `${license}crop n 2 1 @ 2 1 00000120 00000260  \nharvest n 1 1 @ 1 1 00000120  \nproduce n 1 0 1 0 00000038  \nriding_crop n 1 0 1 0 00000260  \n`,
      'index.verb': `${license}grow v 1 0 1 1 00000038  \nraise v 1 0 1 0 00000038  \n`,
      'index.adj': license,
      'index.adv': license,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text, 'latin1');
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

  it('lists the single-word lemmas once each', () => {
    expect([...wordnet.lemmas()].sort()).toEqual(['crop', 'grow', 'harvest', 'produce', 'raise']);
  });

  it('reads the shipped WordNet 3.1', async () => {
    const shipped = await WordNet.load();
    expect(shipped.lemmaOf('nurses', 'noun')).toBe('nurse');
    expect(shipped.has('consultant')).toBe(true);
  });
});
