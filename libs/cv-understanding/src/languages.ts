import type { Section } from './sections';

/** Spoken languages, as they are shown. Latin is left out: no one speaks it, and "Latin America" is a place. */
const LANGUAGES = [
  'English',
  'Spanish',
  'French',
  'German',
  'Italian',
  'Portuguese',
  'Dutch',
  'Flemish',
  'Swedish',
  'Norwegian',
  'Danish',
  'Finnish',
  'Icelandic',
  'Irish',
  'Welsh',
  'Catalan',
  'Basque',
  'Galician',
  'Greek',
  'Russian',
  'Ukrainian',
  'Belarusian',
  'Polish',
  'Czech',
  'Slovak',
  'Slovenian',
  'Hungarian',
  'Romanian',
  'Bulgarian',
  'Macedonian',
  'Serbian',
  'Croatian',
  'Bosnian',
  'Albanian',
  'Estonian',
  'Latvian',
  'Lithuanian',
  'Turkish',
  'Azerbaijani',
  'Armenian',
  'Georgian',
  'Kurdish',
  'Arabic',
  'Hebrew',
  'Yiddish',
  'Persian',
  'Dari',
  'Pashto',
  'Urdu',
  'Hindi',
  'Bengali',
  'Punjabi',
  'Gujarati',
  'Marathi',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Odia',
  'Sindhi',
  'Nepali',
  'Sinhala',
  'Chinese',
  'Mandarin',
  'Cantonese',
  'Taiwanese',
  'Japanese',
  'Korean',
  'Vietnamese',
  'Thai',
  'Khmer',
  'Burmese',
  'Hmong',
  'Tagalog',
  'Filipino',
  'Cebuano',
  'Ilocano',
  'Bisaya',
  'Malay',
  'Indonesian',
  'Mongolian',
  'Swahili',
  'Somali',
  'Amharic',
  'Tigrinya',
  'Yoruba',
  'Igbo',
  'Hausa',
  'Twi',
  'Zulu',
  'Xhosa',
  'Afrikaans',
  'Haitian Creole',
  'Creole',
  'American Sign Language',
  'Sign Language',
] as const;
/** Other names of a language, for one name a filter can ask for. */
const ALIASES: Record<string, string> = { Farsi: 'Persian', Bangla: 'Bengali', ASL: 'American Sign Language' };

const NAMES = [...LANGUAGES, ...Object.keys(ALIASES)].sort((a, b) => b.length - a.length);

const NAME_OF = new Map<string, string>([
  ...LANGUAGES.map((name) => [name.toLowerCase(), name] as const),
  ...Object.entries(ALIASES).map(([alias, name]) => [alias.toLowerCase(), name] as const),
]);
/** A spoken language as the profile writes it, from any of its names, case aside ("farsi" is Persian); null for a name the list lacks. */
export function languageName(name: string): string | null {
  return NAME_OF.get(name.trim().toLowerCase().replace(/\s+/g, ' ')) ?? null;
}
/** A name as CVs write it: capitalised or in capitals ("polish" is the verb, "SPANISH" a heading's language). */
const NAME = `(?:${NAMES.flatMap((n) => [n, n.toUpperCase()])
  .map((n) => n.replace(/ /g, '\\s+'))
  .join('|')})`;
const canonical = (written: string): string => {
  const name = NAMES.find((n) => n.toUpperCase() === written.replace(/\s+/g, ' ').toUpperCase()) ?? written;
  return ALIASES[name] ?? name;
};

const LEVEL =
  '(?:native|fluent|fluency|conversational|basic|intermediate|advanced|proficient|proficiency|elementary|limited|beginner|working\\s+knowledge|mother\\s+tongue|bilingual)';
/**
 * After a language's name, words that make it a people's or a place's ("French cuisine", "Spanish
 * speaking customers", "German engineering company"), not a language someone speaks.
 */
