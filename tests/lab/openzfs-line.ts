/**
 * Real OpenZFS in a QEMU guest (issues 24, 37): for OpenZFS 2.4 and 2.3 (Debian 13), one boot per
 * line, the app captures real pools — every vdev class, dRAID, offline/faulted/erroring/resilvering
 * devices, datasets and zvols — and its inventory must equal what ZFS itself prints (`zpool status -j`,
 * `zfs get -j`); the text parsers must equal the JSON parsers on the same pools; each rule a pool can
 * trigger fires on a real pool and is silent once its advice is followed; the planner's plans run in
 * the guest exactly as printed and leave the tree they previewed; a device in use (the boot disk) is
 * never offered. The app runs in the guest as a user runs it for one capture and the live plans per
 * line; the other captures run the app's collectors on the host with their commands in the guest
 * (guestCapture, lab-support.ts): no node start under emulation per capture.
 * Runs where the lab can (root, qemu, debootstrap); under CI=true a lab that cannot start fails.
 * Not a test file itself: openzfs-2.4.test.ts and openzfs-2.3.test.ts each run one line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLab, LAB_HOOK_MS, labAvailable, LAB_VERSIONS, type LabVm, type ZfsLine } from '../../lab/vm.ts';
import { parseZpoolStatus } from '../../server/src/parsers/zpool-status.ts';
import { parseZpoolStatusJson } from '../../server/src/parsers/zpool-status-json.ts';
import { unusedDrives } from '../../rules/lib/slog-devices.ts';
import type { Inventory, VdevNode } from '../../server/src/model/inventory.ts';
import { CASES, CREATE, LAB_DRIVES } from './lab-cases.ts';
import { recordedFingerprint } from '../observe/lab-recorded.ts';
import { captureAndAssess, firedRules, inventoryOf, capture, guestCapture, hostCli, keepFixture, resetGuest, sh } from './lab-support.ts';

const live = labAvailable();
const MIN = 60_000;

/** A vdev tree reduced to what both ZFS and the app must agree on. */
type Shape = { class: string; type: string; name: string; state: string | null; children: Shape[] };
const shape = (n: VdevNode): Shape => ({ class: n.class, type: n.type, name: n.name, state: n.state, children: n.children.map(shape) });

/** `zpool status -j` read directly (not through the app's parser): pool → class → names and states. */
function jsonTree(json: string, pool: string): { state: string; byClass: Record<string, string[]> } {
  const p = JSON.parse(json).pools[pool];
  const out: Record<string, string[]> = {};
  const walk = (cls: string, vdevs: Record<string, { name: string; state: string; vdevs?: Record<string, unknown> }> | undefined): void => {
    for (const v of Object.values(vdevs ?? {})) {
      (out[cls] ??= []).push(`${v.name}:${v.state}`);
      walk(cls, v.vdevs as never);
    }
  };
  walk('data', p.vdevs[pool].vdevs);
  for (const [key, cls] of [['logs', 'log'], ['special', 'special'], ['dedup', 'dedup'], ['l2cache', 'cache'], ['spares', 'spare']] as const) walk(cls, p[key]);
  return { state: p.state, byClass: out };
}
const appTree = (inv: Inventory, pool: string) => {
  const out: Record<string, string[]> = {};
  const walk = (n: VdevNode): void => { (out[n.class] ??= []).push(`${n.name}:${n.state}`); n.children.forEach(walk); };
  inv.pools.find((p) => p.name === pool)!.vdevs.forEach(walk);
  return out;
};
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

/** Which share of a line's cases a test file runs: every `of`-th case, starting at `index`. */
export interface LinePart { index: number; of: number }

/**
 * The cases of one OpenZFS line, in one guest (one boot) per test file. Each line's cases are split
 * over two files (openzfs-2.4.test.ts and openzfs-2.4-b.test.ts; the same for 2.3), so a line runs in
 * two guests side by side: the line whose image is built last is the run's critical path, and with
 * the rest of the suite done by then one guest would leave a core idle. Cases go to the parts in
 * turn, in the order written here; the version check runs in every part.
 */
