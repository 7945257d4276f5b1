import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binningFor, parseZdbBlockStats, psizeAtOrBelow } from '../../server/src/parsers/zdb-block-stats.ts';
import { histogramFromZdb } from '../../server/src/sizing/from-zdb.ts';

const text = readFileSync(join(import.meta.dirname, '../fixtures/sizing/zdb-bbb-level1techs-pre24.txt'), 'utf8');
const K = 1024;
const M = K ** 2;
const G = K ** 3;
const T = K ** 4;

describe('parseZdbBlockStats (Level1Techs real output, ≤ 2.3)', () => {
  const out = parseZdbBlockStats(text, { version: '2.1.5' });
  if (!out.ok) throw new Error(out.error.message);
  const s = out.value;

  it('reads all 16 rows with their three column groups', () => {
    expect(s.rows.map((r) => r.sizeBytes)).toEqual([512, K, 2 * K, 4 * K, 8 * K, 16 * K, 32 * K, 64 * K, 128 * K, 256 * K, 512 * K, M, 2 * M, 4 * M, 8 * M, 16 * M]);
    expect(s.rows[0]).toEqual({
      sizeBytes: 512,
      psize: { count: 833 * K, bytes: 416 * M, cumulativeBytes: 416 * M },
      lsize: { count: 833 * K, bytes: 416 * M, cumulativeBytes: 416 * M },
      asize: { count: 0, bytes: 0, cumulativeBytes: 0 },
    });
    const r128 = s.rows[8]!;
    expect(r128.psize.count).toBe(401 * M);
    expect(r128.psize.bytes).toBe(Math.round(50.2 * T));
    expect(r128.asize.cumulativeBytes).toBe(Math.round(75.9 * T));
    expect(out.issues).toEqual([]);
    expect(s.metadataTotal).toBeNull();
  });

  it('applies the version-dependent binning (F5)', () => {
    expect(s.binning).toBe('floor-log2');
    expect(binningFor('2.4.0')).toBe('fits-into');
    expect(binningFor(null)).toBe('unknown');
    // ≤ 2.3: blocks certainly ≤ 16K are rows 512 … 8K.
    const le16 = psizeAtOrBelow(s, 16 * K);
    expect(le16.exact).toBe(false);
    expect(le16.bytes).toBe(416 * M + Math.round(1.22 * G) + Math.round(2.31 * G) + Math.round(11.6 * G) + Math.round(21.8 * G));
    const as24 = parseZdbBlockStats(text, { version: '2.4.1' });
    if (!as24.ok) throw new Error('parse');
    expect(psizeAtOrBelow(as24.value, 16 * K)).toEqual({ bytes: psizeAtOrBelow(s, 32 * K).bytes, exact: true });
  });

  it('builds a zdb SizeHistogram with cumulative psize bins', () => {
    const h = histogramFromZdb('tank', s, 128 * K, 12, '2026-01-01T00:00:00.000Z');
    expect(h.method).toBe('zdb');
    expect(h.blockBins[0]!.upperBytes).toBe(1024);
    expect(h.blockBins.at(-1)!.cumulativeBytes).toBe(h.blockBins.reduce((a, b) => a + b.bytes, 0));
    expect(h.candidates.map((c) => c.specialSmallBlocks)).toEqual([0, 4 * K, 8 * K, 16 * K, 32 * K, 64 * K, 128 * K]);
    expect(h.candidates[3]!.smallBlockBytes).toBe(psizeAtOrBelow(s, 16 * K).bytes);
    expect(h.notes.join(' ')).toContain('lower bound');
  });

  it('reads -P output and the Metadata Total row', () => {
    const p = [
      '  162K  7.33G    719M   2.72G   17.2K   10.43     0.15  Metadata Total',
      '',
      'Block Size Histogram',
      '',
      '  block   psize                lsize                asize',
      '   size   Count   Size   Cum.  Count   Size   Cum.  Count   Size   Cum.',
      '512:\t10\t5120\t5120\t10\t5120\t5120\t0\t0\t0',
      '1024:\t2\t2048\t7168\t2\t2048\t7168\t0\t0\t0',
      '',
    ].join('\n');
    const r = parseZdbBlockStats(p, { version: '2.4.0' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.rows.map((x) => [x.sizeBytes, x.psize.count, x.psize.cumulativeBytes])).toEqual([[512, 10, 5120], [1024, 2, 7168]]);
    expect(r.value.metadataTotal).toEqual({ blocks: 162 * K, lsize: Math.round(7.33 * G), psize: 719 * M, asize: Math.round(2.72 * G) });
  });

  it('fails with a message when there is no histogram', () => {
    const r = parseZdbBlockStats('bp count: 10\n');
    expect(r.ok).toBe(false);
  });
});
