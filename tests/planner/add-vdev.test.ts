/**
 * `plan add-slog|add-special` on pools parsed from real `zpool status` outputs (mirror, raidz2,
 * with and without special/log), and one live zfs-fuse run applying a generated `add log mirror`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '../../server/src/model/inventory.ts';
import { parseZpoolStatus } from '../../server/src/parsers/zpool-status.ts';
import { partitionPath, planAddVdev } from '../../server/src/planner/add-vdev.ts';
import { displayName } from '../../server/src/planner/status-preview.ts';
import { dataset, pool as poolOf } from '../support/builders.ts';
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
    expect(plan.redundancy).toEqual({ dataTolerance: 2, newTolerance: 2, requiredSides: 3, matched: true });
    expect(plan.steps[0]!.argv).toEqual(['zpool', 'add', '-o', 'ashift=12', 'tank', 'special', 'mirror', ...ids(3)]);
    expect(plan.steps[0]!.reversible).toBe('no');
    expect(plan.steps[0]!.why).toMatch(/raidz2 top-level vdev \(raidz2-0\).*B17/);
    expect(plan.steps[1]!.display).toBe('zfs set special_small_blocks=16384 tank/share');
    expect(plan.steps[1]!.reversible).toBe('yes');
    expect(plan.warnings).toEqual([]);
    expect(plan.added.name).toBe('mirror-1');
  });

  it('raidz2 pool with only 2 devices: mismatch flagged, -f needed and said so', () => {
    const tank = poolFrom('truenas-scale-raidz2-fake-file-offline.txt', { ashift: 12 });
    const plan = planAddVdev({ kind: 'special', pool: tank, devices: ids(2), openzfs: '2.3.0' });
    expect(plan.redundancy.matched).toBe(false);
    expect(plan.steps[0]!.argv.slice(0, 3)).toEqual(['zpool', 'add', '-f']);
    expect(plan.warnings.join(' ')).toMatch(/3-way mirror.*B13/);
  });

  it('mirror pool (000 test-pool, already has a single special): removable, 2-way mirror, next id mirror-3', () => {
    const tp = poolFrom('000-test-pool-mirrors-special.txt', { ashift: 12 });
    const plan = planAddVdev({ kind: 'special', pool: tp, devices: ids(2), openzfs: '2.1.6', datasets: [dataset('test-pool/share-media', { recordsize: 16384 })], specialSmallBlocks: 16384 });
    expect(plan.redundancy).toMatchObject({ dataTolerance: 1, requiredSides: 2, matched: true });
    expect(plan.steps[0]!.reversible).toBe('yes');
    expect(plan.added.name).toBe('mirror-3');
    expect(plan.warnings.join(' ')).toMatch(/sends every data block.*B10/);
    const r = parseZpoolStatus(plan.preview);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value[0]!.vdevs.filter((v) => v.class === 'special').map((v) => v.name)).toEqual(['nvd1', 'mirror-3']);
  });

  it('mirror pool (ZoL 0.8 raid10): sgdisk partitioning of an Optane pair for SLOG + special', () => {
    const z = poolFrom('zol08-raid10-ata-ids-features.txt', { ashift: 12 });
    const devs = ids(2);
    const plan = planAddVdev({
      kind: 'special', pool: z, devices: devs, openzfs: '0.8.4',
      partitions: [{ role: 'slog', sizeBytes: 16 * 2 ** 30 }, { role: 'special', sizeBytes: 40 * 2 ** 30 }],
    });
    expect(plan.steps[0]!.display).toBe(`sgdisk --new=1:0:+16384M --typecode=1:BF01 --change-name=1:slog --new=2:0:+40960M --typecode=2:BF01 --change-name=2:special ${devs[0]}`);
    expect(plan.steps[0]!.reversible).toBe('partly');
    expect(plan.steps[2]!.argv).toEqual(['zpool', 'add', '-o', 'ashift=12', 'zseatera4', 'special', 'mirror', partitionPath(devs[0]!, 2), partitionPath(devs[1]!, 2)]);
    expect(partitionPath('/dev/nvme0n1', 2)).toBe('/dev/nvme0n1p2');
    expect(partitionPath('/dev/sda', 1)).toBe('/dev/sda1');
  });
});

describe('plan add-slog', () => {
  it('mirror pool with a single log (000 bench-pool): mirrored log added as mirror-2, reversible', () => {
    const bp = poolFrom('000-bench-pool-mirror-log.txt', { ashift: 12 });
    const plan = planAddVdev({ kind: 'slog', pool: bp, devices: ids(2), openzfs: '2.1.6' });
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]!.argv).toEqual(['zpool', 'add', '-o', 'ashift=12', 'bench-pool', 'log', 'mirror', ...ids(2)]);
    expect(plan.steps[0]!.reversible).toBe('yes');
    const r = parseZpoolStatus(plan.preview);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value[0]!.vdevs.map(shape)).toEqual(plan.previewVdevs.map(shape));
    expect(r.value[0]!.vdevs.filter((v) => v.class === 'log').map((v) => v.name)).toEqual(['da0', 'mirror-2']);
    expect(plan.added.children.map((c) => c.name)).toEqual(ids(2).map(displayName));
  });

  it('raidz2 pool, one device: allowed (log vdevs are exempt) with a warning', () => {
    const tank = poolFrom('truenas-scale-raidz2-fake-file-offline.txt', { ashift: null });
    const plan = planAddVdev({ kind: 'slog', pool: tank, devices: ids(1), openzfs: '2.2.4' });
    expect(plan.steps[0]!.argv).toEqual(['zpool', 'add', 'tank', 'log', ids(1)[0]]);
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
    expect(plan.steps[0]!.argv).toEqual(['zpool', 'add', 'h3plan', 'log', 'mirror', l1, l2]);
    const [prog, ...args] = plan.steps[0]!.argv;
    await h.must(prog!, args);
    const after = parseZpoolStatus((await h.must('zpool', ['status', 'h3plan'])).stdout);
    if (!after.ok) throw new Error(after.error.message);
    const preview = parseZpoolStatus(plan.preview);
    if (!preview.ok) throw new Error(preview.error.message);
    expect(after.value[0]!.vdevs.map(shape)).toEqual(preview.value[0]!.vdevs.map(shape));
    expect(after.value[0]!.vdevs.find((v) => v.class === 'log')!.name).toBe('mirror-1');
  }, 300_000);
});
