// zfs-fuse--zpool_status_-v_LAB.txt: seven lab pools on files under /var/zfs-fuse-lab.8f33hs/vdev
// and loop devices, zl_raidz2 DEGRADED with r2b OFFLINE.
import type { ParsedPoolStatus, VdevNode } from '../../../../server/src/model/inventory.ts';
import { disk, file, group, NONE_REQUESTED, pool, spareRow } from '../helpers.ts';

const DIR = '/var/zfs-fuse-lab.8f33hs/vdev/';
const img = (n: string, extra: Parameters<typeof file>[1] = {}) => file(`${DIR}${n}.img`, extra);
const healthy = (name: string, vdevs: VdevNode[]) => pool({ name, scan: NONE_REQUESTED, vdevs });

export const expected: ParsedPoolStatus[] = [
  healthy('zl_complex', [
    group('mirror', 'mirror-0', [img('d1'), img('d2')]),
    group('mirror', 'mirror-1', [img('lg1', { class: 'log' }), img('lg2', { class: 'log' })], { class: 'log' }),
    disk('loop0', { class: 'cache' }),
    spareRow(`${DIR}sp1.img`, 'AVAIL', null, 'file'),
    spareRow(`${DIR}sp2.img`, 'AVAIL', null, 'file'),
  ]),
  healthy('zl_loopmir', [
    group('mirror', 'mirror-0', [disk('loop1'), disk('loop2')]),
    disk('loop3', { class: 'log' }),
  ]),
  healthy('zl_mirror', [group('mirror', 'mirror-0', [img('m1'), img('m2')])]),
  healthy('zl_raidz1', [group('raidz1', 'raidz1-0', [img('r1a'), img('r1b'), img('r1c')])]),
  pool({
    name: 'zl_raidz2', state: 'DEGRADED', scan: NONE_REQUESTED,
    status: 'One or more devices has been taken offline by the administrator. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
    action: "Online the device using 'zpool online' or replace the device with 'zpool replace'.",
    vdevs: [group('raidz2', 'raidz2-0', [img('r2a'), img('r2b', { state: 'OFFLINE' }), img('r2c'), img('r2d')], { state: 'DEGRADED' })],
  }),
  healthy('zl_raidz3', [group('raidz3', 'raidz3-0', [img('r3a'), img('r3b'), img('r3c'), img('r3d'), img('r3e')])]),
  healthy('zl_single', [img('s1')]),
];
