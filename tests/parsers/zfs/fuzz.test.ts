/**
 * Property tests: every ZFS parser on truncated, line-reordered, garbage-injected and very large
 * inputs must return a ParseOutcome (never throw, never hang): ok with issues, or an error whose
 * line (when given) points into the input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParseOutcome } from '../../../server/src/parsers/common.ts';
import { parseZdbConfig } from '../../../server/src/parsers/zdb-config.ts';
import { parseZfsGet } from '../../../server/src/parsers/zfs-get.ts';
import { parseZfsVersion } from '../../../server/src/parsers/zfs-version.ts';
import { parseZpoolGet } from '../../../server/src/parsers/zpool-get.ts';
import { parseZpoolList } from '../../../server/src/parsers/zpool-list.ts';
import { parseZpoolStatus } from '../../../server/src/parsers/zpool-status.ts';
import { parseZpoolStatusJson } from '../../../server/src/parsers/zpool-status-json.ts';
import { fixture } from './helpers.ts';

type Parser = (text: string) => ParseOutcome<unknown>;
const PARSERS: [string, Parser, string][] = [
  ['zpool status', parseZpoolStatus, fixture('status/zfs-fuse--zpool_status_fcomplex_SPARE_INUSE.txt') + fixture('status/draid1x2-six-fails-multi-scan-lines.txt')],
  ['zpool status -j', parseZpoolStatusJson, fixture('status/openzfs-man-zpool-status-j-raidz1-dedup-special-JSON.json')],
  ['zpool list', (t) => parseZpoolList(t), fixture('list/ref-000-line1010.txt')],
  ['zpool get', parseZpoolGet, fixture('get/zfs-fuse--zpool_get_all_fsingle.txt')],
  ['zfs get', parseZfsGet, fixture('get/openzfs-man-zfs-get-all-pool-home-bob.txt')],
  ['zdb -C', parseZdbConfig, fixture('zdb/zfs-fuse--zdb_-C_fmirror.txt')],
  ['zfs version', parseZfsVersion, 'zfs-2.1.6-1\nzfs-kmod-2.1.6-1\n'],
];

function wellFormed(out: ParseOutcome<unknown>, input: string): void {
  const lines = input.split('\n').length;
  const lineOk = (l: number | null) => l === null || (Number.isInteger(l) && l >= 1 && l <= lines);
  if (out.ok) expect(out.issues.every((i) => lineOk(i.line))).toBe(true);
  else {
    expect(typeof out.error.message).toBe('string');
    expect(lineOk(out.error.line)).toBe(true);
  }
}

const mutation = (base: string) => {
  const lines = base.split('\n');
  return fc.oneof(
    fc.nat({ max: base.length }).map((n) => base.slice(0, n)),
    fc.shuffledSubarray(lines, { minLength: 0, maxLength: lines.length }).map((l) => l.join('\n')),
    fc.tuple(fc.nat({ max: lines.length }), fc.string({ maxLength: 80 })).map(([at, junk]) => [...lines.slice(0, at), junk, ...lines.slice(at)].join('\n')),
    fc.tuple(fc.nat({ max: base.length }), fc.constantFrom('\t', '\r\n', '  ', ':', '{', '"', '-', 'pool: x', 'NAME STATE', '\u0000')).map(([at, s]) => base.slice(0, at) + s + base.slice(at)),
  );
};

describe.each(PARSERS)('%s never throws', (_name, parse, base) => {
  it('on truncated, reordered and garbage-injected real output', () => {
    fc.assert(fc.property(mutation(base), (input) => wellFormed(parse(input), input)), { numRuns: 150 });
  });
  it('on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (input) => wellFormed(parse(input), input)), { numRuns: 100 });
  });
});

describe('very large inputs', () => {
  it('zpool status with 20 000 leaf vdevs in 2 000 raidz2 vdevs', () => {
    const rows: string[] = ['  pool: huge', ' state: ONLINE', 'config:', '', '\tNAME        STATE     READ WRITE CKSUM', '\thuge        ONLINE       0     0     0'];
    for (let v = 0; v < 2000; v++) {
      rows.push(`\t  raidz2-${v}  ONLINE       0     0     0`);
      for (let d = 0; d < 10; d++) rows.push(`\t    disk${v}x${d}  ONLINE       0     0     0`);
    }
    rows.push('', 'errors: No known data errors', '');
    const r = parseZpoolStatus(rows.join('\n'));
    expect(r.ok && r.value[0]!.vdevs.length).toBe(2000);
    expect(r.ok && r.value[0]!.vdevs[1999]!.children[9]!.name).toBe('disk1999x9');
  });
  it('zpool list -v with 20 000 rows and zfs get with 20 000 rows', () => {
    const list = ['NAME   SIZE  ALLOC   FREE  CKPOINT  EXPANDSZ   FRAG    CAP  DEDUP    HEALTH  ALTROOT', 'big   100T    10T    90T        -         -     1%    10%  1.00x    ONLINE  -'];
    for (let i = 0; i < 20000; i++) list.push(`  d${i}   5T  -  -  -  -  -  -  -  ONLINE`);
    const l = parseZpoolList(list.join('\n'));
    expect(l.ok && l.value[0]!.vdevs.length).toBe(20000);
    const get: string[] = [];
    for (let i = 0; i < 20000; i++) get.push(`tank/ds${i % 1000}\tprop${i}\tvalue\tlocal`);
    const g = parseZfsGet(get.join('\n'));
    expect(g.ok && g.value.length).toBe(1000);
  });
});
