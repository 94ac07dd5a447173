/** A token with its place in the original text (UTF-16 offsets). */
export interface Token {
  /** Lowercased surface form. */
  text: string;
  start: number;
  end: number;
}

/**
 * Words, numbers and the technical spellings CVs are full of: `c++`, `c#`, `.net`, `node.js`,
 * `asp.net`, `ci/cd`. A dot or slash joins two parts only when letters or digits follow it, so a
 * full stop never sticks to a word.
 */
export const TOKEN_PATTERN = /\.?[\p{L}\p{N}][\p{L}\p{N}_]*(?:[+#]+(?![\p{L}\p{N}]))?(?:[./][\p{L}\p{N}][\p{L}\p{N}_]*(?:[+#]+(?![\p{L}\p{N}]))?)*/gu;

/** Slash compounds kept whole; other slashes split (`sales/marketing` is two words). */
const SLASH_COMPOUNDS: ReadonlySet<string> = new Set([
  'ci/cd', 'tcp/ip', 'pl/sql', 'i/o', 'ui/ux', 'a/b', 'a/r', 'a/p', 'b2b/b2c', 'r&d', 'p&l',
]);

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
    if (value.startsWith('.') && !/^\.[a-z]{2,4}$/.test(value)) {
      value = value.slice(1);
      start += 1;
    }
    for (const t of splitSlash({ text: value, start, end: start + value.length })) tokens.push(t);
  }
  return tokens;
}