const NOT_LANGUAGE_AFTER = new RegExp(
  `^(?:[- ]?speaking[ \\t]+(?![\\s,;|•.)]|$|and\\b|with\\b|skills?\\b)\\S|[- ]?speakers\\b|[ \\t]+(?:(?:cuisine|food|restaurant|technique|style|wine|pastr(?:y|ie)|bakery|cooking|market|compan(?:y|ie)|government|embass(?:y|ie)|consulate|army|navy|descent|heritage|culture|histor(?:y|ie)|literature|citizen|national|communit(?:y|ie)|population|club|school|student|client|customer|patient|famil(?:y|ie)|department|immersion|quarter|revolution|American|entrepreneur|organi[sz]ation|universit(?:y|ie)|college|institute|academ(?:y|ie)|bistro|cafe|dish|dishe|recipe|cinema|film|art|architecture)s?)\\b)`,
  'iu',
);
/** A list of names: "Spanish, French and Portuguese", "English/Spanish", "Hindi & Tamil (native)". */
const MORE = new RegExp(
  `^(?:[ \\t]*\\([^)\\n]{0,30}\\))?[ \\t]*(?:,[ \\t]*and|,|/|&|;|\\band\\b|\\bor\\b)[ \\t]*(?:${LEVEL}[ \\t]+(?:in[ \\t]+)?)?(${NAME})(?![\\p{L}])`,
  'iu',
);
/** A word that claims the language after it: "Fluent in Spanish", "native Hindi", "reads and writes French". */
const ANCHOR = new RegExp(
  `\\b(?:fluent(?:ly)?|fluency|proficient|proficiency|conversational|bilingual|trilingual|multilingual|native|mother\\s+tongue|speaks?|spoken|speaking|knowledge|literate|read(?:s|ing)?(?:,)?\\s+(?:and\\s+)?writ(?:e|es|ing|ten)|basic|intermediate|advanced)\\b[^.;!?\\n|•]{0,40}?(?<![\\p{L}])(${NAME})(?![\\p{L}])`,
  'giu',
);
/** Teaching or translating a language claims it: "taught Spanish", "translated documents into French". */
const TEACHES = new RegExp(
  `\\b(?:taught|teach(?:es|ing)?|tutor(?:ed|ing|s)?|translat(?:ed|ing|es|e)|interpret(?:ed|ing|s)?)(?:(?:[ \\t]+[\\p{L}-]+){0,2}?[ \\t]+(?:into|from|to|in))?[ \\t]+(${NAME})(?![\\p{L}])`,
  'giu',
);
/** A name before its level or its role: "Spanish (native)", "French: fluent", "Spanish speaker", "Spanish Teacher". */
const AFTER = new RegExp(
  `(?<![\\p{L}])(${NAME})(?=[ \\t]*(?:[(:–-][ \\t]*)?(?:${LEVEL}|speaker\\b|(?:language[ \\t]+)?(?:teacher|instructor|tutor|translator|interpreter)s?\\b))`,
  'giu',
);
/** "Languages: English, Hindi", "Language Known : English & Hindi" (never programming languages). */
const LABEL = new RegExp(
  `(?<!(?:programming|computer|scripting|query|markup|software|coding|development|technical|design|body|assembly|sign)[ \\t]+)\\b(?:languages?(?:[ \\t]+(?:known|spoken|skills?|proficiency))?|spoken[ \\t]+languages?|foreign[ \\t]+languages?)[ \\t]*[:–-][ \\t]*([^\\n•|]{0,160})`,
  'giu',
);
/** Names that are also everyday words ("Polish parts"), which a keyword list of skills may hold as such. */
const ALSO_A_WORD = new Set(['Polish', 'Welsh', 'Georgian']);
/** A name used as an adjective: another word follows it ("German Consulate", "Russian education"), not a list or a level. */
const ADJECTIVE = new RegExp(
  `^[ \\t]+(?!(?:and|or|${LEVEL}|languages?|speakers?|speaking|teachers?|instructors?|tutors?|translators?|interpreters?)\\b)\\p{L}`,
  'iu',
);

/**
 * Whether a language named alone in a skills list was written by the candidate as a skill, rather
 * than taken from the CV's words, as generated keyword lists are: not when every other mention of
 * it is a people's or a place's ("German" beside "the German Consulate").
 */
function listedAsSkill(text: string, name: string, itemAt: number): boolean {
  if (ALSO_A_WORD.has(name)) return false;
  const others = [...text.matchAll(new RegExp(`(?<![\\p{L}])${name}(?![\\p{L}])`, 'gu'))].filter(
    (m) => Math.abs(m.index - itemAt) > name.length,
  );
  return others.length === 0 || others.some((m) => !ADJECTIVE.test(text.slice(m.index + name.length, m.index + name.length + 40)));
}
/** A list item that is a language and at most its level: "Spanish", "Korean (conversational)", "Spanish speaking". */
const NAME_ALONE = new RegExp(
  `^(?:${LEVEL}[ \\t]+(?:in[ \\t]+)?)?(${NAME})(?:[ \\t]*\\([^)\\n]{0,30}\\))?(?:[ \\t]+(?:${LEVEL}|speaking|speaker|language))?$`,
  'iu',
);

