/**
 * `plan add-slog|add-special` on pools parsed from real `zpool status` outputs (mirror, raidz2,
 * with and without special/log), and one live zfs-fuse run applying a generated `add log mirror`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '../../server/src/model/inventory.ts';
import { parseZpoolStatus } from '../../server/src/parsers/zpool-status.ts';
import { planAddVdev } from '../../server/src/planner/add-vdev.ts';
import { PlanRefused } from '../../server/src/planner/plan-refused.ts';
import { displayName } from '../../server/src/planner/status-preview.ts';
import { partitionName } from '../../rules/lib/commands.ts';
import { dataset, drive, group, host, inClass, leaf, pool as poolOf } from '../support/builders.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';

function poolFrom(file: string, opts: Partial<Pool> = {}): Pool {
  const r = parseZpoolStatus(readFileSync(join(import.meta.dirname, '../fixtures/planner', file), 'utf8'));
  if (!r.ok) throw new Error(r.error.message);
  const p = r.value[0]!;
  return poolOf(p.name, p.vdevs, { state: p.state, ...opts });
}

const ids = (n: number, prefix = 'nvme-INTEL_SSDPEK1A058GA_PHOC1234') => Array.from({ length: n }, (_, i) => `/dev/disk/by-id/${prefix}${i}`);
/** Tree shape for comparisons: class, type, name, children — what `zpool status` shows. */
type Shape = { class: string; type: string; name: string; children: Shape[] };
const shape = (v: { class: string; type: string; name: string; children: readonly unknown[] }): Shape => ({
  class: v.class, type: v.type, name: v.name, children: (v.children as typeof v[]).map(shape),
});

