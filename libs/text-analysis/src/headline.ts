/** Headlines longer than this are prose, not a title line. */
const MAX_HEADLINE = 120;

/**
 * The CV's headline: its first line with words in it (a masked name such as "*****" is
 * skipped), which by convention names the candidate's role ("Senior Accountant"). It weighs more
 * than body text in both the keyword and the dense index. Empty when that line is too long to be
 * a title.
 */
export function headline(text: string): string {
  const first = /^[^\n]*\p{L}[^\n]*\p{L}[^\n]*$/mu.exec(text)?.[0].trim() ?? '';
  return first.length <= MAX_HEADLINE ? first : '';
}
