/**
 * Exact trees for the real `zpool status` outputs not already covered in zpool-status.test.ts.
 * Every expectation was written from reading the fixture text; large ones live in ./expected/.
 */
import { describe, expect, it } from 'vitest';
import type { ParsedPoolStatus, VdevNode } from '../../../server/src/model/inventory.ts';
import { parseZpoolStatus } from '../../../server/src/parsers/zpool-status.ts';
import { disk, fixture, group, NONE_REQUESTED, pool, scan } from './helpers.ts';

const parse = (path: string) => {
  const r = parseZpoolStatus(fixture(`status/${path}`));
  if (!r.ok) throw new Error(`${path}: ${r.error.message} (line ${r.error.line})`);
  return r;
};
/** Parses a fixture, expects no issues and exactly these pools. */
const expectPools = (path: string, pools: ParsedPoolStatus[]) => {
  const r = parse(path);
  expect(r.issues).toEqual([]);
  expect(r.value).toEqual(pools);
};
/** ONLINE leaves named prefix+from … prefix+to (da0 … da23 in reference 001). */
const seq = (prefix: string, from: number, to: number, pad = 0): VdevNode[] =>
  Array.from({ length: to - from + 1 }, (_, i) => disk(`${prefix}${String(from + i).padStart(pad, '0')}`));

describe('reference 001 (FreeBSD layouts, pool "storage", no errors: line)', () => {
  // The document's examples stop after config:, so errors is null; scan is "none requested".
  const storage = (vdevs: VdevNode[]) => pool({ name: 'storage', scan: NONE_REQUESTED, errors: null, vdevs });
  const da = (from: number, to: number) => seq('da', from, to);
  const mirrors = (n: number) => Array.from({ length: n }, (_, i) => group('mirror', `mirror-${i}`, da(2 * i, 2 * i + 1)));

  it.each<[string, VdevNode[]]>([
    ['ref-001-01-line109.txt', da(0, 0)],
    ['ref-001-02-line132.txt', [group('mirror', 'mirror-0', da(0, 1))]],
    ['ref-001-03-line157.txt', da(0, 1)],
    ['ref-001-04-line181.txt', [group('mirror', 'mirror-0', da(0, 2))]],
    ['ref-001-05-line207.txt', da(0, 2)],
    ['ref-001-06-line232.txt', [group('raidz1', 'raidz1-0', da(0, 2))]],
    ['ref-001-07-line258.txt', mirrors(2)],
    ['ref-001-08-line286.txt', [group('raidz2', 'raidz2-0', da(0, 3))]],
    ['ref-001-09-line313.txt', [group('raidz1', 'raidz1-0', da(0, 4))]],
    ['ref-001-10-line341.txt', [group('raidz3', 'raidz3-0', da(0, 4))]],
    ['ref-001-11-line369.txt', mirrors(3)],
    ['ref-001-12-line400.txt', [group('raidz2', 'raidz2-0', da(0, 5))]],
    ['ref-001-13-line429.txt', [group('raidz1', 'raidz1-0', da(0, 4)), group('raidz1', 'raidz1-1', da(5, 9))]],
    ['ref-001-14-line463.txt', [group('raidz3', 'raidz3-0', da(0, 10))]],
    ['ref-001-15-line497.txt', mirrors(6)],
    ['ref-001-16-line537.txt', [group('raidz2', 'raidz2-0', da(0, 5)), group('raidz2', 'raidz2-1', da(6, 11))]],
    ['ref-001-17-line573.txt', [group('raidz1', 'raidz1-0', da(0, 11))]],
    ['ref-001-18-line608.txt', [group('raidz2', 'raidz2-0', da(0, 11))]],
    ['ref-001-19-line643.txt', [group('raidz3', 'raidz3-0', da(0, 11))]],
    ['ref-001-20-line678.txt', [group('raidz3', 'raidz3-0', da(0, 10)), group('raidz3', 'raidz3-1', da(11, 21))]],
    ['ref-001-21-line724.txt', [group('raidz3', 'raidz3-0', da(0, 22))]],
    ['ref-001-22-line770.txt', mirrors(12)],
    ['ref-001-23-line828.txt', [group('raidz1', 'raidz1-0', da(0, 23))]],
    ['ref-001-24-line875.txt', [group('raidz2', 'raidz2-0', da(0, 23))]],
    ['ref-001-25-line922.txt', [group('raidz3', 'raidz3-0', da(0, 23))]],
    ['ref-001-26-line969.txt', da(0, 23)],
  ])('%s', (path, vdevs) => expectPools(path, [storage(vdevs)]));

  it('ref-001-27: data1 raidz2 of GPT labels after a scrub (0.6-era "repaired 0 in 0h0m")', () => {
    expectPools('ref-001-27-line1435.txt', [pool({
      name: 'data1', errors: null,
      scan: scan({ kind: 'scrub', state: 'finished', errors: 0, endedAt: '2033-04-08T14:36:17', raw: 'scrub repaired 0 in 0h0m with 0 errors on Mon Apr  8 14:36:17 2033' }),
      vdevs: [group('raidz2', 'raidz2-0', seq('data1-', 0, 11, 2))],
    })]);
  });

  it('ref-001-28: the same pool by scsi-…-part1 ids after a resilver', () => {
    const ids = ['327b8d44f', '427c0c540', '427c9410f', '527d1dc47', 'c8456d9cb386', '627e2e502', '627eb60b9', '727fa267a', '82802c19f', '92811a6f3', 'a28205d1e', 'b282e7776'];
    // All but one share the prefix scsi-3600605b00512e8c018f5abe; the fifth is …018f5c8456d9cb386.
    const name = (tail: string) => tail.startsWith('c8') ? `scsi-3600605b00512e8c018f5${tail}-part1` : `scsi-3600605b00512e8c018f5abe${tail}-part1`;
    expectPools('ref-001-28-line1462.txt', [pool({
      name: 'data1', errors: null,
      scan: scan({ kind: 'resilver', state: 'finished', errors: 0, endedAt: '2033-04-08T14:33:58', raw: 'resilvered 0 in 0h0m with 0 errors on Mon Apr  8 14:33:58 2033' }),
      vdevs: [group('raidz2', 'raidz2-0', ids.map((t) => disk(name(t))))],
    })]);
  });
});
