import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatLatencyNs, formatPct } from '../../server/src/text/format.ts';
import { errorCount, layoutWords, vdevsByClass } from '../../ui/src/overview/layout-words.ts';
import { fillTone, healthOf, summarisePool } from '../../ui/src/overview/pool-summary.ts';
import { buildInventory } from '../../server/src/gather/build.ts';
import { rawText } from '../../server/src/snapshot/raw-set.ts';
import { parseZpoolStatus } from '../../server/src/parsers/zpool-status.ts';
import { fixtureText, findings000, inventory000, inventory001 } from './fixtures.ts';

describe('formatting', () => {
  it('formats sizes like zpool list (IEC, three significant digits)', () => {
    expect(formatBytes(4000787030016)).toBe('3.64 TiB'); // one WD40EFRX / ST4000NM0043
    expect(formatBytes(47828755808256)).toBe('43.5 TiB'); // 001's raidz2 `storage`
    expect(formatBytes(58977157120)).toBe('54.9 GiB'); // P1600X 58 GB
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(null)).toBe('—');
  });
  it('formats counts and latencies', () => {
    expect(formatCount(13712.4)).toBe('13,712');
    expect(formatCount(894)).toBe('894');
    expect(formatCount(1234)).toBe('1,234');
    expect(formatLatencyNs(73_000)).toBe('73 µs');
    expect(formatLatencyNs(17_800_000)).toBe('17.8 ms');
    expect(formatLatencyNs(250)).toBe('250 ns');
    expect(formatPct(0.734)).toBe('73 %');
  });
});

describe('layout in words', () => {
  it('says a 2-way mirror pool (000 demo)', () => {
    const pool = inventory000().pools[0]!;
    expect(layoutWords(pool.vdevs)).toBe('1 × MIRROR | 2 wide | 3.62 TiB');
  });
  it('says a 12-wide raidz2 (001 demo)', () => {
    const pool = inventory001().pools[0]!;
    expect(layoutWords(pool.vdevs)).toBe('1 × RAIDZ2 | 12 wide | 43.5 TiB');
  });
  it('groups classes apart and counts top-level vdevs of one shape (000 test-pool: 2 mirrors + special)', () => {
    const parsed = parseZpoolStatus(fixtureText('000-test-pool-mirrors-special.txt'));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const groups = vdevsByClass(parsed.value[0]!.vdevs);
    expect(groups.map((g) => g.cls)).toEqual(['data', 'special']);
    // No sizes in `zpool status`: the size part is left out rather than guessed.
    expect(layoutWords(groups[0]!.vdevs)).toBe('2 × MIRROR | 2 wide');
    expect(layoutWords(groups[1]!.vdevs)).toBe('1 × DISK | 1 wide');
    expect(errorCount(parsed.value[0]!.vdevs[0]!)).toBe(0);
  });
  it('names mixed groups and dRAID geometry', () => {
    const leaf = (name: string) => ({ class: 'data' as const, type: 'disk' as const, name, state: 'ONLINE', read: 0, write: 0, cksum: 2, note: null, children: [] });
    const mirror = { ...leaf('mirror-0'), type: 'mirror' as const, cksum: 0, children: [leaf('a'), leaf('b')], sizeBytes: 1024 ** 4 };
    const single = { ...leaf('c'), sizeBytes: 1024 ** 4 };
    expect(layoutWords([mirror, single])).toBe('1 × MIRROR | 2 wide + 1 × DISK | 1 wide | 2 TiB');
    expect(errorCount(mirror)).toBe(4);
    const draid = { ...leaf('draid2:4d:12c:1s-0'), type: 'draid' as const, draid: { parity: 2, data: 4, children: 12, spares: 1 }, children: [] };
    expect(layoutWords([draid])).toBe('1 × DRAID2:4d:1s | 12 wide');
  });
});

describe('pool summary', () => {
  it('summarises the 000 demo pool with its findings', () => {
    const pool = inventory000().pools[0]!;
    const s = summarisePool(pool, findings000().findings);
    expect(s.health).toBe('ok');
    expect(s.capacity).toBe(0); // CAP 0% in zpool list
    expect(s.specialFill).toBeNull();
    expect(s.findings).toEqual({ critical: 0, warning: 0, suggestion: 2, info: 0 });
  });
  it('maps states and fill tones', () => {
    expect(healthOf('DEGRADED')).toBe('degraded');
    expect(healthOf('FAULTED')).toBe('failed');
    expect(healthOf(null)).toBe('unknown');
    expect(fillTone(0.85)).toBe('warn');
    expect(fillTone(0.95)).toBe('bad');
    expect(fillTone(0.2)).toBe('ok');
  });
  it('computes the special class fill from a built inventory', () => {
    const inv = buildInventory({ 'zpool-status.txt': rawText(fixtureText('000-test-pool-mirrors-special.txt'), ['zpool', 'status']) }, { kind: 'snapshot', label: 't', capturedAt: '2023-01-01T00:00:00Z', demo: false, redacted: false });
    const pool = inv.pools[0]!;
    expect(pool.vdevs.filter((v) => v.class === 'special').length).toBe(1);
    // zpool status has no sizes: the fill is unknown, not 0.
    expect(summarisePool(pool, []).specialFill).toBeNull();
  });
});
