// zfs-fuse--zpool_status.txt (and the identical -v output): the lab's twelve healthy pools, six on
// files under /var/lab/vdevs and six on loop devices; zfs-fuse prints " scrub: none requested".
import type { ParsedPoolStatus, VdevNode } from '../../../../server/src/model/inventory.ts';
import { disk, file, group, NONE_REQUESTED, pool, spareRow } from '../helpers.ts';

const img = (n: string, extra: Parameters<typeof file>[1] = {}) => file(`/var/lab/vdevs/${n}.img`, extra);
const healthy = (name: string, vdevs: VdevNode[]) => pool({ name, scan: NONE_REQUESTED, vdevs });
const loops = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => disk(`loop${from + i}`));

export const expected: ParsedPoolStatus[] = [
  healthy('fcomplex', [
    group('mirror', 'mirror-0', [img('d1'), img('d2')]),
    group('mirror', 'mirror-1', [img('l1', { class: 'log' }), img('l2', { class: 'log' })], { class: 'log' }),
    img('l3', { class: 'log' }),
    disk('loop0', { class: 'cache' }),
    spareRow('/var/lab/vdevs/sp1.img', 'AVAIL', null, 'file'),
    spareRow('/var/lab/vdevs/sp2.img', 'AVAIL', null, 'file'),
  ]),
  healthy('fmirror', [group('mirror', 'mirror-0', [img('m1'), img('m2')])]),
  healthy('fraidz1', [group('raidz1', 'raidz1-0', [img('z1a'), img('z1b'), img('z1c')])]),
  healthy('fraidz2', [group('raidz2', 'raidz2-0', [img('z2a'), img('z2b'), img('z2c'), img('z2d')])]),
  healthy('fraidz3', [group('raidz3', 'raidz3-0', [img('z3a'), img('z3b'), img('z3c'), img('z3d'), img('z3e')])]),
  healthy('fsingle', [img('s1')]),
  healthy('lcomplex', [
    group('mirror', 'mirror-0', loops(16, 17)),
    group('mirror', 'mirror-1', [disk('loop18', { class: 'log' }), disk('loop19', { class: 'log' })], { class: 'log' }),
    disk('loop20', { class: 'cache' }),
    spareRow('loop21', 'AVAIL'),
  ]),
  healthy('lmirror', [group('mirror', 'mirror-0', loops(2, 3))]),
  healthy('lraidz1', [group('raidz1', 'raidz1-0', loops(4, 6))]),
  healthy('lraidz2', [group('raidz2', 'raidz2-0', loops(7, 10))]),
  healthy('lraidz3', [group('raidz3', 'raidz3-0', loops(11, 15))]),
  healthy('lsingle', [disk('loop1')]),
];
