/**
 * Reference 004: "partitioned mirrored Optanes for multiple of ZIL/SLOG, L2ARC, and Special
 * Metadata". Two Optane 905P (280 GB = 260.8 GiB) each split into 15.5 GiB (log), 199 GiB
 * (special) and 45 GiB (L2ARC). The vdev members must show at their partition sizes (not the
 * drive's 260 GiB), each drive lists its three roles, the plan that makes these partitions is
 * accepted with the right sizes, and the same layout on ONE consumer NAND drive is warned.
 * The lsblk/gpart texts are constructed in the shape of the real outputs in tests/fixtures/devices
 * (sizes from the 004 case); the parsers themselves are tested on real outputs.
 */
import { describe, expect, it } from 'vitest';
import { drivesCollector } from '../../server/src/gather/collectors/drives.ts';
import { layoutLines } from '../../server/src/gather/layout-words.ts';
import { resolvePoolDrives } from '../../server/src/gather/resolve-drives.ts';
import type { Drive, Pool } from '../../server/src/model/inventory.ts';
import { rawText, type RawSet } from '../../server/src/snapshot/raw-set.ts';
import { runRules } from '../../rules/engine/engine.ts';
import { ALL_RULES } from '../../rules/index.ts';
import { memberSizeBytes } from '../../rules/lib/layout-geometry.ts';
import { planAddVdev } from '../../server/src/planner/add-vdev.ts';
import { driveRows } from '../../ui/src/overview/drives-table.ts';
import { group, host, inClass, leaf, pool } from '../support/builders.ts';

const GiB = 2 ** 30;
const SIZES = { slog: 15.5 * GiB, special: 199 * GiB, l2arc: 45 * GiB };
const OPTANE_BYTES = 280065171456;

const part = (disk: string, i: number, size: number, label: string) => ({
  name: `${disk}p${i}`, path: `/dev/${disk}p${i}`, type: 'part', size, rota: false, partlabel: label, partuuid: `0000000${i}-${disk}-4000-8000-000000000000`,
});
const optaneDisk = (disk: string, model = 'INTEL SSDPED1D280GA', size = OPTANE_BYTES) => ({
  name: disk, path: `/dev/${disk}`, type: 'disk', size, rota: false, tran: 'nvme', model, serial: `SER-${disk}`,
  children: [part(disk, 1, SIZES.slog, 'slog'), part(disk, 2, SIZES.special, 'special'), part(disk, 3, SIZES.l2arc, 'l2arc')],
});
const hdd = (n: string) => ({ name: n, path: `/dev/${n}`, type: 'disk', size: 8e12, rota: true, tran: 'sata', model: 'WDC WD80EFZZ', serial: `SER-${n}` });

function linuxDrives(nvme: object[]): Drive[] {
  const raw: RawSet = { 'lsblk.json': rawText(JSON.stringify({ blockdevices: [hdd('sda'), hdd('sdb'), hdd('sdc'), hdd('sdd'), ...nvme] }), ['lsblk', '-J', '-O', '-b']) };
  return drivesCollector.build(raw, { platform: 'linux' } as never).value ?? [];
}

const tank004: Pool = pool('tank', [
  group('mirror', 'mirror-0', [leaf('sda'), leaf('sdb')]),
  group('mirror', 'mirror-1', [leaf('sdc'), leaf('sdd')]),
  inClass('log', group('mirror', 'mirror-2', [leaf('nvme0n1p1'), leaf('nvme1n1p1')])),
  inClass('special', group('mirror', 'mirror-3', [leaf('nvme0n1p2'), leaf('nvme1n1p2')])),
  inClass('cache', leaf('nvme0n1p3')), inClass('cache', leaf('nvme1n1p3')),
]);

