/** Windows-1252's characters for the bytes 0x80-0x9F (where it differs from Latin-1). */
const CP1252_HIGH: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a, '‹': 0x8b,
  'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99,
  'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};

const byteOf = (ch: string): number | null => {
  const code = ch.charCodeAt(0);
  if (code >= 0x80 && code <= 0xff) return code;
  return CP1252_HIGH[ch] ?? null;
};

/** A UTF-8 lead byte as Latin-1/Windows-1252 shows it, then the continuation bytes it needs. */
const SUSPECT = /[\u00c2-\u00f4][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013\u2014\u2018-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122]{0,3}/g;

/**
 * Repairs UTF-8 text that was once decoded as Windows-1252 (`â€“` -> `–`, `Ã©` -> `é`), as
 * scraped CVs often are. Only sequences that decode to valid UTF-8 are replaced. Two truncated
 * forms are common in PDFs, whose text layers drop the C1 control byte that ended them: a lone
 * `Â` before a space (a no-break space's lead byte) is removed, and `ï¼` (a full-width colon
 * missing its last byte) becomes a colon. Runs before Unicode normalisation, which would turn
 * `¼` into `1⁄4`.
 */
export function repairMojibake(text: string): string {
  if (!/[\u00c2-\u00f4]/.test(text)) return text;
  return text.replace(/\u00c2(?=[ \t\n]|$)/g, '').replace(SUSPECT, (run) => {
    const bytes: number[] = [];
    for (const ch of run) {
      const b = byteOf(ch);
      if (b === null) return run;
      bytes.push(b);
    }
    const lead = bytes[0];
    const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (bytes.length === needed) {
      const decoded = decodeStrict(Buffer.from(bytes));
      if (decoded !== null) return decoded;
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
