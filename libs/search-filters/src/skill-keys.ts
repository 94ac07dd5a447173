import { SKILLS, SKILL_SYNONYMS } from '@cs/text-analysis';

/** Lower case, single spaces: how names are compared before the vocabulary maps them. */
export const foldName = (name: string): string => name.trim().toLowerCase().replace(/\s+/g, ' ');

/** Every written form of a skill the vocabulary knows, to its one key: `k8s` and `Kubernetes` are `kubernetes`. */
const KEY_OF = new Map<string, string>();
for (const [key, variants] of Object.entries(SKILL_SYNONYMS)) {
  KEY_OF.set(foldName(key), key);
  for (const variant of variants) KEY_OF.set(foldName(variant), key);
}
for (const skill of SKILLS) if (!KEY_OF.has(foldName(skill))) KEY_OF.set(foldName(skill), foldName(skill));

/**
 * The vocabulary key of a skill as a CV or a filter writes it, matched case-insensitively through
 * the synonyms at both ends; null for a skill the vocabulary does not know.
 */
export function skillKey(name: string): string | null {
  return KEY_OF.get(foldName(name)) ?? null;
}

/** Each key's name as the vocabulary writes it ("kubernetes" is Kubernetes, "ml" Machine Learning). */
const NAME_OF = new Map<string, string>();
for (const skill of SKILLS) {
  const key = KEY_OF.get(foldName(skill))!;
  if (!NAME_OF.has(key)) NAME_OF.set(key, skill);
}

/** A skill key as people read it: the vocabulary's name for it, else the key itself. */
export const skillName = (key: string): string => NAME_OF.get(key) ?? key;
