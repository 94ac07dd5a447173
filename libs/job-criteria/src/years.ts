import { MAX_YEARS } from './criteria';

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};
const NUMBER = `(?:\\d{1,2}(?:\\.\\d)?|${Object.keys(NUMBER_WORDS).join('|')})`;
/**
 * A number of years: "2 years", "3+ years", "5 or more years", "3-5 years", "two (2) years", "10+
 * yrs". The first number is the minimum.
 */
const YEARS = new RegExp(
  `(?<![\\p{L}\\p{N}.$])(${NUMBER})(?: ?\\(\\d{1,2}\\))?(?: ?\\+| ?(?:-|–|to) ?${NUMBER}| or more| plus)? ?\\+? ?(?:full[- ]time )?(?:years?|yrs?)(?![\\p{L}])`,
  'giu',
);
/** After the years: an age or a time ago, not experience. */
const NOT_EXPERIENCE_AFTER = /^['’]?\s*(?:old|of age|ago|of schooling)\b/i;
/** Before them: a time frame or an upper bound ("within 2 years", "less than 5 years"), not a minimum. */
const NOT_MINIMUM_BEFORE =
  /\b(?:within|in the (?:last|past|next|first)|under|less than|fewer than|up to|no more than|after|every|for the next)\s*$/i;

/** The numbers of years of experience a text states as minimums, in the order written. */
export function yearsStated(text: string): number[] {
  const found: number[] = [];
  // One space between words, so that the pattern's optional spaces cannot be tried in many ways.
  text = text.replace(/\s+/g, ' ');
  for (const m of text.matchAll(YEARS)) {
    const end = m.index + m[0].length;
    if (NOT_EXPERIENCE_AFTER.test(text.slice(end, end + 20))) continue;
    if (NOT_MINIMUM_BEFORE.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
    const written = m[1].toLowerCase();
    const years = NUMBER_WORDS[written] ?? Number(written);
    if (years > 0 && years <= MAX_YEARS) found.push(years);
  }
  return found;
}
