/** Windows-1252's characters for the bytes 0x80-0x9F (where it differs from Latin-1). */
const CP1252_HIGH: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  '†': 0x86,
  '‡': 0x87,
  ˆ: 0x88,
  '‰': 0x89,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  '™': 0x99,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

const byteOf = (ch: string): number | null => {
  const code = ch.charCodeAt(0);
  if (code >= 0x80 && code <= 0xff) return code;
  return CP1252_HIGH[ch] ?? null;
};

/** Characters Windows-1252 shows for UTF-8 continuation bytes (0x80-0xBF), as a class's body. */
const CONTINUATION =
  '\\u0080-\\u00bf\\u0152\\u0153\\u0160\\u0161\\u0178\\u017d\\u017e\\u0192\\u02c6\\u02dc\\u2013\\u2014\\u2018-\\u201e\\u2020-\\u2022\\u2026\\u2030\\u2039\\u203a\\u20ac\\u2122';
/** A UTF-8 lead byte as Latin-1/Windows-1252 shows it, then the continuation bytes it needs. */
const SUSPECT = new RegExp(`[\\u00c2-\\u00f4][${CONTINUATION}]{0,3}`, 'g');

/**
 * Sequences whose last byte is one Windows-1252 cannot show (0x81, 0x8D, 0x8F, 0x90, 0x9D), which
 * PDFs' text layers leave out, as the livecareer PDFs have them: `”` (E2 80 9D), the bullet `●`
 * (E2 97 8F), the ligature `ﬁ` (EF AC 81); and `■` (E2 96 A0) whose no-break space became a space.
 */
const TRUNCATED: readonly [RegExp, string][] = [
  [new RegExp(`\u00e2\u20ac(?![${CONTINUATION}])`, 'g'), '\u201d'],
  [new RegExp(`\u00e2\u2014(?![${CONTINUATION}])`, 'g'), '\u25cf'],
  [new RegExp(`\u00ef\u00ac(?![${CONTINUATION}])`, 'g'), '\ufb01'],
  [/\u00e2\u2013(?= )/g, '\u25a0'],
];
/**
 * `Ã` whose second byte a PDF dropped, inside a lower-case word: nearly always `í` (C3 AD, the
 * byte of a soft hyphen, which text layers leave out): "RaÃces", "compañÃa", "TÃtulo". In
 * capitals it stays, since `Ã` is a letter there ("SÃO PAULO").
 */
const LONE_I_ACUTE = /(?<=\p{Ll})\u00c3(?!\p{Lu})|(?<=\p{L})\u00c3(?=\p{Ll})/gu;
/**
 * `Â` after a lower-case letter or a digit, before a letter or digit: a soft hyphen's lead byte
 * without it ("inÂhouse", "16Â10"). After a capital it may be a letter ("CÂMARA").
 */
const LONE_SOFT_HYPHEN = /(?<=[\p{Ll}\p{N}])\u00c2(?=[\p{L}\p{N}])/gu;
/** Text decoded as Windows-1252 twice is repaired in two passes; a third is never needed. */
const MAX_PASSES = 3;

/**
 * Repairs UTF-8 text that was once or twice decoded as Windows-1252 (`â€“` -> `–`, `Ã©` -> `é`,
 * `Ã¢â‚¬â€œ` -> `–`), as scraped CVs often are. Only sequences that decode to valid UTF-8 are
 * replaced, pass after pass until none is left. PDFs' text layers drop the bytes Windows-1252 has
 * no character for and soft hyphens (0xAD), which truncates some sequences; the common ones are
 * mended by their context: a lone `Â` before a space (a no-break space's lead byte) is removed,
 * and inside a word becomes a hyphen; `â€` alone is `”` and `â—` alone `●` (see `TRUNCATED`); a
 * lone `Ã` in a lower-case word is `í`; `ï¼` (a full-width colon missing its last byte) becomes a
 * colon. Runs before Unicode normalisation, which would turn `¼` into `1⁄4` and `™` into `TM`.
 */
export function repairMojibake(text: string): string {
  let repaired = text;
  for (let pass = 0; pass < MAX_PASSES && /[\u00c2-\u00f4]/.test(repaired); pass++) {
    const next = repairOnce(repaired);
    if (next === repaired) break;
    repaired = next;
  }
  // Only once no sequence is left to decode: a double-encoded `é` passes through a lone-looking `Ã©`.
  return repaired.replace(LONE_I_ACUTE, 'í');
}

function repairOnce(text: string): string {
  const mended = TRUNCATED.reduce((t, [pattern, character]) => t.replace(pattern, character), text);
  return mended
    .replace(/\u00c2(?=[ \t\n]|$)/g, '')
    .replace(LONE_SOFT_HYPHEN, '-')
    .replace(SUSPECT, (run) => {
      const bytes: number[] = [];
      for (const ch of run) {
        const b = byteOf(ch);
        if (b === null) return run;
        bytes.push(b);
      }
      const lead = bytes[0];
      const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
      // What follows a whole sequence is text of its own (`â‚¬”`: `€`, then a real `”`).
      if (bytes.length >= needed) {
        const decoded = decodeStrict(Buffer.from(bytes.slice(0, needed)));
        // eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points on purpose: one a byte of the mis-decoded run
        if (decoded !== null) return decoded + [...run].slice(needed).join('');
      }
      return run === 'ï¼' ? ':' : run;
    });
}

function decodeStrict(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