describe('004: partitioned mirrored Optane for SLOG + special + L2ARC', () => {
  const drives = linuxDrives([optaneDisk('nvme0n1'), optaneDisk('nvme1n1')]);
  const [resolved] = resolvePoolDrives([tank004], drives);

  it('the gather layer reads each Optane\'s partition table from lsblk, sizes exact', () => {
    const d = drives.find((x) => x.devPath === '/dev/nvme0n1')!;
    expect(d.sizeBytes).toBe(OPTANE_BYTES);
    expect(d.partitions!.map((p) => [p.name, p.index, p.sizeBytes, p.label])).toEqual([
      ['nvme0n1p1', 1, SIZES.slog, 'slog'], ['nvme0n1p2', 2, SIZES.special, 'special'], ['nvme0n1p3', 3, SIZES.l2arc, 'l2arc'],
    ]);
  });

  it('vdev members are sized by their partitions (15.5G / 199G / 45G), not the 260 GiB drive', () => {
    const log = resolved!.vdevs.find((v) => v.class === 'log')!;
    expect(log.children.map((c) => c.sizeBytes)).toEqual([SIZES.slog, SIZES.slog]);
    expect(memberSizeBytes(resolved!.vdevs.find((v) => v.class === 'special')!, drives)).toBe(SIZES.special);
    expect(layoutLines(resolved!, drives)).toEqual([
      'Data: 2 × MIRROR | 2 wide | 7.28 TiB',
      'Log: 1 × MIRROR | 2 wide | 15.5 GiB',
      'Metadata: 1 × MIRROR | 2 wide | 199 GiB',
      'Cache: 2 × DISK | 1 wide | 45 GiB',
    ]);
  });

  it('each drive shows its three roles, per partition with its size (UI drives table)', () => {
    const row = driveRows(drives, [resolved!]).find((r) => r.drive.devPath === '/dev/nvme0n1')!;
    expect(row.roles.map((r) => [r.cls, r.partition, r.sizeBytes])).toEqual([['log', 'nvme0n1p1', SIZES.slog], ['special', 'nvme0n1p2', SIZES.special], ['cache', 'nvme0n1p3', SIZES.l2arc]]);
    expect(row.roleText).toBe('tank · log · mirror-2 (nvme0n1p1, 15.5 GiB), tank · special · mirror-3 (nvme0n1p2, 199 GiB), tank · cache (nvme0n1p3, 45 GiB)');
  });

  it('is accepted by the rules: no warning about the Optane partitions (special-device-plp, QLC, multi-role)', () => {
    const a = runRules(ALL_RULES, { Pools: [resolved!], Drives: drives, Host: host('2.2.6') });
    const loud = a.findings.filter((f) => (f.severity === 'warning' || f.severity === 'critical') && /nvme/.test(`${f.subject.id} ${f.title}`));
    expect(loud.map((f) => `${f.ruleId}: ${f.title}`)).toEqual([]);
    expect(a.results.find((r) => r.ruleId === 'special-device-plp')!.status).toBe('passed');
  });

  it('the plan that makes these partitions on two new Optanes: accepted (special mirrored like the data), partition sizes right, dry run first', () => {
    const base = pool('tank', [group('mirror', 'mirror-0', [leaf('sda'), leaf('sdb')]), group('mirror', 'mirror-1', [leaf('sdc'), leaf('sdd')])]);
    const plan = planAddVdev({
      kind: 'special', pool: base, devices: ['/dev/nvme0n1', '/dev/nvme1n1'], openzfs: '2.2.6', host: host('2.2.6'), drives: [],
      partitions: [{ role: 'slog', sizeBytes: SIZES.slog }, { role: 'special', sizeBytes: SIZES.special }, { role: 'l2arc', sizeBytes: SIZES.l2arc }],
    });
    expect(plan.redundancy).toMatchObject({ matched: true, acceptable: true });
    expect(plan.steps[0]!.display).toBe('sgdisk --new=1:0:+15872M --typecode=1:BF01 --change-name=1:slog --new=2:0:+203776M --typecode=2:BF01 --change-name=2:special --new=3:0:+46080M --typecode=3:BF01 --change-name=3:l2arc /dev/nvme0n1');
    expect(plan.steps.map((s) => s.display).slice(2)).toEqual([
      'zpool add -n -o ashift=12 tank special mirror /dev/nvme0n1p2 /dev/nvme1n1p2',
      'zpool add -o ashift=12 tank special mirror /dev/nvme0n1p2 /dev/nvme1n1p2',
    ]);
  });
});

