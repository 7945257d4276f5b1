/**
 * The PDF's fonts and the text they can show. The report embeds DejaVu Sans and DejaVu Sans Mono
 * (subset by pdfkit, so only the glyphs used are in the file): unlike the 14 standard PDF fonts,
 * they have the box-drawing glyphs of the vdev trees (├─ └─), arrows (→), ≤ ≥ and ×, so the PDF
 * reads like the other formats instead of spelling them in ASCII. Read relative to this module,
 * like the demo snapshots.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FONT_DIR = join(dirname(fileURLToPath(import.meta.url)), 'fonts');
const font = (file: string): string => join(FONT_DIR, file);

export const PDF_FONTS = {
  sans: font('DejaVuSans.ttf'),
  bold: font('DejaVuSans-Bold.ttf'),
  mono: font('DejaVuSansMono.ttf'),
} as const;

/** Scripts DejaVu does not cover (CJK, Hangul, anything above the BMP) print as "?" rather than an empty box. */
const UNCOVERED = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]|[\u{10000}-\u{10ffff}]/gu;

/** A number and its unit stay on one line ("0 %" never broken after the 0). */
const NUMBER_UNIT = /(\d) (?=%|°C|×|[KMGTPE]iB\b|B\b|[nµm]?s\b|IOPS\b)/g;

export function pdfSafe(text: string): string {
  return text.normalize('NFC')
    .replace(/\r/g, '')
    .replace(/\t/g, '    ')
    .replace(/\u200b|\u200c|\u200d|\ufeff/g, '')
    .replace(/[\u2009\u202f]/g, ' ')
    .replace(UNCOVERED, '?')
    .replace(NUMBER_UNIT, '$1\u00a0');
}