/** Capitalised words that end a list of names ("French, Italian and American cuisines"). */
const LIST_TAIL = /^(?:[ \t]*(?:,|&|and\b|or\b)[ \t]*\p{Lu}\p{L}+)+/u;

/**
 * The names at `at` and in the list that goes on from it, with where each was written; none when
 * a word after the list makes them adjectives ("French, Italian and American cuisines").
 */
function listFrom(text: string, first: string, at: number, found: Map<string, number>): void {
  const names: [string, number][] = [[first, at]];
  let end = at + first.length;
  for (let m = MORE.exec(text.slice(end, end + 80)); m; m = MORE.exec(text.slice(end, end + 80))) {
    names.push([m[1], end + m[0].length - m[1].length]);
    end += m[0].length;
  }
  const after = text.slice(end, end + 80);
  const tail = LIST_TAIL.exec(after)?.[0].length ?? 0;
  if (NOT_LANGUAGE_AFTER.test(after) || NOT_LANGUAGE_AFTER.test(after.slice(tail))) return;
  for (const [name, nameAt] of names) add(found, name, nameAt);
}

function add(found: Map<string, number>, written: string, at: number): void {
  // Patterns read their words in any case, but a language's name in lower case is another word ("polish").
  if (!/^\p{Lu}/u.test(written)) return;
  const name = canonical(written);
  found.set(name, Math.min(found.get(name) ?? Infinity, at));
}

/**
 * The spoken languages a CV claims, English included, in the order it first names them: every one
 * in a languages section or after a "Languages:" label; elsewhere only where the CV says it speaks
 * it ("Fluent in Spanish", "Bilingual English/Spanish", "native Hindi speaker", "French (basic)"),
 * teaches or translates it ("Spanish Teacher", "taught Italian"), or lists it alone as a skill.
 * Never a people's or a place's word ("French cuisine", "Spanish-speaking customers"), nor a
 * programming language.
 */
export function languagesOf(text: string, sections: readonly Section[]): string[] {
  return languageMentions(text, sections).map((m) => m.name);
}

/** The languages `languagesOf` reads, each with where the CV first names it. */
export function languageMentions(text: string, sections: readonly Section[]): { name: string; at: number }[] {
  const found = new Map<string, number>();
  const anyName = new RegExp(`(?<![\\p{L}])(${NAME})(?![\\p{L}])`, 'gu');
  for (const section of sections.filter((s) => s.kind === 'languages')) {
    const bodyAt = text.indexOf(section.body, section.start);
    for (const m of section.body.matchAll(anyName)) {
      if (!NOT_LANGUAGE_AFTER.test(section.body.slice(m.index + m[0].length, m.index + m[0].length + 40)))
        add(found, m[1], bodyAt + m.index);
    }
  }
  for (const m of text.matchAll(LABEL)) {
    const listAt = m.index + m[0].length - m[1].length;
    for (const n of m[1].matchAll(anyName)) add(found, n[1], listAt + n.index);
  }
  for (const pattern of [ANCHOR, TEACHES]) {
    for (const m of text.matchAll(pattern)) listFrom(text, m[1], m.index + m[0].length - m[1].length, found);
  }
  for (const m of text.matchAll(AFTER)) add(found, m[1], m.index);
  for (const section of sections.filter((s) => s.kind === 'skills')) {
    const bodyAt = text.indexOf(section.body, section.start);
    for (const item of section.body.matchAll(/[^,;•|*\n]+/g)) {
      const alone = NAME_ALONE.exec(item[0].trim());
      const itemAt = bodyAt + item.index + item[0].indexOf(alone?.[1] ?? '');
      if (alone && (alone[0] !== alone[1] || listedAsSkill(text, alone[1], itemAt))) add(found, alone[1], itemAt);
    }
  }
  return [...found].sort((a, b) => a[1] - b[1]).map(([name, at]) => ({ name, at }));
}
