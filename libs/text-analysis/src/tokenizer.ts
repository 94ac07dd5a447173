/** A token with its place in the original text (UTF-16 offsets). */
export interface Token {
  /** Lowercased surface form. */
  text: string;
  start: number;
  end: number;
}

/** One part of a token: a letter or digit, then letters, digits and underscores, then `+`/`#` (c++, c#) unless a letter or digit follows them. */
const PART = '[\\p{L}\\p{N}][\\p{L}\\p{N}_]*(?:[+#]+(?![\\p{L}\\p{N}]))?';

/**
 * Words, numbers and the technical spellings CVs are full of: `c++`, `c#`, `.net`, `node.js`,
 * `asp.net`, `ci/cd`. A dot or slash joins two parts only when letters or digits follow it, so a
 * full stop never sticks to a word.
 */
export const TOKEN_PATTERN = new RegExp(`\\.?${PART}(?:[./]${PART})*`, 'gu');

/** A leading dot is kept only for `.net`-style names: a dot and two to four letters, alone. */
const DOTTED_NAME = /^\.[a-z]{2,4}$/;

/** Slash compounds kept whole; other slashes split (`sales/marketing` is two words). */
export const SLASH_COMPOUNDS: ReadonlySet<string> = new Set([
  'ci/cd',
  'tcp/ip',
  'pl/sql',
  'i/o',
  'ui/ux',
  'a/b',
  'a/r',
  'a/p',
  'b2b/b2c',
  'r&d',
  'p&l',
]);

/**
 * `tokenize`'s tokens (before lowercasing) as the matches of one regular expression, for engines
 * that tokenize by a pattern (Elasticsearch's `pattern` tokenizer): where `tokenize` matches
 * `TOKEN_PATTERN`, drops a leading dot and splits slashes afterwards, this pattern matches the
 * pieces directly. A slash compound counts only where `TOKEN_PATTERN`'s match would be just it
 * (not after a joining slash, not before more parts); a dotted name only where the match would
 * end with it. Written in the syntax JavaScript (flag u) and Java's regular expressions share.
 */
export function onePassTokenPattern(): string {
  const letters = (word: string) =>
    // eslint-disable-next-line @typescript-eslint/no-misused-spread -- the words are the ASCII names of a fixed list
    [...word].map((c) => (/[a-z]/.test(c) ? `[${c}${c.toUpperCase()}]` : c.replace(/[.+#]/, '\\$&'))).join('');
  const whole = new RegExp(`^${TOKEN_PATTERN.source}$`, 'u');
  const compounds = [...SLASH_COMPOUNDS]
    .filter((c) => c.includes('/') && whole.test(c))
    .sort((a, b) => b.length - a.length || a.localeCompare(b));
  // Where TOKEN_PATTERN's match cannot go on: no more word characters, suffix, or joined part.
  const ends = '(?![\\p{L}\\p{N}_]|[+#]+(?![\\p{L}\\p{N}])|[./][\\p{L}\\p{N}])';
  // A slash that follows a part joins what comes after it to that part.
  const notJoined = '(?<![\\p{L}\\p{N}_+#]/)';
  return [`${notJoined}(?:${compounds.map(letters).join('|')})${ends}`, `\\.[a-zA-Z]{2,4}${ends}`, `${PART}(?:\\.${PART})*`].join('|');
}

export function* splitSlash(token: Token): Generator<Token> {
  if (!token.text.includes('/') || SLASH_COMPOUNDS.has(token.text)) {
    yield token;
    return;
  }
  let offset = 0;
  for (const part of token.text.split('/')) {
    if (part) yield { text: part, start: token.start + offset, end: token.start + offset + part.length };
    offset += part.length + 1;
  }
}

export function tokenize(text: string): Token[] {
  const lower = text.toLowerCase();
  const tokens: Token[] = [];
  for (const match of lower.matchAll(TOKEN_PATTERN)) {
    let value = match[0];
    let start = match.index;
    // A leading dot is kept only for `.net`-style names, not for ".5" or a sentence's dot.
    if (value.startsWith('.') && !DOTTED_NAME.test(value)) {
      value = value.slice(1);
      start += 1;
    }
    for (const t of splitSlash({ text: value, start, end: start + value.length })) tokens.push(t);
  }
  return tokens;
}
