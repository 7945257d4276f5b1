import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseZpoolList, type ZpoolListPool, type ZpoolListVdev } from '../../../server/src/parsers/zpool-list.ts';
import { fixture, fixturePath } from './helpers.ts';

const K = 1024; const M = K * K; const G = M * K; const T = G * K;
const r2 = (n: number) => Math.round(n);
const ok = (path: string, columns?: string[]) => {
  const r = parseZpoolList(fixture(`list/${path}`), columns);
  if (!r.ok) throw new Error(`${path}: ${r.error.message}`);
  return r;
};
const poolRow = (p: Partial<ZpoolListPool> & Pick<ZpoolListPool, 'name'>): ZpoolListPool => ({
  guid: null, sizeBytes: null, allocBytes: null, freeBytes: null, ckpointBytes: null, expandszBytes: null,
  fragmentationPct: null, capacityPct: null, dedupRatio: null, health: null, altroot: null, vdevs: [], ...p,
});
const vdev = (v: Partial<ZpoolListVdev> & Pick<ZpoolListVdev, 'name' | 'depth' | 'type'>): ZpoolListVdev => ({
  class: 'data', sizeBytes: null, allocBytes: null, freeBytes: null, expandszBytes: null, fragmentationPct: null,
  capacityPct: null, health: 'ONLINE', ...v,
});

