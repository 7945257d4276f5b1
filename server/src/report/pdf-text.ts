/**
 * Text for the PDF's standard fonts. Helvetica and Courier (built into every PDF reader, so
 * nothing has to be embedded or found on a NAS) cover the WinAnsi character set only; anything
 * else would print as a wrong glyph. Characters outside it are spelled in ASCII instead.
 */

const REPLACEMENTS: Record<string, string> = {
  '→': '->', '←': '<-', '↔': '<->', '⇒': '=>', '≤': '<=', '≥': '>=', '≈': '~', '≠': '!=', '∞': 'inf', '−': '-', '‑': '-', '‐': '-',
  '├': '|', '└': '`', '│': '|', '─': '-', '┌': '+', '┐': '+', '┘': '+', '┬': '+', '┴': '+', '┼': '+', '█': '#', '▏': '|',
  '✓': 'ok', '✔': 'ok', '✗': 'x', '✘': 'x', '\u202f': ' ', '\u2009': ' ', '\u200b': '', '\t': '    ', '½': '1/2',
  'Δ': 'delta', 'Σ': 'sum', 'σ': 'sigma', '′': "'", '″': '"', '⁄': '/', '∑': 'sum', '√': 'sqrt', '∼': '~', '⋯': '...',
};

/** The 27 WinAnsi code points above 0x7F that are not Latin-1. */
const WINANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

const isWinAnsi = (c: string): boolean => {
  const cp = c.codePointAt(0)!;
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || c === '\n' || WINANSI_EXTRA.has(c);
};

export function pdfSafe(text: string): string {
  let out = '';
  for (const c of text.normalize('NFC')) {
    if (isWinAnsi(c)) out += c;
    else if (c in REPLACEMENTS) out += REPLACEMENTS[c];
    else if (c === '\r') continue;
    else {
      // Accented letters outside Latin-1 lose the accent rather than the letter.
      const base = c.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base.length > 0 && [...base].every(isWinAnsi) ? base : '?';
    }
  }
  return out;
}