describe('plan add-special', () => {
  it('raidz2 pool: 3-way mirror required, permanent, ashift matched', () => {
    const tank = poolFrom('truenas-scale-raidz2-fake-file-offline.txt', { ashift: 12 });
    const plan = planAddVdev({ kind: 'special', pool: tank, devices: ids(3), openzfs: '2.2.4', datasets: [dataset('tank/share')], specialSmallBlocks: 16384 });
    expect(plan.redundancy).toMatchObject({ dataTolerance: 2, newTolerance: 2, requiredSides: 3, matched: true, acceptable: true, lowerRedundancyAccepted: false });
    expect(plan.steps[0]!.argv).toEqual(['zpool', 'add', '-n', '-o', 'ashift=12', 'tank', 'special', 'mirror', ...ids(3)]);
    expect(plan.steps[1]!.argv).toEqual(['zpool', 'add', '-o', 'ashift=12', 'tank', 'special', 'mirror', ...ids(3)]);
    expect(plan.steps[1]!.reversible).toBe('no');
    expect(plan.steps[1]!.why).toMatch(/raidz2 top-level vdev \(raidz2-0\).*\[OpenZFS module\/zfs\/vdev_removal.c at zfs-2.4.4, spa_vdev_remove_top_check\]\(https:\/\/github.com\/openzfs\/zfs\/blob\/zfs-2.4.4\/module\/zfs\/vdev_removal.c#L\d+\)/);
    expect(plan.steps[2]!.display).toBe('zfs set special_small_blocks=16384 tank/share');
    expect(plan.steps[2]!.reversible).toBe('yes');
    expect(plan.warnings).toEqual([]);
    expect(plan.added.name).toBe('mirror-1');
  });

  it('raidz2 pool with only 2 devices: refused (never a silent -f), says 3 devices are needed', () => {
    const tank = poolFrom('truenas-scale-raidz2-fake-file-offline.txt', { ashift: 12 });
    const attempt = () => planAddVdev({ kind: 'special', pool: tank, devices: ids(2), openzfs: '2.3.0' });
    expect(attempt).toThrow(PlanRefused);
    expect(attempt).toThrow(/needs 3 devices \(a 3-way mirror\).*got 2.*zpoolconcepts\(7\) at zfs-2\.4\.4 \(https:\/\/github\.com\/openzfs\/zfs\/blob\/zfs-2\.4\.4\/man\/man7\/zpoolconcepts\.7\)/);
  });

  it('raidz2 pool with 2 devices and acceptLowerRedundancy: -f printed, labelled loudly in the step and the warnings', () => {
    const tank = poolFrom('truenas-scale-raidz2-fake-file-offline.txt', { ashift: 12 });
    const plan = planAddVdev({ kind: 'special', pool: tank, devices: ids(2), openzfs: '2.3.0', acceptLowerRedundancy: true });
    expect(plan.redundancy).toMatchObject({ dataTolerance: 2, newTolerance: 1, requiredSides: 3, matched: false, acceptable: true, lowerRedundancyAccepted: true });
    expect(plan.redundancy.reason).toMatch(/^LOWER REDUNDANCY ACCEPTED/);
    expect(plan.steps[0]!.argv.slice(0, 4)).toEqual(['zpool', 'add', '-n', '-f']);
    expect(plan.steps[1]!.argv).toEqual(['zpool', 'add', '-f', '-o', 'ashift=12', 'tank', 'special', 'mirror', ...ids(2)]);
    expect(plan.steps[1]!.reversible).toBe('no');
    expect(plan.steps[1]!.why).toMatch(/^LOWER REDUNDANCY ACCEPTED \(-f\): 1 failure tolerated instead of 2/);
    expect(plan.warnings[0]).toMatch(/^LOWER REDUNDANCY ACCEPTED.*WHOLE POOL is lost/);
  });

  it('a matched plan never carries -f, even when acceptLowerRedundancy is set', () => {
    const tank = poolFrom('truenas-scale-raidz2-fake-file-offline.txt', { ashift: 12 });
    const plan = planAddVdev({ kind: 'special', pool: tank, devices: ids(3), openzfs: '2.3.0', acceptLowerRedundancy: true });
    expect(plan.steps[1]!.argv).not.toContain('-f');
    expect(plan.redundancy.lowerRedundancyAccepted).toBe(false);
  });

  it('mirror pool (000 test-pool, already has a single special): removable, 2-way mirror, next id mirror-3', () => {
    const tp = poolFrom('000-test-pool-mirrors-special.txt', { ashift: 12 });
    const plan = planAddVdev({ kind: 'special', pool: tp, devices: ids(2), openzfs: '2.1.6', datasets: [dataset('test-pool/share-media', { recordsize: 16384 })], specialSmallBlocks: 16384 });
    expect(plan.redundancy).toMatchObject({ dataTolerance: 1, requiredSides: 2, matched: true });
    expect(plan.steps[1]!.reversible).toBe('yes');
    expect(plan.added.name).toBe('mirror-3');
    expect(plan.warnings.join(" ")).toMatch(/sends every data block.*\[OpenZFS issue #14492\]\(https:\/\/github.com\/openzfs\/zfs\/issues\/14492\)/);
    const r = parseZpoolStatus(plan.preview);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value[0]!.vdevs.filter((v) => v.class === 'special').map((v) => v.name)).toEqual(['nvd1', 'mirror-3']);
  });

  it('mirror pool (ZoL 0.8 raid10): sgdisk partitioning of an Optane pair for SLOG + special', () => {
    const z = poolFrom('zol08-raid10-ata-ids-features.txt', { ashift: 12 });
    const devs = ids(2);
    const plan = planAddVdev({
      kind: 'special', pool: z, devices: devs, openzfs: '0.8.4', host: host('0.8.4'),
      partitions: [{ role: 'slog', sizeBytes: 16 * 2 ** 30 }, { role: 'special', sizeBytes: 40 * 2 ** 30 }],
    });
    expect(plan.steps[0]!.display).toBe(`sgdisk --new=1:0:+16384M --typecode=1:BF01 --change-name=1:slog --new=2:0:+40960M --typecode=2:BF01 --change-name=2:special ${devs[0]}`);
    expect(plan.steps[0]!.reversible).toBe('partly');
    expect(plan.steps[3]!.argv).toEqual(['zpool', 'add', '-o', 'ashift=12', 'zseatera4', 'special', 'mirror', `${devs[0]}-part2`, `${devs[1]}-part2`]);
    expect(partitionName('/dev/nvme0n1', 2)).toBe('/dev/nvme0n1p2');
    expect(partitionName('/dev/sda', 1)).toBe('/dev/sda1');
  });
});

describe('plan add-slog', () => {
  it('mirror pool with a single log (000 bench-pool): mirrored log added as mirror-2, reversible', () => {
    const bp = poolFrom('000-bench-pool-mirror-log.txt', { ashift: 12 });
    const plan = planAddVdev({ kind: 'slog', pool: bp, devices: ids(2), openzfs: '2.1.6' });
    expect(plan.steps).toHaveLength(2);
    expect(plan.steps[1]!.argv).toEqual(['zpool', 'add', '-o', 'ashift=12', 'bench-pool', 'log', 'mirror', ...ids(2)]);
    expect(plan.steps[1]!.reversible).toBe('yes');
    const r = parseZpoolStatus(plan.preview);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value[0]!.vdevs.map(shape)).toEqual(plan.previewVdevs.map(shape));
    expect(r.value[0]!.vdevs.filter((v) => v.class === 'log').map((v) => v.name)).toEqual(['da0', 'mirror-2']);
    expect(plan.added.children.map((c) => c.name)).toEqual(ids(2).map(displayName));
  });

  it('raidz2 pool, one device: allowed (log vdevs are exempt) with a warning, and not called "matched"', () => {
    const tank = poolFrom('truenas-scale-raidz2-fake-file-offline.txt', { ashift: null });
    const plan = planAddVdev({ kind: 'slog', pool: tank, devices: ids(1), openzfs: '2.2.4' });
    expect(plan.redundancy).toMatchObject({ dataTolerance: 2, newTolerance: 0, matched: false, acceptable: true });
    expect(plan.redundancy.reason).toMatch(/^not redundant: only in-flight sync writes are at risk if it fails together with a crash/);
    expect(plan.redundancy.summary).not.toMatch(/matched/i);
    expect(plan.steps[0]!.argv).toEqual(['zpool', 'add', '-n', 'tank', 'log', ids(1)[0]]);
    expect(plan.steps[1]!.argv).toEqual(['zpool', 'add', 'tank', 'log', ids(1)[0]]);
    expect(plan.warnings.join(' ')).toMatch(/single-device SLOG/);
    expect(plan.warnings.join(' ')).toMatch(/ashift is unknown/);
  });
});

describe('live: apply an add-log-mirror plan on zfs-fuse', () => {
  const live = zfsFuseAvailable();
  let zf: ZfsFuseHandle | undefined;
  beforeAll(async () => { if (live) zf = await startZfsFuse(); }, 600_000);
  afterAll(async () => { await zf?.stop(); }, 120_000);

  it.runIf(live)('zpool status after the plan equals the preview tree', async () => {
    const h = zf!;
    const [a, b, l1, l2] = await Promise.all(['pa', 'pb', 'pl1', 'pl2'].map((n) => h.fileVdev(n)));
    await h.createPool('h3plan', ['mirror', a!, b!]);
    const before = parseZpoolStatus((await h.must('zpool', ['status', 'h3plan'])).stdout);
    if (!before.ok) throw new Error(before.error.message);
    const p = poolOf('h3plan', before.value[0]!.vdevs, { ashift: null });
    const plan = planAddVdev({ kind: 'slog', pool: p, devices: [l1!, l2!], openzfs: null });
    // zfs-fuse (pool v23) has no -o ashift on add; the plan adds none when the ashift is unknown.
    expect(plan.steps[1]!.argv).toEqual(['zpool', 'add', 'h3plan', 'log', 'mirror', l1, l2]);
    const [prog, ...args] = plan.steps[1]!.argv;
    await h.must(prog!, args);
    const after = parseZpoolStatus((await h.must('zpool', ['status', 'h3plan'])).stdout);
    if (!after.ok) throw new Error(after.error.message);
    const preview = parseZpoolStatus(plan.preview);
    if (!preview.ok) throw new Error(preview.error.message);
    expect(after.value[0]!.vdevs.map(shape)).toEqual(preview.value[0]!.vdevs.map(shape));
    expect(after.value[0]!.vdevs.find((v) => v.class === 'log')!.name).toBe('mirror-1');
  }, 300_000);
});

/** The demo host of reference 000: TrueNAS CORE (FreeBSD), bench-pool = mirror da1 da3, unused Optane nvd1. */
const core = host('2.1.6', { platform: 'freebsd', distribution: 'truenas-core' });
const coreDrives = [
  drive('wwn:0x50014ee264eae411', { devPath: '/dev/da1', aliases: ['/dev/da1'], byIdPath: null }),
  drive('wwn:0x50014ee264eae413', { devPath: '/dev/da3', aliases: ['/dev/da3'], byIdPath: null }),
  drive('ms:INTEL_SSDPEK1A058GA:PHOC209200KC058A', { devPath: '/dev/nvd1', aliases: ['/dev/nvd1'], byIdPath: null, media: 'nvme', sizeBytes: 58977157120 }),
  drive('ms:INTEL_SSDPEK1A058GA:PHOC209200KC058B', { devPath: '/dev/nvd2', aliases: ['/dev/nvd2'], byIdPath: null, media: 'nvme', sizeBytes: 58977157120 }),
];
const benchPool = () => poolFrom('000-bench-pool-mirror-log.txt', { ashift: 12 });

describe('device validation (CLI and API share it: it lives in planAddVdev)', () => {
  const base = { kind: 'slog' as const, openzfs: '2.1.6', host: core, drives: coreDrives };
  const refused = (devices: string[], extra: Partial<Parameters<typeof planAddVdev>[0]> = {}) => {
    try {
      planAddVdev({ ...base, pool: benchPool(), devices, ...extra });
    } catch (err) {
      if (err instanceof PlanRefused) return `${err.reason}: ${err.message}`;
      throw err;
    }
    return 'accepted';
  };

  it('refuses option-like, control-character, ".." and unknown names', () => {
    expect(refused(['-f', 'nvd1'])).toMatch(/^invalid-device: device "-f" refused: it starts with "-"/);
    expect(refused(['--force'])).toMatch(/^invalid-device: .*starts with "-"/);
    expect(refused(['/dev/nvd1\nzpool destroy tank'])).toMatch(/^invalid-device: device "\/dev\/nvd1\?zpool destroy tank" refused: it contains control characters/);
    expect(refused(['/dev/../etc/passwd'])).toMatch(/^invalid-device: .*contains "\.\."/);
    expect(refused(['sdz'])).toMatch(/^invalid-device: device "sdz" refused: neither a \/dev\/… path nor a device of this host's inventory \(4 drives known\)/);
    expect(refused(['/tmp/file.img'])).toMatch(/^invalid-device: .*neither a \/dev\/… path/);
    expect(refused(['/dev/nvd1', 'nvd1'])).toMatch(/^invalid-device: devices \/dev\/nvd1 and nvd1 name the same device/);
  });

  it('resolves a bare name the inventory knows to its /dev path', () => {
    const plan = planAddVdev({ ...base, pool: benchPool(), devices: ['nvd1', 'nvd2'] });
    expect(plan.steps[1]!.display).toBe('zpool add -o ashift=12 bench-pool log mirror /dev/nvd1 /dev/nvd2');
  });

  it('refuses devices already in a pool and names the pool and role', () => {
    // bench-pool: data mirror-0 (da1, da3) and a log da0 (000).
    expect(refused(['da1'])).toBe('device-in-use: device da1 is already in use: pool bench-pool uses da1 in a data vdev (mirror-0)');
    expect(refused(['/dev/da0'])).toBe('device-in-use: device /dev/da0 is already in use: pool bench-pool uses da0 in a log (SLOG) vdev');
    // A partition of a disk that is in use as a whole.
    expect(refused(['/dev/da3p1'])).toMatch(/^device-in-use: device \/dev\/da3p1 refused: \/dev\/da3p1 is a partition of a disk that is itself in use: pool bench-pool uses da3/);
  });

  it('refuses devices of other pools in any role: special, cache, spare', () => {
    const other = poolOf('fast', [
      group('mirror', 'mirror-0', [leaf('ada0'), leaf('ada1')]),
      inClass('special', leaf('nvd1p2')),
      inClass('cache', leaf('nvd2')),
      inClass('spare', leaf('ada5')),
    ]);
    const pools = [benchPool(), other];
    expect(refused(['/dev/nvd2'], { pools })).toBe('device-in-use: device /dev/nvd2 is already in use: pool fast uses nvd2 in an L2ARC cache device');
    expect(refused(['/dev/ada5'], { pools })).toBe('device-in-use: device /dev/ada5 is already in use: pool fast uses ada5 in a hot spare');
    // The whole Optane whose partition 2 is fast's special vdev.
    expect(refused(['nvd1'], { pools })).toBe('device-in-use: device nvd1 refused: the whole disk nvd1 holds a partition in use: pool fast uses nvd1p2 in a special vdev');
    // A partition plan on it would rewrite that disk's partition table.
    expect(refused(['/dev/nvd1'], { pools, partitions: [{ role: 'slog', sizeBytes: 2 ** 34 }] })).toMatch(/holds a partition in use.*\(partitioning it would destroy that\)$/);
    // Its sibling partition: refused unless sharing the disk is said explicitly, then a warning.
    expect(refused(['/dev/nvd1p1'], { pools })).toMatch(/^device-in-use: .*another partition of the same disk is in use: pool fast uses nvd1p2 in a special vdev; .*--shared-disk/);
    const shared = planAddVdev({ ...base, pool: benchPool(), pools, devices: ['/dev/nvd1p1'], sharedDisk: true });
    expect(shared.steps[1]!.display).toBe('zpool add -o ashift=12 bench-pool log /dev/nvd1p1');
    expect(shared.warnings.join(' ')).toMatch(/\/dev\/nvd1p1 shares its disk with nvd1p2 \(pool fast uses nvd1p2 in a special vdev\)/);
  });

  it('a partition plan needs whole disks', () => {
    expect(refused(['/dev/nvd2p1'], { partitions: [{ role: 'slog', sizeBytes: 2 ** 34 }] })).toMatch(/^partitioning: device \/dev\/nvd2p1 is already a partition \(of nvd2\)/);
  });
});

describe('partitioning is platform-aware', () => {
  const parts = [{ role: 'slog' as const, sizeBytes: 16 * 2 ** 30 }, { role: 'special' as const, sizeBytes: 40 * 2 ** 30 }];

  it('FreeBSD (TrueNAS CORE): gpart on the provider, members /dev/nvd1p2', () => {
    const plan = planAddVdev({ kind: 'special', pool: benchPool(), devices: ['nvd1', 'nvd2'], openzfs: '2.1.6', host: core, drives: coreDrives, partitions: parts });
    expect(plan.steps.map((s) => s.display)).toEqual([
      'gpart create -s gpt nvd1',
      'gpart add -t freebsd-zfs -a 1m -s 16384M -l slog-nvd1 nvd1',
      'gpart add -t freebsd-zfs -a 1m -s 40960M -l special-nvd1 nvd1',
      'gpart create -s gpt nvd2',
      'gpart add -t freebsd-zfs -a 1m -s 16384M -l slog-nvd2 nvd2',
      'gpart add -t freebsd-zfs -a 1m -s 40960M -l special-nvd2 nvd2',
      'zpool add -n -o ashift=12 bench-pool special mirror /dev/nvd1p2 /dev/nvd2p2',
      'zpool add -o ashift=12 bench-pool special mirror /dev/nvd1p2 /dev/nvd2p2',
    ]);
    expect(plan.steps.slice(0, 6).every((s) => s.reversible === 'partly')).toBe(true);
    expect(plan.steps.some((s) => s.argv[0] === 'sgdisk')).toBe(false);
  });

  it('Linux: sgdisk always on a /dev path, never a bare name', () => {
    const linuxDrives = [drive('nvme-INTEL_SSDPEK1A058GA_X', { devPath: '/dev/nvme0n1', aliases: ['/dev/nvme0n1'], media: 'nvme' }), drive('nvme-INTEL_SSDPEK1A058GA_Y', { devPath: '/dev/nvme1n1', aliases: ['/dev/nvme1n1'], media: 'nvme' })];
    const plan = planAddVdev({ kind: 'slog', pool: benchPool(), devices: ['nvme0n1', 'nvme1n1'], openzfs: '2.2.4', host: host('2.2.4'), drives: linuxDrives, partitions: parts });
    // Bare kernel names resolve to the drive's by-id path (stable names).
    expect(plan.steps[0]!.argv).toEqual(['sgdisk', '--new=1:0:+16384M', '--typecode=1:BF01', '--change-name=1:slog', '--new=2:0:+40960M', '--typecode=2:BF01', '--change-name=2:special', '/dev/disk/by-id/nvme-INTEL_SSDPEK1A058GA_X']);
    expect(plan.steps.filter((s) => s.argv[0] === 'sgdisk').every((s) => s.argv.at(-1)!.startsWith('/dev/'))).toBe(true);
    expect(plan.steps[3]!.display).toBe('zpool add -o ashift=12 bench-pool log mirror /dev/disk/by-id/nvme-INTEL_SSDPEK1A058GA_X-part1 /dev/disk/by-id/nvme-INTEL_SSDPEK1A058GA_Y-part1');
  });

  it('unknown platform: no partitioning command, a reason, and placeholders that cannot run as-is', () => {
    const plan = planAddVdev({ kind: 'slog', pool: benchPool(), devices: ids(2), openzfs: '2.1.6', host: null, partitions: parts });
    expect(plan.steps).toHaveLength(2);
    expect(plan.steps[1]!.argv.slice(-3)).toEqual(['mirror', `<${displayName(ids(2)[0]!)} partition 1>`, `<${displayName(ids(2)[1]!)} partition 1>`]);
    expect(plan.warnings.join(' ')).toMatch(/no partitioning command printed: the host platform is unknown and we only script sgdisk \(Linux\) and gpart \(FreeBSD\)/);
  });
});