describe('parseZpoolList: exact rows', () => {
  it('reference 000: zpool list -v with a special class row (OpenZFS 2.1.6, TrueNAS)', () => {
    const r = ok('ref-000-line1010.txt');
    expect(r.issues).toEqual([]);
    expect(r.value).toEqual([poolRow({
      name: 'test-pool', sizeBytes: r2(7.3 * T), allocBytes: r2(3.74 * T), freeBytes: r2(3.57 * T),
      fragmentationPct: 0, capacityPct: 51, dedupRatio: 1, health: 'ONLINE', altroot: '/mnt',
      vdevs: [
        vdev({ name: 'mirror-0', depth: 1, type: 'mirror', sizeBytes: r2(3.62 * T), allocBytes: r2(1.78 * T), freeBytes: r2(1.84 * T), fragmentationPct: 0, capacityPct: 49.1 }),
        vdev({ name: 'da0', depth: 2, type: 'disk', sizeBytes: r2(3.64 * T) }),
        vdev({ name: 'da1', depth: 2, type: 'disk', sizeBytes: r2(3.64 * T) }),
        vdev({ name: 'mirror-1', depth: 1, type: 'mirror', sizeBytes: r2(3.62 * T), allocBytes: r2(1.94 * T), freeBytes: r2(1.68 * T), fragmentationPct: 0, capacityPct: 53.6 }),
        vdev({ name: 'da2', depth: 2, type: 'disk', sizeBytes: r2(3.64 * T) }),
        vdev({ name: 'da3', depth: 2, type: 'disk', sizeBytes: r2(3.64 * T) }),
        vdev({ name: 'nvd1', class: 'special', depth: 1, type: 'disk', sizeBytes: r2(54.9 * G), allocBytes: r2(11.9 * G), freeBytes: r2(42.6 * G), fragmentationPct: 1, capacityPct: 21.8 }),
      ],
    })]);
  });

  it('man page: 0.6-era columns, vdev rows shorter than the header, EXPANDSZ on one disk', () => {
    expect(ok('openzfs-man-list-v-raidz1-short-rows.txt').value).toEqual([poolRow({
      name: 'data', sizeBytes: r2(23.9 * G), allocBytes: r2(14.6 * G), freeBytes: r2(9.3 * G), fragmentationPct: 48, capacityPct: 61, dedupRatio: 1, health: 'ONLINE',
      vdevs: [
        vdev({ name: 'raidz1', depth: 1, type: 'raidz1', sizeBytes: r2(23.9 * G), allocBytes: r2(14.6 * G), freeBytes: r2(9.3 * G), fragmentationPct: 48, health: null }),
        vdev({ name: 'sda', depth: 2, type: 'disk', health: null }),
        vdev({ name: 'sdb', depth: 2, type: 'disk', health: null, expandszBytes: 10 * G }),
        vdev({ name: 'sdc', depth: 2, type: 'disk', health: null }),
      ],
    })]);
  });

  it('man page: FAULTED pool of dashes', () => {
    expect(ok('openzfs-man-list-3pools-faulted-dashes.txt').value).toEqual([
      poolRow({ name: 'rpool', sizeBytes: r2(19.9 * G), allocBytes: r2(8.43 * G), freeBytes: r2(11.4 * G), fragmentationPct: 33, capacityPct: 42, dedupRatio: 1, health: 'ONLINE' }),
      poolRow({ name: 'tank', sizeBytes: r2(61.5 * G), allocBytes: 20 * G, freeBytes: r2(41.5 * G), fragmentationPct: 48, capacityPct: 32, dedupRatio: 1, health: 'ONLINE' }),
      poolRow({ name: 'zion', health: 'FAULTED' }),
    ]);
  });

  it('FreeBSD: indirect-0 left by a removal next to mirror-1', () => {
    expect(ok('fbsd-indirect0-plus-mirror1.txt').value[0]!.vdevs).toEqual([
      vdev({ name: 'indirect-0', depth: 1, type: 'indirect' }),
      vdev({ name: 'mirror-1', depth: 1, type: 'mirror', sizeBytes: r2(99.5 * G), allocBytes: 698 * M, freeBytes: r2(98.8 * G), fragmentationPct: 0, capacityPct: 0.68 }),
      vdev({ name: 'da1p4', depth: 2, type: 'disk', sizeBytes: 100 * G }),
      vdev({ name: 'da0p4', depth: 2, type: 'disk', sizeBytes: 100 * G }),
    ]);
  });

  it('FreeBSD: indirect-0 (all dashes) next to a single top-level partition with its own usage', () => {
    expect(ok('fbsd-indirect0-single.txt')).toEqual({ ok: true, issues: [], value: [poolRow({
      name: 'zroot', sizeBytes: r2(99.5 * G), allocBytes: 698 * M, freeBytes: r2(98.8 * G), fragmentationPct: 0, capacityPct: 0, dedupRatio: 1, health: 'ONLINE',
      vdevs: [
        vdev({ name: 'indirect-0', depth: 1, type: 'indirect' }),
        vdev({ name: 'da1p4', depth: 1, type: 'disk', sizeBytes: 100 * G, allocBytes: 698 * M, freeBytes: r2(98.8 * G), fragmentationPct: 0, capacityPct: 0.68 }),
      ],
    })] });
  });

  it('FreeBSD: the whole tree of indirect-0 plus mirror-1, pool row included', () => {
    expect(ok('fbsd-indirect0-plus-mirror1.txt').value).toEqual([poolRow({
      name: 'zroot', sizeBytes: r2(99.5 * G), allocBytes: 698 * M, freeBytes: r2(98.8 * G), fragmentationPct: 0, capacityPct: 0, dedupRatio: 1, health: 'ONLINE',
      vdevs: [
        vdev({ name: 'indirect-0', depth: 1, type: 'indirect' }),
        vdev({ name: 'mirror-1', depth: 1, type: 'mirror', sizeBytes: r2(99.5 * G), allocBytes: 698 * M, freeBytes: r2(98.8 * G), fragmentationPct: 0, capacityPct: 0.68 }),
        vdev({ name: 'da1p4', depth: 2, type: 'disk', sizeBytes: 100 * G }),
        vdev({ name: 'da0p4', depth: 2, type: 'disk', sizeBytes: 100 * G }),
      ],
    })]);
  });

  it('FreeBSD: mirror members whose SIZE is a dash', () => {
    expect(ok('fbsd-mirror-member-size-dash.txt')).toEqual({ ok: true, issues: [], value: [poolRow({
      name: 'zvol0', sizeBytes: r2(1.81 * T), allocBytes: r2(1.49 * T), freeBytes: 333 * G, fragmentationPct: 5, capacityPct: 82, dedupRatio: 1, health: 'ONLINE',
      vdevs: [
        vdev({ name: 'mirror-0', depth: 1, type: 'mirror', sizeBytes: r2(1.81 * T), allocBytes: r2(1.49 * T), freeBytes: 333 * G, fragmentationPct: 5, capacityPct: 82.1 }),
        vdev({ name: 'gpt/sdisk1', depth: 2, type: 'disk' }),
        vdev({ name: 'gpt/ndisk1', depth: 2, type: 'disk' }),
      ],
    })] });
  });

  it.each([
    ['fbsd-usb-raidz1.txt', 'raidz1' as const, 630 * M, r2(6.38 * G), 8, 8.79],
    ['fbsd-usb-raidz2-list-v.txt', 'raidz2' as const, 322 * K, 7 * G, 0, 0],
  ])('FreeBSD: USB %s, four 1.84G gpt/usbN members', (path, type, alloc, free, cap, vdevCap) => {
    const members = ['gpt/usb0', 'gpt/usb1', 'gpt/usb2', 'gpt/usb3'].map((name) => vdev({ name, depth: 2, type: 'disk', sizeBytes: r2(1.84 * G) }));
    expect(ok(path)).toEqual({ ok: true, issues: [], value: [poolRow({
      name: 'upool', sizeBytes: 7 * G, allocBytes: alloc, freeBytes: free, fragmentationPct: 0, capacityPct: cap, dedupRatio: 1, health: 'ONLINE',
      vdevs: [vdev({ name: `${type}-0`, depth: 1, type, sizeBytes: 7 * G, allocBytes: alloc, freeBytes: free, fragmentationPct: 0, capacityPct: vdevCap }), ...members],
    })] });
  });

  it('reference 000 (line 951): the same pool before data, special row of dashes, ALTROOT /mnt', () => {
    expect(ok('ref-000-line951.txt')).toEqual({ ok: true, issues: [], value: [poolRow({
      name: 'test-pool', sizeBytes: r2(7.3 * T), allocBytes: r2(15.1 * G), freeBytes: r2(7.29 * T),
      fragmentationPct: 0, capacityPct: 0, dedupRatio: 1, health: 'ONLINE', altroot: '/mnt',
      vdevs: [
        vdev({ name: 'mirror-0', depth: 1, type: 'mirror', sizeBytes: r2(3.62 * T), allocBytes: r2(7.22 * G), freeBytes: r2(3.62 * T), fragmentationPct: 0, capacityPct: 0.19 }),
        vdev({ name: 'da0', depth: 2, type: 'disk', sizeBytes: r2(3.64 * T) }),
        vdev({ name: 'da1', depth: 2, type: 'disk', sizeBytes: r2(3.64 * T) }),
        vdev({ name: 'mirror-1', depth: 1, type: 'mirror', sizeBytes: r2(3.62 * T), allocBytes: r2(7.87 * G), freeBytes: r2(3.62 * T), fragmentationPct: 0, capacityPct: 0.21 }),
        vdev({ name: 'da2', depth: 2, type: 'disk', sizeBytes: r2(3.64 * T) }),
        vdev({ name: 'da3', depth: 2, type: 'disk', sizeBytes: r2(3.64 * T) }),
        vdev({ name: 'nvd1', class: 'special', depth: 1, type: 'disk', sizeBytes: r2(54.9 * G), allocBytes: r2(24.7 * M), freeBytes: r2(54.5 * G), fragmentationPct: 0, capacityPct: 0.04 }),
      ],
    })] });
  });

  it('FreeBSD: EXPANDSZ pending', () => {
    expect(ok('fbsd-pool-with-expandsz-pending.txt').value).toEqual([poolRow({
      name: 'zvol0', sizeBytes: r2(1.81 * T), allocBytes: r2(1.49 * T), freeBytes: 333 * G, expandszBytes: r2(3.62 * T),
      fragmentationPct: 5, capacityPct: 82, dedupRatio: 1, health: 'ONLINE',
    })]);
  });

  it('FreeNAS -Hp with the -o column list (telegraf fixture)', () => {
    const cols = 'name,health,size,alloc,free,fragmentation,capacity,dedupratio'.split(',');
    expect(ok('freenas-4pools-Hp-custom-columns.txt', cols).value.slice(0, 2)).toEqual([
      poolRow({ name: 'freenas-boot', health: 'ONLINE', sizeBytes: 30601641984, allocBytes: 2022177280, freeBytes: 28579464704, capacityPct: 6, dedupRatio: 1 }),
      poolRow({ name: 'red1', health: 'ONLINE', sizeBytes: 8933531975680, allocBytes: 1126164848640, freeBytes: 7807367127040, fragmentationPct: 8, capacityPct: 12, dedupRatio: 1.83 }),
    ]);
    expect(ok('freebsd-Hp-unavail-pool-all-dashes.txt', cols).value).toEqual([poolRow({ name: 'temp2', health: 'UNAVAIL' })]);
  });

  it('zfs-fuse -H (8 default columns) with a FAULTED pool of dashes', () => {
    const r = ok('zfs-fuse--zpool_list_-H_with_FAULTED.txt');
    expect(r.value).toHaveLength(12);
    expect(r.value[1]).toEqual(poolRow({ name: 'fmirror', sizeBytes: 123 * M, allocBytes: r2(51.5 * M), freeBytes: r2(71.5 * M), capacityPct: 41, dedupRatio: 1, health: 'ONLINE' }));
    expect(r.value[5]).toEqual(poolRow({ name: 'fsingle', health: 'FAULTED' }));
  });

  it('zfs-fuse human table misaligned by DEGRADED', () => {
    expect(ok('zfs-fuse--zpool_list_fmirror_UNAVAIL.txt').value).toEqual([poolRow({
      name: 'fmirror', sizeBytes: 123 * M, allocBytes: r2(52.4 * M), freeBytes: r2(70.6 * M), capacityPct: 42, dedupRatio: 1, health: 'DEGRADED',
    })]);
  });

  it('zpool list -j (OpenZFS man page example)', () => {
    expect(ok('openzfs-man-zpool-list-j.json').value).toEqual([poolRow({
      name: 'tank', guid: '15220353080205405147', sizeBytes: 111 * G, allocBytes: r2(30.8 * G), freeBytes: r2(80.2 * G),
      fragmentationPct: 0, capacityPct: 27, dedupRatio: 1, health: 'ONLINE',
    })]);
  });
});

