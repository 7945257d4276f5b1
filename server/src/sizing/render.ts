/** Plain-text view of a SizeHistogram for the terminal (the JSON is the contract; this is for people). */
import type { SizeBin, SizeHistogram } from '../model/workload.ts';
import { inlinePlain } from '../text/markdown.ts';

export const humanBytes = (n: number): string => {
  const units = ['B', 'K', 'M', 'G', 'T', 'P'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return i === 0 ? `${n}B` : `${n >= 100 ? n.toFixed(0) : n.toFixed(1)}${units[i]}`;
};

function table(title: string, bins: readonly SizeBin[]): string[] {
  const out = [title, `${'≤ size'.padStart(8)} ${'count'.padStart(12)} ${'bytes'.padStart(9)} ${'cum. count'.padStart(12)} ${'cum. bytes'.padStart(10)}`];
  for (const b of bins) {
    out.push(`${humanBytes(b.upperBytes).padStart(8)} ${String(b.count).padStart(12)} ${humanBytes(b.bytes).padStart(9)} ${String(b.cumulativeCount).padStart(12)} ${humanBytes(b.cumulativeBytes).padStart(10)}`);
  }
  return out;
}

export function renderHistogram(h: SizeHistogram, zdb: SizeHistogram | null = null): string {
  const lines = [
    `${h.target}${h.dataset ? ` (${h.dataset})` : ''}: ${h.files} files, ${humanBytes(h.totalBytes)}, recordsize ${humanBytes(h.recordsize)}, ashift ${h.ashift}`,
    '',
    ...table('Files (apparent size)', h.fileBins),
    '',
    ...table('Data blocks (uncompressed, as stored)', h.blockBins),
    '',
    ...(zdb ? [...table(`zdb -Lbbbs ${zdb.target}: blocks by physical size (whole pool, psize)`, zdb.blockBins), ''] : []),
    'special_small_blocks → projected special-class usage (small blocks + metadata estimate)',
  ];
  for (const c of h.candidates) {
    const z = zdb?.candidates.find((x) => x.specialSmallBlocks === c.specialSmallBlocks);
    lines.push(`${humanBytes(c.specialSmallBlocks).padStart(8)}  ${humanBytes(c.totalBytes).padStart(8)} = ${humanBytes(c.smallBlockBytes)} + ${humanBytes(c.metadataBytes)}${z ? `   zdb: ${humanBytes(z.totalBytes)}` : ''}`);
  }
  lines.push('', `metadata: ${inlinePlain(h.metadataBasis)}`, ...h.notes.map((n) => `note: ${inlinePlain(n)}`), ...(zdb?.notes ?? []).map((n) => `zdb: ${inlinePlain(n)}`), '');
  return lines.join('\n');
}