export function describeLine(zfs: ZfsLine, part: LinePart = { index: 0, of: 1 }): void {
  let ordinal = 0;
  /** `it.runIf(cond)` for this part's cases; the other parts' cases are not registered here at all. */
  const lineIt = (cond: boolean): ReturnType<typeof it.runIf> => {
    const mine = ordinal++ % part.of === part.index;
    return mine ? it.runIf(cond) : ((() => undefined) as unknown as ReturnType<typeof it.runIf>);
  };
  describe(`OpenZFS ${zfs} in the lab guest${part.of > 1 ? ` (part ${part.index + 1} of ${part.of})` : ''}`, () => {
    let vm: LabVm;
    beforeAll(async () => { if (live) vm = await bootLab({ zfs, drives: LAB_DRIVES, memMiB: 3072, priority: part.index === 0 ? 3 : 1, label: `OpenZFS ${zfs} cases, part ${part.index + 1} of ${part.of}` }); }, LAB_HOOK_MS);
    afterAll(async () => { await vm?.stop(); }, MIN);

    it.runIf(live)('runs the pinned OpenZFS', () => {
      expect(vm.zfsVersionText).toMatch(new RegExp(`zfs-kmod-${zfs.replace('.', '\\.')}\\.`));
    });

    lineIt(live)('every vdev class on one pool: the inventory equals zpool status -j and zfs get -j, text equals JSON', async () => {
      await resetGuest(vm);
      // Without a cache file (as TrueNAS's pools look to zdb): the capture reads the vdevs' ashift with `zdb -e -C tank`.
      const recipe = `${CREATE} -o cachefile=none -O dedup=off tank raidz2 $ZD1 $ZD2 $ZD3 $ZD4 special mirror $NV1 $NV2 log mirror $NV3 $NV4 cache $NV5 spare $ZD5 dedup mirror $NV6 $ZD6
  zfs create -o recordsize=16K -o sync=always -o logbias=latency tank/db
  zfs create -o compression=zstd -o special_small_blocks=32K tank/share
  zfs create -V 64M -o volblocksize=16K tank/vm-100-disk-0
  zfs create -s -V 1G tank/sparse-vol
  dd if=/dev/urandom of=/lab/pools/tank/share/blob bs=64K count=64 status=none; zpool sync tank`;
      await sh(vm, recipe);
      // The app in the guest, as a user runs it; and the host-side capture every other case uses, which
      // must read the same host.
      const dir = await capture(vm, 'all-classes');
      keepFixture(dir, zfs, 'all-classes', recipe, vm.zfsVersionText);
      const inv = await inventoryOf(dir);
      const viaHost = await inventoryOf(await guestCapture(vm, 'all-classes-host'));
      const same = (i: Inventory) => ({
        pools: i.pools.map((p) => [p.name, p.state, p.vdevs.map(shape)]),
        datasets: i.datasets.map((d) => [d.name, d.type, d.sync, d.recordsize, d.volblocksize, d.volsize, d.compression, d.specialSmallBlocks]),
        drives: i.drives.map((d) => [d.devPath, d.serial, d.model, d.uses]), zfs: i.host.zfs, gaps: i.gaps.map((g) => g.source),
      });
      expect(same(viaHost)).toEqual(same(inv));
      const pool = inv.pools.find((p) => p.name === 'tank')!;
      expect(pool.state).toBe('ONLINE');
      expect(new Set(pool.vdevs.map((v) => v.class))).toEqual(new Set(['data', 'special', 'log', 'cache', 'spare', 'dedup']));
      expect(pool.vdevs.find((v) => v.class === 'data')!.type).toBe('raidz2');
      // `zdb -C` found no cache file; each pool's `zdb -e -C` stood in, and every top-level vdev has its ashift from it.
      expect(JSON.parse(read(dir, 'meta.json')).files['zdb-C.txt'].exitCode).not.toBe(0);
      expect(read(dir, 'zdb-e-C/1.txt')).toContain("name: 'tank'");
      for (const v of pool.vdevs.filter((x) => ['data', 'special', 'log', 'dedup'].includes(x.class))) expect(v.ashift, `${v.class} ${v.name}`).toBe(12);
      // Text and JSON parse to the same pools.
      const text = parseZpoolStatus(read(dir, 'zpool-status.txt'));
      if (!text.ok) throw new Error(text.error.message);
      {
        const json = parseZpoolStatusJson(read(dir, 'zpool-status.json'));
        if (!json.ok) throw new Error(json.error.message);
        expect(json.value.map((p) => p.vdevs.map(shape))).toEqual(text.value.map((p) => p.vdevs.map(shape)));
        expect(json.value.map((p) => [p.name, p.state, p.errors])).toEqual(text.value.map((p) => [p.name, p.state, p.errors]));
        // And the inventory says what ZFS's own JSON says.
        const z = jsonTree(read(dir, 'zpool-status.json'), 'tank');
        expect(pool.state).toBe(z.state);
        expect(appTree(inv, 'tank')).toEqual(z.byClass);
        // Datasets: every property the model types equals zfs get -j.
        const zget = JSON.parse(read(dir, 'zfs-get.json')).datasets as Record<string, { properties: Record<string, { value: string | number }> }>;
        for (const ds of inv.datasets) {
          const props = zget[ds.name]!.properties;
          const n = (k: string) => (props[k] ? Number(props[k]!.value) : null);
          expect([ds.name, ds.type, ds.sync, ds.recordsize, ds.volblocksize, ds.volsize, ds.compression, ds.specialSmallBlocks])
            .toEqual([ds.name, props.type!.value, props.sync!.value, ds.type === 'filesystem' ? n('recordsize') : null, ds.type === 'volume' ? n('volblocksize') : null,
              ds.type === 'volume' ? n('volsize') : null, props.compression!.value, n('special_small_blocks')]);
        }
      }
      expect(inv.datasets.map((d) => d.name)).toEqual(expect.arrayContaining(['tank', 'tank/db', 'tank/share', 'tank/vm-100-disk-0', 'tank/sparse-vol']));
      expect(inv.datasets.find((d) => d.name === 'tank/vm-100-disk-0')).toMatchObject({ type: 'volume', volblocksize: 16384 });
      // Drives: every emulated drive with its serial; the boot disk is in use, never a candidate.
      for (const serial of ['ZD0001', 'NV0001', 'BIG0003']) expect(inv.drives.some((d) => d.serial === serial), serial).toBe(true);
      const boot = inv.drives.find((d) => d.devPath === '/dev/vda')!;
      expect(boot.uses?.some((u) => u.kind === 'mounted' && u.detail.endsWith('mounted at /'))).toBe(true);
      expect(unusedDrives(inv.pools, inv.drives).map((d) => d.serial).sort()).toEqual(['BIG0001', 'BIG0002', 'BIG0003']);
      // ZIL and ARC counters come from the real kstats.
      expect(Object.keys(inv.zil?.counters ?? {})).toEqual(expect.arrayContaining(['zil_commit_count', 'zil_itx_count']));
      expect(inv.arc?.counters.size ?? 0).toBeGreaterThan(0);
      expect(inv.arc?.counters.c_max ?? 0).toBeGreaterThan(0);
    }, 15 * MIN);

    lineIt(live)('dRAID with a distributed spare in use', async () => {
      await resetGuest(vm);
      const recipe = `${CREATE} tank draid1:2d:5c:1s $ZD1 $ZD2 $ZD3 $ZD4 $ZD5
  zpool offline -f tank $ZD2-part1
  zpool replace -w tank $ZD2-part1 draid1-0-0`;
      await sh(vm, recipe);
      const dir = await guestCapture(vm, 'draid-spare-in-use');
      keepFixture(dir, zfs, 'draid-spare-in-use', recipe, vm.zfsVersionText);
      const inv = await inventoryOf(dir);
      const pool = inv.pools.find((p) => p.name === 'tank')!;
      const data = pool.vdevs.find((v) => v.class === 'data')!;
      expect(data.type).toBe('draid');
      expect(pool.vdevs.find((v) => v.class === 'spare')!.name).toBe('draid1-0-0');
      expect(JSON.stringify(data)).toContain('draid1-0-0');
      expect(pool.state).toBe('DEGRADED');
      // `zpool status -j` of 2.3.2 prints the dRAID vdev without its state; the inventory takes it from
      // the text output of the same capture, so it equals the text parser's tree on both lines.
      const text = parseZpoolStatus(read(dir, 'zpool-status.txt'));
      if (!text.ok) throw new Error(text.error.message);
      expect(pool.vdevs.map(shape)).toEqual(text.value[0]!.vdevs.map(shape));
      expect(data.state).toBe('DEGRADED');
    }, 10 * MIN);

    lineIt(live)('health: injected read errors, a faulted log device, a resilver in progress — each reported, each gone when fixed', async () => {
      await resetGuest(vm);
      // Errors: zinject fails reads on one side of a mirror; a scrub counts them.
      const errors = `${CREATE} tank mirror $ZD1 $ZD2 log $NV1
  dd if=/dev/urandom of=/lab/pools/tank/blob bs=64K count=160 status=none; zpool sync tank
  zinject -d $ZD1-part1 -e io -T read -f 100 tank
  zpool scrub -w tank || true
  zinject -c all
  zpool offline -f tank $NV1-part1`;
      await sh(vm, errors);
      let r = await captureAndAssess(vm, 'errors-and-faulted-log');
      keepFixture(r.dir, zfs, 'errors-and-faulted-log', errors, vm.zfsVersionText);
      const pool = r.inventory.pools.find((p) => p.name === 'tank')!;
      const leaf = pool.vdevs.find((v) => v.class === 'data')!.children.find((c) => c.name.includes('ZD0001'))!;
      expect((leaf.read ?? 0) + (leaf.cksum ?? 0)).toBeGreaterThan(0);
      expect(pool.vdevs.find((v) => v.class === 'log')!.state).toBe('FAULTED');
      const health = r.result.assessment.findings.filter((f) => f.ruleId === 'pool-health').map((f) => `${f.title} ${JSON.stringify(f.evidence)}`);
      expect(health.some((h) => /reports errors: \d+ read/.test(h) && h.includes('ZD0001'))).toBe(true);
      expect(health.some((h) => /^log .*is FAULTED/.test(h) && h.includes('NV0001'))).toBe(true);
      await sh(vm, 'zpool clear tank && zpool online tank $NV1-part1 && zpool clear tank');
      r = await captureAndAssess(vm, 'errors-cleared');
      expect(r.result.assessment.findings.filter((f) => f.ruleId === 'pool-health' && /reports errors|FAULTED/.test(f.title)).map((f) => f.title)).toEqual([]);

      // A resilver in progress: the new disk is throttled-slow enough to catch it.
      await resetGuest(vm);
      const resilver = `${CREATE} tank $ZD1
  dd if=/dev/urandom of=/lab/pools/tank/blob bs=1M count=192 status=none; zpool sync tank
  zpool set resilver_defer=off tank 2>/dev/null || true
  echo 1 > /sys/module/zfs/parameters/zfs_scan_legacy 2>/dev/null || true
  zpool attach tank $ZD1-part1 $ZD2
  sleep 1`;
      await sh(vm, resilver);
      r = await captureAndAssess(vm, 'resilvering');
      const scan = r.inventory.pools[0]!.scan;
      keepFixture(r.dir, zfs, 'resilvering', resilver, vm.zfsVersionText);
      expect(scan?.kind).toBe('resilver');
      if (scan?.state === 'in-progress') {
        expect(r.result.assessment.findings.some((f) => f.ruleId === 'pool-health' && /resilver/i.test(`${f.title} ${f.explanation}`))).toBe(true);
      }
      await sh(vm, 'zpool wait -t resilver tank');
      r = await captureAndAssess(vm, 'resilvered');
      expect(r.inventory.pools[0]!.scan).toMatchObject({ kind: 'resilver', state: 'finished' });
    }, 15 * MIN);

    describe('each rule a pool can trigger: fires on the real pool, silent once the advice is followed', () => {
      for (const c of CASES) {
        lineIt(live && (c.lines ?? LAB_VERSIONS).includes(zfs))(c.name, async () => {
          await resetGuest(vm);
          await sh(vm, c.setup, 10 * MIN);
          const before = await captureAndAssess(vm, `case-before`);
          const about = (r: typeof before.result, rule: string) => r.assessment.findings.filter((f) => f.ruleId === rule && (f.subject.pool === 'tank' || f.subject.id.startsWith('tank')));
          for (const rule of c.fires) expect(about(before.result, rule).length, `${rule} fires (fired: ${firedRules(before.result).join(', ')})`).toBeGreaterThan(0);
          await sh(vm, c.fix, 10 * MIN);
          const after = await captureAndAssess(vm, `case-after`);
          for (const rule of c.fires) expect(about(after.result, rule).map((f) => f.title), `${rule} after the fix`).toEqual([]);
        }, 12 * MIN);
      }
    });

    describe('plans carried out exactly as printed', () => {
      type Plan = { steps: { display: string; argv: string[] }[]; preview: string };
      /** Runs `zfs-advisor plan …` in the guest on its live inventory, as a user does; returns the plan JSON. */
      const plan = async (args: string) => {
        const r = await vm.cli(`plan ${args} --json`);
        return { code: r.code, stderr: r.stderr, plan: r.code === 0 ? JSON.parse(r.stdout) as Plan : null };
      };
      /** The same plan by the app on the host, on a capture of the guest (guestCapture): no node start in the guest. */
      const hostPlan = async (args: string[], snap?: string) => {
        const dir = snap ?? await guestCapture(vm, 'plan');
        const r = hostCli(['plan', ...args, '--snapshot', dir, '--json']);
        return { code: r.code, stderr: r.stderr, plan: r.code === 0 ? JSON.parse(r.stdout) as Plan : null };
      };
      /**
       * Carries out every printed step in order (`zpool add -n` before the real one), then compares
       * what `zpool status` prints for the pool with the plan's preview of it.
       */
      const carryOut = async (p: NonNullable<Awaited<ReturnType<typeof plan>>['plan']>, name: string) => {
        const zpoolSteps = p.steps.filter((s) => s.argv[0] === 'zpool' && s.argv[1] === 'add');
        expect(zpoolSteps[0]!.argv).toContain('-n');
        for (const step of p.steps) await sh(vm, `${step.display}\nudevadm settle -t 10 || true`);
        const status = parseZpoolStatus(await sh(vm, 'zpool status tank'));
        const preview = parseZpoolStatus(p.preview);
        if (!status.ok || !preview.ok) throw new Error('unreadable zpool status or preview');
        // Interior vdevs are numbered by ZFS (mirror-1) and not by the preview: compare their type. Leaves
        // by device: `zpool status` prints a whole disk by its short name without the partition ZFS made,
        // while the preview keeps the pool's existing leaves as the inventory read them (-P paths).
        const dev = (name: string) => name.replace(/^.*\//, '').replace(/-part1$/, '');
        const norm = (n: VdevNode): unknown => ({ class: n.class, type: n.type, name: n.children.length ? n.type : dev(n.name), children: n.children.map(norm) });
        expect(status.value[0]!.vdevs.map(norm), name).toEqual(preview.value[0]!.vdevs.map(norm));
      };

      lineIt(live)('add-slog: a mirrored SLOG of two NVMe drives', async () => {
        await resetGuest(vm);
        await sh(vm, `${CREATE} tank mirror $ZD1 $ZD2`);
        const r = await hostPlan(['add-slog', '--pool', 'tank', '--devices', '/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0001,/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0002']);
        expect(r.code, r.stderr).toBe(0);
        await carryOut(r.plan!, 'plan-add-slog');
      }, 10 * MIN);

      lineIt(live)('add-special: a mirror matching the data mirror, with special_small_blocks', async () => {
        await resetGuest(vm);
        await sh(vm, `${CREATE} tank mirror $ZD1 $ZD2\nzfs create tank/share`);
        const r = await hostPlan(['add-special', '--pool', 'tank', '--devices', '/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0001,/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0002', '--special-small-blocks', '16K', '--datasets', 'tank/share']);
        expect(r.code, r.stderr).toBe(0);
        await carryOut(r.plan!, 'plan-add-special');
        expect((await sh(vm, 'zfs get -H -p -o value special_small_blocks tank/share')).trim()).toBe('16384');
      }, 10 * MIN);

      lineIt(live)('partitioned: two NVMe drives split into SLOG and special partitions, mirrored (the app in the guest, on the live host)', async () => {
        await resetGuest(vm);
        await sh(vm, `${CREATE} tank mirror $ZD1 $ZD2`);
        const r = await plan('add-special --pool tank --devices /dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0003,/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0004 --partition slog:256M,special:512M');
        expect(r.code, r.stderr).toBe(0);
        expect(r.plan!.steps.some((s) => s.argv[0] === 'sgdisk')).toBe(true);
        await carryOut(r.plan!, 'plan-partitioned');
      }, 10 * MIN);

      lineIt(live)('a device in use — the boot disk, a pool member, a disk with a file system — is refused, and never offered', async () => {
        await resetGuest(vm);
        await sh(vm, `${CREATE} tank mirror $ZD1 $ZD2\nmkfs.ext4 -q -F $ZD3\nsgdisk -n1:0:+64M $ZD4 >/dev/null\nudevadm settle -t 10 || true`);
        const snap = await guestCapture(vm, 'in-use');
        for (const [dev, why] of [['/dev/vda', /mounted at \//], ['/dev/disk/by-id/virtio-ZD0001', /already in use|in use/], ['/dev/disk/by-id/virtio-ZD0003', /ext4/], ['/dev/disk/by-id/virtio-ZD0004', /partition table/]] as const) {
          const r = await hostPlan(['add-slog', '--pool', 'tank', '--devices', dev], snap);
          expect(r.code, dev).not.toBe(0);
          expect(r.stderr, dev).toMatch(why);
        }
        const inv = await inventoryOf(snap);
        keepFixture(join(vm.jobDir, 'captures', 'in-use'), zfs, 'in-use-devices', `${CREATE} tank mirror $ZD1 $ZD2\nmkfs.ext4 -q -F $ZD3\nsgdisk -n1:0:+64M $ZD4`, vm.zfsVersionText);
        const free = unusedDrives(inv.pools, inv.drives).map((d) => d.serial);
        for (const serial of ['ZD0001', 'ZD0003', 'ZD0004']) expect(free).not.toContain(serial);
        expect(inv.drives.find((d) => d.devPath === '/dev/vda')!.uses!.length).toBeGreaterThan(0);
        expect(free).toContain('NV0001');
      }, 10 * MIN);
    });

    /**
     * Writes completed per drive (the kernel's block-layer counter, /sys/class/block/DEV/stat field 5), by
     * drive serial: `zpool iostat` without an interval prints rates averaged since import, not counts.
     */
    const driveWrites = async (): Promise<Record<string, number>> => Object.fromEntries((await sh(vm, `for d in $ZD1 $ZD2 $NV1 $NV2; do
    echo "$d $(awk '{print $5}' /sys/class/block/$(basename "$(readlink -f "$d")")/stat)"; done`)).trim().split('\n')
      .map((l) => l.split(' ')).map(([dev, n]) => [dev!.replace(/^.*[-_]/, ''), Number(n)]));

    lineIt(live)('a special mirror and no SLOG: where the ZIL goes (2.4: the special vdev; 2.3: the data vdevs), measured, and said by that line\'s rule', async () => {
      // zfs-facts A5/B1: since 2.4 the special class takes the ZIL when there is no log vdev (zpoolconcepts.7 of
      // zfs-2.4.0, "Special Allocation Class"; absent from zfs-2.3.0's), whatever zil_special_is_slog says.
      await resetGuest(vm);
      const N = 200;
      const recipe = `${CREATE} tank mirror $ZD1 $ZD2 special mirror $NV1 $NV2
  zfs create tank/db
  dd if=/dev/urandom of=/lab/pools/tank/db/file bs=1M count=4 status=none; zpool sync tank
  zfs set sync=always tank/db`;
      await sh(vm, recipe);
      const before = await driveWrites();
      // ${N} 4 KiB writes at QD1, each logged and committed on its own (sync=always) into an existing file.
      await sh(vm, `fio --name=zil --filename=/lab/pools/tank/db/file --size=4M --bs=4k --rw=randwrite --ioengine=psync --iodepth=1 --number_ios=${N} --output-format=json >/dev/null`, 5 * MIN);
      const after = await driveWrites();
      const delta = (serial: string): number => after[serial]! - before[serial]!;
      const special = Math.min(delta('NV0001'), delta('NV0002'));
      const data = Math.min(delta('ZD0001'), delta('ZD0002'));
      const r = await captureAndAssess(vm, 'special-no-slog');
      keepFixture(r.dir, zfs, 'special-no-slog', `${recipe}\nfio --name=zil --filename=/lab/pools/tank/db/file --size=4M --bs=4k --rw=randwrite --ioengine=psync --iodepth=1 --number_ios=${N}`, vm.zfsVersionText);
      const said = (rule: string) => r.result.assessment.findings.filter((f) => f.ruleId === rule && f.subject.pool === 'tank').map((f) => f.title);
      const where = `special leaves +${special} writes, data leaves +${data} writes for ${N} sync writes`;
      if (zfs === '2.4') {
        expect(special, where).toBeGreaterThanOrEqual(0.9 * N);
        expect(data, where).toBeLessThan(0.5 * N);
        expect((await sh(vm, 'cat /sys/module/zfs/parameters/zil_special_is_slog')).trim()).toBe('1');
        expect(said('slog-on-2.4-special')).toEqual(['tank: the special vdev is also the ZIL (OpenZFS 2.4.4)']);
        expect(said('special-does-not-replace-slog')).toEqual([]);
      } else {
        expect(data, where).toBeGreaterThanOrEqual(0.9 * N);
        expect(special, where).toBeLessThan(0.5 * N);
        expect(said('special-does-not-replace-slog')).toEqual(['tank: sync writes still go to the data vdevs despite the special vdev']);
        expect(said('slog-on-2.4-special')).toEqual([]);
      }
    }, 10 * MIN);

    lineIt(live)('special_small_blocks on a dataset (both lines) and on a zvol (2.4 only): where the blocks land, and what the rule says', async () => {
      // zfs-facts B1/B12: zvol data may opt in to the special class since 2.4 (openzfs/zfs PR #14876, "Allow opt-in
      // of zvol blocks in special class": the property was "valid for filesystems but invalid for volumes").
      await resetGuest(vm);
      const MiB = 2 ** 20;
      const recipe = `${CREATE} tank mirror $ZD1 $ZD2 special mirror $NV1 $NV2
  zfs create -o recordsize=16K -o special_small_blocks=16K -o compression=off tank/small`;
      await sh(vm, recipe);
      /** Bytes allocated on the special mirror (mirror-1; the data mirror is mirror-0). */
      const specialAlloc = async () => Number((await sh(vm, 'zpool sync tank; zpool list -v -H -p tank')).split('\n').map((l) => l.trim().split('\t')).find((c) => c[0] === 'mirror-1')![2]);
      const start = await specialAlloc();
      await sh(vm, 'dd if=/dev/urandom of=/lab/pools/tank/small/f bs=1M count=32 status=none');
      const afterFile = await specialAlloc();
      expect(afterFile - start, 'a 16K-record file with special_small_blocks=16K lands on special').toBeGreaterThanOrEqual(30 * MiB);
      const zvol = 'zfs create -V 64M -o volblocksize=16K -o special_small_blocks=16K -o compression=off tank/vol';
      const made = await vm.run(zvol);
      let zvolRecipe = zvol;
      if (zfs === '2.4') {
        expect(made.code, made.stderr).toBe(0);
      } else {
        // 2.3 refuses the property on a volume; the zvol is made without it (a parent's value is not inherited by it).
        expect(made.code).not.toBe(0);
        expect(made.stderr).toMatch(/special_small_blocks/);
        zvolRecipe = 'zfs create -V 64M -o volblocksize=16K -o compression=off tank/vol';
        await sh(vm, zvolRecipe);
      }
      await sh(vm, 'udevadm settle -t 10 || true; dd if=/dev/urandom of=/dev/zvol/tank/vol bs=1M count=32 oflag=direct status=none');
      const afterZvol = await specialAlloc();
      if (zfs === '2.4') expect(afterZvol - afterFile, 'zvol data opted in on 2.4').toBeGreaterThanOrEqual(30 * MiB);
      else expect(afterZvol - afterFile, 'zvol data stays on the data vdevs on 2.3').toBeLessThan(8 * MiB);
      const r = await captureAndAssess(vm, 'special-small-blocks');
      keepFixture(r.dir, zfs, 'special-small-blocks', `${recipe}\ndd if=/dev/urandom of=/lab/pools/tank/small/f bs=1M count=32\n${zvolRecipe}\ndd if=/dev/urandom of=/dev/zvol/tank/vol bs=1M count=32 oflag=direct`, vm.zfsVersionText);
      const vol = r.inventory.datasets.find((d) => d.name === 'tank/vol')!;
      expect(vol.specialSmallBlocks).toBe(zfs === '2.4' ? 16384 : null);
      const said = r.result.assessment.findings.filter((f) => f.ruleId === 'special-small-blocks-value').map((f) => f.title);
      expect(said.some((t) => t.startsWith('tank/small: ') && /puts the whole dataset on special/.test(t)), said.join('; ')).toBe(true);
      expect(said.some((t) => t.startsWith('tank/vol: ') && /puts the whole dataset on special/.test(t)), said.join('; ')).toBe(zfs === '2.4');
    }, 10 * MIN);

    lineIt(live)('observe: a real counter pair around a known sync-write load agrees with fio', async () => {
      await resetGuest(vm);
      const recipe = `${CREATE} tank mirror $ZD1 $ZD2
  zfs create -o sync=always -o recordsize=16K tank/db`;
      await sh(vm, recipe);
      // The pair the app's observe reads (collect.ts): the ZIL and ARC kstats, the dataset's objset
      // kstat, and `zpool iostat -v -p -w` / `-r`, before and after 15 s of 4 KiB writes at QD1.
      const reading = (tag: string) => `mkdir -p /lab/job/observe; cd /lab/job/observe
  cat /proc/spl/kstat/zfs/zil > ${tag}-zil.txt; cat /proc/spl/kstat/zfs/arcstats > ${tag}-arcstats.txt
  for f in /proc/spl/kstat/zfs/tank/objset-*; do grep -q 'tank/db$' "$f" && cat "$f" > ${tag}-objset-db.txt; done
  zpool iostat -v -p -w tank > ${tag}-iostat-w.txt; zpool iostat -v -p -r tank > ${tag}-iostat-r.txt; date +%s%N > ${tag}-ns.txt`;
      await sh(vm, `${reading('start')}
  fio --name=sync4k --directory=/lab/pools/tank/db --size=16M --bs=4k --rw=randwrite --ioengine=psync --iodepth=1 --runtime=15 --time_based --output-format=json > /lab/job/observe/fio.json
  ${reading('end')}`, 5 * MIN);
      const dir = join(vm.jobDir, 'observe');
      keepFixture(dir, zfs, 'observe-sync4k-qd1', `${recipe}\n# readings, then: fio --name=sync4k --directory=/lab/pools/tank/db --size=16M --bs=4k --rw=randwrite --ioengine=psync --iodepth=1 --runtime=15 --time_based --output-format=json`, vm.zfsVersionText);
      const fp = recordedFingerprint(dir);
      const fio = JSON.parse(read(dir, 'fio.json')).jobs[0].write as { total_ios: number; clat_ns: { percentile: Record<string, number> } };
      const window = fp.windowSeconds;
      const pool = fp.pools.find((p) => p.pool === 'tank')!;
      // Every fio write was a sync write through the ZIL (sync=always): the counters must say so.
      expect(fp.zil!.commitsPerSec * window).toBeGreaterThanOrEqual(fio.total_ios * 0.9);
      expect(pool.syncWriteShare ?? 0).toBeGreaterThan(0.3);
      const p50 = pool.syncWriteLatencyMs.data?.p50 ?? null;
      expect(p50).not.toBeNull();
    }, 10 * MIN);

    lineIt(live)('raidz expansion caught in progress and finished, fast and legacy dedup tables: the inventory reads them (text equals JSON) and the rules say what they mean', async () => {
      // zpool-attach(8): a disk attached to raidz1-0 starts an expansion; raidz_expand_max_reflow_bytes (zfs(4),
      // "for testing") holds it in progress. zpool-features(7): fast_dedup is used by new tables only.
      const parsedBoth = (dir: string) => {
        const t = parseZpoolStatus(read(dir, 'zpool-status.txt'));
        const j = parseZpoolStatusJson(read(dir, 'zpool-status.json'));
        if (!t.ok || !j.ok) throw new Error('unreadable zpool status');
        return { t: t.value[0]!, j: j.value[0]! };
      };
      const near = (a: number | null | undefined, b: number | null | undefined) => expect(Math.abs((a ?? NaN) - (b ?? NaN)), `${a} vs ${b}`).toBeLessThanOrEqual(Math.max(1, 0.01 * (b ?? 0)));
      const said = (r: Awaited<ReturnType<typeof captureAndAssess>>, rule: string) => r.result.assessment.findings.filter((f) => f.ruleId === rule && f.subject.pool === 'tank').map((f) => f.title);
      await resetGuest(vm);
      const expand = `${CREATE} tank raidz1 $ZD1 $ZD2 $ZD3
  dd if=/dev/urandom of=/lab/pools/tank/blob bs=1M count=64 status=none; zpool sync tank
  echo 8388608 > /sys/module/zfs/parameters/raidz_expand_max_reflow_bytes
  zpool attach tank raidz1-0 $ZD4
  prev=-1; for i in $(seq 1 90); do cur=$(zpool status -j --json-int tank | grep -o '"reflowed":[0-9]*' | cut -d: -f2); [ "$cur" = "$prev" ] && [ "\${cur:-0}" -ge 8388608 ] && break; prev=$cur; sleep 3; done`;
      try {
        await sh(vm, expand, 5 * MIN);
        const again = await vm.run('zpool attach tank raidz1-0 /dev/disk/by-id/virtio-ZD0005');
        expect(again.code, 'a second expansion is refused').not.toBe(0);
        expect(again.stderr).toMatch(/raidz expansion in progress/);
        let r = await captureAndAssess(vm, 'raidz-expand-in-progress');
        keepFixture(r.dir, zfs, 'raidz-expand-in-progress', expand, vm.zfsVersionText);
        const going = r.inventory.pools[0]!.expansion!;
        expect(going).toMatchObject({ vdev: 'raidz1-0', state: 'in-progress', endedAt: null });
        expect(going.totalBytes ?? 0).toBeGreaterThan(going.copiedBytes ?? Infinity);
        expect(going.startedAt).not.toBeNull();
        let b = parsedBoth(r.dir);
        expect([b.t.expand?.vdev, b.t.expand?.state, b.t.expand?.waitingForResilver]).toEqual([b.j.expand?.vdev, b.j.expand?.state, b.j.expand?.waitingForResilver]);
        near(b.t.expand?.copiedBytes, b.j.expand?.copiedBytes);
        near(b.t.expand?.totalBytes, b.j.expand?.totalBytes);
        expect(said(r, 'raidz-expansion')).toEqual([expect.stringMatching(/^raidz expansion of raidz1-0 in tank is in progress/)]);
        await sh(vm, 'echo 0 > /sys/module/zfs/parameters/raidz_expand_max_reflow_bytes; zpool wait -t raidz_expand tank; zpool wait -t scrub tank', 10 * MIN);
        r = await captureAndAssess(vm, 'raidz-expand-finished');
        expect(r.inventory.pools[0]!.expansion).toMatchObject({ vdev: 'raidz1-0', state: 'finished', startedAt: null });
        b = parsedBoth(r.dir);
        expect([b.t.expand?.vdev, b.t.expand?.state]).toEqual([b.j.expand?.vdev, b.j.expand?.state]);
        near(b.t.expand?.copiedBytes, b.j.expand?.copiedBytes);
        expect(said(r, 'raidz-expansion')).toEqual(['raidz1-0 in tank was expanded: data written before keeps the old data-to-parity ratio']);
      } finally {
        await vm.run('echo 0 > /sys/module/zfs/parameters/raidz_expand_max_reflow_bytes');
      }

      // A fast-dedup table (a new pool on 2.3+): read with its log; the rule asks for a quota and is silent once set.
      await resetGuest(vm);
      const dedup = `${CREATE} tank mirror $ZD1 $ZD2
  zfs create -o dedup=on tank/dd
  dd if=/dev/urandom of=/lab/pools/tank/dd/a bs=1M count=16 status=none
  dd if=/lab/pools/tank/dd/a of=/lab/pools/tank/dd/b bs=1M status=none; zpool sync tank`;
      await sh(vm, dedup);
      let r = await captureAndAssess(vm, 'dedup-fast');
      keepFixture(r.dir, zfs, 'dedup-fast', dedup, vm.zfsVersionText);
      const table = r.inventory.pools[0]!.dedupTable!;
      expect(table).toMatchObject({ fastDedup: 'active', quota: 'auto' });
      expect(table.entries ?? 0).toBeGreaterThanOrEqual(128);
      expect(table.logEntries, 'the DDT log kstat was read').not.toBeNull();
      expect(r.inventory.pools[0]!.dedupRatio ?? 0).toBeGreaterThan(1.5);
      const d = parsedBoth(r.dir);
      expect(d.t.dedup?.entries).toBe(d.j.dedup?.entries);
      near(d.t.dedup?.onDiskBytes, d.j.dedup?.onDiskBytes);
      near(d.t.dedup?.inCoreBytes, d.j.dedup?.inCoreBytes);
      expect(said(r, 'dedup-table')).toEqual(['Nothing limits the dedup table of tank']);
      await sh(vm, 'zpool set dedup_table_quota=64M tank');
      r = await captureAndAssess(vm, 'dedup-quota');
      expect(said(r, 'dedup-table')).toEqual([]);

      // A legacy table (fast_dedup disabled at creation) stays legacy once the feature is enabled.
      await resetGuest(vm);
      const legacy = dedup.replace(CREATE, `${CREATE} -o feature@fast_dedup=disabled`);
      await sh(vm, legacy);
      r = await captureAndAssess(vm, 'dedup-legacy');
      keepFixture(r.dir, zfs, 'dedup-legacy', legacy, vm.zfsVersionText);
      expect(r.inventory.pools[0]!.dedupTable).toMatchObject({ fastDedup: 'disabled', logEntries: 0 });
      expect(said(r, 'dedup-table')).toContain('Pool tank deduplicates with a legacy dedup table');
      await sh(vm, 'zpool set feature@fast_dedup=enabled tank; dd if=/dev/urandom of=/lab/pools/tank/dd/c bs=1M count=4 status=none; zpool sync tank');
      r = await captureAndAssess(vm, 'dedup-legacy-enabled');
      expect(r.inventory.pools[0]!.dedupTable!.fastDedup, 'the existing table keeps its format').toBe('enabled');
      expect(r.result.assessment.findings.filter((f) => f.ruleId === 'dedup-table').map((f) => f.explanation).join(' ')).toMatch(/no table uses it/);
    }, 25 * MIN);
  });
}