describe('parseZpoolList: errors and the rest of the fixtures', () => {
  it('zfs-fuse usage errors → error on line 1', () => {
    for (const f of ['zfs-fuse--zpool_list_-v.txt', 'zfs-fuse--zpool_list_-Hp.txt', 'zfs-fuse--zpool_list_nosuchpool.txt', 'zfs-fuse--zpool_list_fsingle_DAEMON_DEAD.txt']) {
      const r = parseZpoolList(fixture(`list/${f}`));
      expect(r.ok, f).toBe(false);
      if (!r.ok) expect(r.error.line).toBe(1);
    }
  });
  it('8 tab fields whose HEALTH is not a state: refuses to guess without -o columns', () => {
    const r = parseZpoolList(fixture('list/freebsd-Hp-unavail-pool-all-dashes.txt'));
    expect(r.ok).toBe(false);
  });
  const skip = new Set(['zfs-fuse--zpool_list_-v.txt', 'zfs-fuse--zpool_list_-Hp.txt', 'zfs-fuse--zpool_list_-H_-p.txt', 'zfs-fuse--zpool_list_nosuchpool.txt',
    'zfs-fuse--zpool_list_fsingle_DAEMON_DEAD.txt', 'freebsd-Hp-unavail-pool-all-dashes.txt', 'freenas-4pools-Hp-custom-columns.txt',
    'freebsd14-Hp-frag-dedup-no-suffix.txt', 'zfs-fuse--zpool_list_-H_-o_all.txt', 'zfs-fuse--zpool_list_-H_-o_name,health_PERMANENT_ERRORS.txt']);
  const files = readdirSync(fixturePath('list')).filter((f) => !skip.has(f));
  it.each(files)('%s parses: every pool has a name, health and (unless faulted) a size', (f) => {
    const r = ok(f);
    expect(r.value.length).toBeGreaterThan(0);
    for (const p of r.value) {
      expect(p.health).toMatch(/^(ONLINE|DEGRADED|FAULTED|UNAVAIL)$/);
      if (p.health !== 'FAULTED') expect(p.sizeBytes).toBeGreaterThan(0);
    }
  });
  it('-o lists: name,health and the 10-column zfs-fuse set with guid', () => {
    expect(ok('zfs-fuse--zpool_list_-H_-o_name,health_PERMANENT_ERRORS.txt', ['name', 'health']).value.map((p) => `${p.name}:${p.health}`)[4]).toBe('zl_raidz2:DEGRADED');
    const all = ok('zfs-fuse--zpool_list_-H_-o_all.txt', 'name,size,allocated,free,capacity,dedupratio,health,altroot,guid,version'.split(','));
    expect(all.value[0]!.guid).toBe('7255765570295457627');
    expect(ok('freebsd14-Hp-frag-dedup-no-suffix.txt', 'name,health,size,alloc,free,fragmentation,capacity,dedupratio'.split(',')).value[0])
      .toEqual(poolRow({ name: 'zroot', health: 'ONLINE', sizeBytes: 67108864000, allocBytes: 11959578624, freeBytes: 55149285376, fragmentationPct: 4, capacityPct: 17, dedupRatio: 1 }));
  });
});
