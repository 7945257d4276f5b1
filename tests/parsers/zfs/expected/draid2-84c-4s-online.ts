// draid2-84c-4s-online.txt: one draid2:6d:84c:4s vdev of 84 ONLINE disks (sdb…sdy, sdaa…sdax,
// sdba…sdbx, sdca…sdcl — sdz, sday, sdaz, sdby, sdbz are not in the vdev), four distributed spares AVAIL,
// no scan: line at all.
import type { ParsedPoolStatus } from '../../../../server/src/model/inventory.ts';
import { disk, group, pool, spareRow } from '../helpers.ts';
import { sd } from './sd-names.ts';

const members = [...sd('b', 'y'), ...sd('aa', 'ax'), ...sd('ba', 'bx'), ...sd('ca', 'cl')];

export const expected: ParsedPoolStatus[] = [pool({
  name: 'zdraidtest',
  vdevs: [
    group('draid', 'draid2:6d:84c:4s-0', members.map((n) => disk(n)), { draid: { parity: 2, data: 6, children: 84, spares: 4 } }),
    spareRow('draid2-0-0', 'AVAIL', null, 'spare'),
    spareRow('draid2-0-1', 'AVAIL', null, 'spare'),
    spareRow('draid2-0-2', 'AVAIL', null, 'spare'),
    spareRow('draid2-0-3', 'AVAIL', null, 'spare'),
  ],
})];
