// draid2-96c-six-spares-inuse.txt: draid2:8d:96c:6s with all six distributed spares and five of the
// seven traditional spares in use (spare-N rows pair an UNAVAIL disk with its spare), two disks
// UNAVAIL without a spare, sdcy/sdcz AVAIL.
import type { ParsedPoolStatus, VdevNode } from '../../../../server/src/model/inventory.ts';
import { disk, group, pool, scan, spareRow } from '../helpers.ts';
import { sd } from './sd-names.ts';

const up = (names: string[]) => names.map((n) => disk(n));
const un = (n: string) => disk(n, { state: 'UNAVAIL' });
/** spare-N: the failed disk, then the spare standing in (a dRAID spare is typed 'spare'). */
const sp = (i: number, dead: string, spare: string): VdevNode =>
  group('spare', `spare-${i}`, [un(dead), disk(spare, spare.startsWith('draid') ? { type: 'spare' } : {})], { state: 'DEGRADED' });

export const expected: ParsedPoolStatus[] = [pool({
  name: 'zdraidtest',
  state: 'DEGRADED',
  status: 'One or more devices could not be used because the label is missing or invalid.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
  action: "Replace the device using 'zpool replace'.",
  see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-4J',
  scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2021-07-05T19:21:57', errors: 0, raw: 'scrub repaired 0B in 00:00:01 with 0 errors on Mon Jul  5 19:21:57 2021' }),
  vdevs: [
    group('draid', 'draid2:8d:96c:6s-0', [
      sp(0, 'sdb', 'draid2-0-0'), sp(1, 'sdc', 'draid2-0-3'),
      ...up(sd('d', 'y')), ...up(sd('aa', 'ax')), disk('sdba'),
      sp(49, 'sdbb', 'draid2-0-1'), sp(50, 'sdbc', 'draid2-0-4'),
      ...up(sd('bd', 'bx')), disk('sdca'),
      sp(73, 'sdcb', 'draid2-0-2'), sp(74, 'sdcc', 'draid2-0-5'),
      disk('sdcd'), sp(76, 'sdce', 'sdz'),
      disk('sdcf'), sp(78, 'sdcg', 'sday'),
      disk('sdch'), sp(80, 'sdci', 'sdaz'),
      disk('sdcj'), sp(82, 'sdck', 'sdby'),
      disk('sdcl'), un('sdcm'), disk('sdcn'), sp(86, 'sdco', 'sdbz'),
      un('sdcp'), ...up(sd('cq', 'cx')),
    ], { state: 'DEGRADED', draid: { parity: 2, data: 8, children: 96, spares: 6 } }),
    ...['draid2-0-0', 'draid2-0-1', 'draid2-0-2', 'draid2-0-3', 'draid2-0-4', 'draid2-0-5'].map((n) => spareRow(n, 'INUSE', 'currently in use', 'spare')),
    ...['sdz', 'sday', 'sdaz', 'sdby', 'sdbz'].map((n) => spareRow(n, 'INUSE', 'currently in use')),
    spareRow('sdcy', 'AVAIL'),
    spareRow('sdcz', 'AVAIL'),
  ],
})];
