import * as path from 'node:path';
import { loadWordVectors } from './glove-cache';
import { TypoCorrector, editDistance } from './typo-corrector';
import { WordNet } from './wordnet';

const CACHE = path.resolve(__dirname, '../../../node_modules/.cache/candidate-search/embeddings');

describe('editDistance (Damerau-Levenshtein, optimal string alignment)', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours, and stops past the limit', () => {
    expect(editDistance('ledger', 'ledger', 2)).toBe(0);
    expect(editDistance('genral', 'general', 2)).toBe(1);
    expect(editDistance('pateint', 'patient', 2)).toBe(1);
    expect(editDistance('pateint', 'patent', 2)).toBe(1);
    expect(editDistance('hospitel', 'hospital', 2)).toBe(1);
    expect(editDistance('acountantt', 'accountant', 2)).toBe(2);
    expect(editDistance('kitchen', 'chicken', 1)).toBe(2); // over the limit: limit + 1
    expect(editDistance('ab', 'abcdef', 2)).toBe(3);
  });
});

describe('TypoCorrector (GloVe vocabulary, WordNet 3.1 and the skills lexicon)', () => {
  let corrector: TypoCorrector;
  beforeAll(async () => {
    corrector = new TypoCorrector(await loadWordVectors(CACHE), await WordNet.load());
  }, 120_000);

  it('reads a misspelt word as the most frequent real word fewest edits away', () => {
    const typos = {
      acountant: 'accountant',
      genral: 'general',
      resturant: 'restaurant',
      pateint: 'patient', // not the rarer `patent`, as near
      hospitel: 'hospital',
      custmers: 'customers',
      acountantt: 'accountant', // two edits in a long word
      // Typos the vectors' corpus has too, so that they have vectors of their own, but rare ones.
      jurnal: 'journal',
      adminstrator: 'administrator',
      recieve: 'receive',
    };
    for (const [typo, word] of Object.entries(typos)) expect({ typo, read: corrector.nearest(typo) }).toEqual({ typo, read: word });
  });

  it('reads the same once its index is built ahead of use', async () => {
    const warmed = new TypoCorrector(await loadWordVectors(CACHE), await WordNet.load());
    await warmed.warm();
    expect(['genral', 'pateint', 'golang'].map((w) => warmed.nearest(w))).toEqual(['general', 'patient', null]);
  });

  it('leaves real words, skills’ names, short words and unknown names alone', () => {
    for (const word of ['reconciles', 'ledger', 'golang', 'rabbitmq', 'hris', 'ansible', 'quickbooks', 'teh', 'kubernetes', 'pytorch'])
      expect({ word, read: corrector.nearest(word) }).toEqual({ word, read: null });
    expect(corrector.isWord('reconciliations')).toBe(true);
    expect(corrector.isWord('jurnal')).toBe(false);
  });
});
