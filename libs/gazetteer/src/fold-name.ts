/** Letters that Unicode decomposition leaves whole but that people type in ASCII ("Gießen", "Giessen"). */
const SPELLED: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ı: 'i', þ: 'th', ð: 'd' };
/** Abbreviations place names are written with either way ("St. Louis", "Saint Louis"). */
const ABBREVIATIONS = new Map([
  ['st', 'saint'],
  ['ste', 'sainte'],
  ['ft', 'fort'],
  ['mt', 'mount'],
]);

/**
 * A place name as the gazetteer's maps key it: accents folded ("Zürich" is "zurich"), lower case,
 * punctuation as spaces ("U.S." is "u s"), a leading "the" dropped ("The Hague"), and St, Ft and
 * Mt spelled out. Names and what is looked up are folded alike.
 */
export function foldName(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđıþð]/g, (c) => SPELLED[c])
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  if (words.length > 1 && words[0] === 'the') words.shift();
  return words.map((w) => ABBREVIATIONS.get(w) ?? w).join(' ');
}

/** A code as written ("TX", "N.Y.", "gb"), upper case without dots; null when the text is no code of one to three letters or digits. */
export function codeOf(text: string): string | null {
  const code = text.replace(/[.\s]/g, '').toUpperCase();
  return /^[A-Z0-9]{1,3}$/.test(code) ? code : null;
}