describe('004 counter-case: ONE partitioned consumer NAND drive for SLOG + special + L2ARC', () => {
  const drives = linuxDrives([optaneDisk('nvme0n1', 'Samsung SSD 980 1TB', 1e12)]);
  const single: Pool = pool('tank', [
    group('mirror', 'mirror-0', [leaf('sda'), leaf('sdb')]),
    inClass('log', leaf('nvme0n1p1')), inClass('special', leaf('nvme0n1p2')), inClass('cache', leaf('nvme0n1p3')),
  ]);
  const [resolved] = resolvePoolDrives([single], drives);

  it('is warned: the special partition on NAND without PLP, and its lack of redundancy; sizes still per partition', () => {
    const d = drives.find((x) => x.devPath === '/dev/nvme0n1')!;
    // Reported without PLP, as the Samsung 980 (consumer, DRAM-less) has none.
    const a = runRules(ALL_RULES, { Pools: [resolved!], Drives: drives.map((x) => (x.id === d.id ? { ...x, powerLossProtection: 'no' as const } : x)), Host: host('2.2.6') });
    const warned = a.findings.filter((f) => f.severity === 'warning' || f.severity === 'critical').map((f) => f.ruleId);
    expect(warned).toContain('special-device-plp');
    expect(warned).toContain('special-redundancy');
    expect(layoutLines(resolved!, drives)).toContain('Metadata: 1 × DISK | 1 wide | 199 GiB');
  });
});

describe('FreeBSD: partitions from gpart list', () => {
  it('nvd0p1/p2 sizes and gpt labels from `geom part list`, and leaves named gpt/<label> resolve to them', () => {
    const gpart = ['nvd0', 'nvd1'].map((d) => [
      `Geom name: ${d}`, 'scheme: GPT', 'Providers:',
      `1. Name: ${d}p1`, `   Mediasize: ${SIZES.slog} (16G)`, `   rawuuid: 11111111-${d}`, `   label: slog-${d}`, '   type: freebsd-zfs', '   index: 1',
      `2. Name: ${d}p2`, `   Mediasize: ${SIZES.special} (199G)`, `   rawuuid: 22222222-${d}`, `   label: special-${d}`, '   type: freebsd-zfs', '   index: 2',
      'Consumers:', `1. Name: ${d}`, `   Mediasize: ${OPTANE_BYTES} (261G)`, '',
    ].join('\n')).join('\n');
    const raw: RawSet = { 'disks.txt': rawText('ada0 ada1 nvd0 nvd1'), 'gpart-list.txt': rawText(gpart, ['geom', 'part', 'list']) };
    const drives = drivesCollector.build(raw, { platform: 'freebsd' } as never).value ?? [];
    const nvd0 = drives.find((d) => d.devPath === '/dev/nvd0')!;
    expect(nvd0.partitions!.map((p) => [p.name, p.sizeBytes, p.label, p.type])).toEqual([['nvd0p1', SIZES.slog, 'slog-nvd0', 'freebsd-zfs'], ['nvd0p2', SIZES.special, 'special-nvd0', 'freebsd-zfs']]);
    const p = pool('tank', [group('mirror', 'mirror-0', [leaf('ada0'), leaf('ada1')]), inClass('log', group('mirror', 'mirror-1', [leaf('gpt/slog-nvd0'), leaf('gpt/slog-nvd1')]))]);
    const [r] = resolvePoolDrives([p], drives);
    const log = r!.vdevs.find((v) => v.class === 'log')!;
    expect(log.children.map((c) => [c.driveId, c.sizeBytes])).toEqual([[nvd0.id, SIZES.slog], [drives.find((d) => d.devPath === '/dev/nvd1')!.id, SIZES.slog]]);
  });
});
