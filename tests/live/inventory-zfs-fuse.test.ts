/**
 * Live: real pools on zfs-fuse (file- and loop-backed), collected through the real collectors and
 * runner, must come back as exactly the layouts we built. Runs under CI=true (harness throws there
 * when zfs-fuse is unavailable), skipped elsewhere only when zfs-fuse cannot run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInventory } from '../../server/src/gather/build.ts';
import { collectLocal } from '../../server/src/gather/collect-local.ts';
import type { Inventory, VdevNode } from '../../server/src/model/inventory.ts';
import { Inventory as InventorySchema } from '../../server/src/model/inventory.ts';
import type { RawSet } from '../../server/src/snapshot/raw-set.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { writeSnapshot } from '../../server/src/snapshot/directory.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';

const live = zfsFuseAvailable();

/** The part of a vdev node the layout is about, with its READ/WRITE/CKSUM counters as printed. */
interface Counters { read: number | null; write: number | null; cksum: number | null }
interface Shape extends Counters { class: string; type: string; name: string; state: string | null; children: Shape[] }
const shape = (n: VdevNode): Shape => ({
  class: n.class, type: n.type, name: n.name, state: n.state, read: n.read, write: n.write, cksum: n.cksum, children: n.children.map(shape),
});
/** Fresh pools show 0 0 0 on every row; spares in the `spares` section print no counters at all. */
const ZERO: Counters = { read: 0, write: 0, cksum: 0 };
const NO_COUNTERS: Counters = { read: null, write: null, cksum: null };
const leaf = (cls: string, name: string, state = 'ONLINE', type = 'file', counters: Counters = ZERO): Shape => ({ class: cls, type, name, state, ...counters, children: [] });
const node = (cls: string, type: string, name: string, children: Shape[], state = 'ONLINE', counters: Counters = ZERO): Shape => ({ class: cls, type, name, state, ...counters, children });

describe('inventory of a live zfs-fuse host', () => {
  let zf: ZfsFuseHandle;
  let inv: Inventory;
  let raw: RawSet;
  const f: Record<string, string> = {};
  const l: Record<string, string> = {};

  beforeAll(async () => {
    if (!live) return;
    zf = await startZfsFuse();
    for (const n of ['s1', 's2', 'm1', 'm2', 'r1a', 'r1b', 'r1c', 'r3a', 'r3b', 'r3c', 'r3d', 'r3e', 'd1', 'd2', 'l1', 'l2', 'sp1']) f[n] = await zf.fileVdev(n);
    for (const n of ['r2a', 'r2b', 'r2c', 'r2d', 'cache']) l[n] = await zf.loopVdev(n);
    await zf.createPool('hx_stripe', [f.s1!, f.s2!]);
    await zf.createPool('hx_mirror', ['mirror', f.m1!, f.m2!]);
    await zf.createPool('hx_raidz1', ['raidz1', f.r1a!, f.r1b!, f.r1c!]);
    await zf.createPool('hx_raidz2', ['raidz2', l.r2a!, l.r2b!, l.r2c!, l.r2d!]);
    await zf.createPool('hx_raidz3', ['raidz3', f.r3a!, f.r3b!, f.r3c!, f.r3d!, f.r3e!]);
    await zf.createPool('hx_complex', ['mirror', f.d1!, f.d2!, 'log', 'mirror', f.l1!, f.l2!, 'cache', l.cache!, 'spare', f.sp1!]);
    await zf.offline('hx_mirror', f.m2!);
    raw = await collectLocal();
    inv = buildInventory(raw, { kind: 'local', label: 'zfs-fuse', capturedAt: new Date().toISOString(), demo: false, redacted: false });
  }, 600_000);
  afterAll(async () => { await zf?.stop(); }, 120_000);

  it.runIf(live)('finds every pool it made, with the exact vdev tree, states and counters', () => {
    expect(InventorySchema.safeParse(inv).success).toBe(true);
    const byName = new Map(inv.pools.map((p) => [p.name, p]));
    const dev = (p: string) => p.replace('/dev/', ''); // zfs-fuse prints loop devices as `loop0`
    const tree = (name: string) => byName.get(name)?.vdevs.map(shape);
    expect(tree('hx_stripe')).toEqual([leaf('data', f.s1!), leaf('data', f.s2!)]);
    expect(byName.get('hx_mirror')?.state).toBe('DEGRADED');
    // What zfs-fuse really prints for the offlined side: OFFLINE with 0 0 0 (it does not count the
    // offline as I/O errors), and the parsed counters must be those numbers, not defaults.
    const m2Row = raw['zpool-status.txt']?.text.split('\n').find((line) => line.trim().startsWith(f.m2!));
    expect(m2Row?.trim().split(/\s+/)).toEqual([f.m2!, 'OFFLINE', '0', '0', '0']);
    expect(tree('hx_mirror')).toEqual([node('data', 'mirror', 'mirror-0', [leaf('data', f.m1!), leaf('data', f.m2!, 'OFFLINE')], 'DEGRADED')]);
    expect(tree('hx_raidz1')).toEqual([node('data', 'raidz1', 'raidz1-0', [f.r1a!, f.r1b!, f.r1c!].map((p) => leaf('data', p)))]);
    expect(tree('hx_raidz2')).toEqual([node('data', 'raidz2', 'raidz2-0', [l.r2a!, l.r2b!, l.r2c!, l.r2d!].map((p) => leaf('data', dev(p), 'ONLINE', 'disk')))]);
    expect(tree('hx_raidz3')).toEqual([node('data', 'raidz3', 'raidz3-0', [f.r3a!, f.r3b!, f.r3c!, f.r3d!, f.r3e!].map((p) => leaf('data', p)))]);
    expect(tree('hx_complex')).toEqual([
      node('data', 'mirror', 'mirror-0', [leaf('data', f.d1!), leaf('data', f.d2!)]),
      node('log', 'mirror', 'mirror-1', [leaf('log', f.l1!), leaf('log', f.l2!)]),
      leaf('cache', dev(l.cache!), 'ONLINE', 'disk'),
      leaf('spare', f.sp1!, 'AVAIL', 'file', NO_COUNTERS),
    ]);
  });

  it.runIf(live)('reads zfs-fuse\'s ` scrub:` line as "no scan yet", sizes from `zpool list`, and pool version 23 from `zpool get`', () => {
    const p = inv.pools.find((x) => x.name === 'hx_raidz1')!;
    expect(raw['zpool-status.txt']?.text).toMatch(/^ scrub: none requested$/m);
    expect(p.scan?.kind).toBe('none');
    expect(p.properties.version?.value).toBe('23');
    expect(p.properties.cachefile?.value).toBe('none');
    expect(p.features).toEqual({});
    // 3 × 128 MiB raidz1: zfs-fuse reports the raw size (parity included) as `370M` in `zpool list`.
    expect(raw['zpool-list.txt']?.text).toMatch(/^hx_raidz1\s+370M\s/m);
    expect(p.sizeBytes).toBe(Math.round(370 * 1024 ** 2));
    expect(p.capacityPct).toBe(0);
    expect(p.fragmentationPct).toBeNull(); // zfs-fuse has no FRAG column
  });

  it.runIf(live)('lists one root dataset per pool, mounted where the harness put it, and no sync property', () => {
    for (const name of ['hx_stripe', 'hx_mirror', 'hx_raidz1', 'hx_raidz2', 'hx_raidz3', 'hx_complex']) {
      const ds = inv.datasets.find((d) => d.name === name);
      expect(ds, name).toBeDefined();
      expect(ds!.type).toBe('filesystem');
      expect(ds!.pool).toBe(name);
      expect(ds!.mountpoint).toBe(`${zf.dir}/mnt/${name}`);
      expect(ds!.recordsize).toBe(131072);
      expect(ds!.sync).toBeNull();
    }
    expect(inv.gaps.some((g) => g.artifact === 'Datasets' && /no `sync` property/.test(g.message))).toBe(true);
  });

  it.runIf(live)('knows it is zfs-fuse on Linux and records the missing kstats as gaps, not crashes', () => {
    expect(inv.host.platform).toBe('linux');
    expect(inv.host.zfs.flavour).toBe('zfs-fuse');
    expect(inv.zil).toBeNull();
    expect(inv.arc).toBeNull();
    expect(inv.gaps.find((g) => g.artifact === 'ZilStats')?.severity).toBe('error');
    expect(raw['zpool-status.txt']?.command).toEqual(['zpool', 'status', '-v']); // -P refused by zfs-fuse, fell back
    expect(raw['zpool-list.txt']?.command).toEqual(['zpool', 'list']);
  });

  it.runIf(live)('leaves file vdevs and loop devices unresolved to drives (they are not disks)', () => {
    const leaves = (n: VdevNode): VdevNode[] => (n.children.length ? n.children.flatMap(leaves) : [n]);
    const all = inv.pools.filter((p) => p.name.startsWith('hx_')).flatMap((p) => p.vdevs.flatMap(leaves));
    expect(all.length).toBe(2 + 2 + 3 + 4 + 5 + 2 + 2 + 1 + 1);
    expect(all.every((n) => n.driveId === null)).toBe(true);
  });

  it.runIf(live)('a snapshot of this host rebuilds the same inventory anywhere', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-live-snap-'));
    try {
      await writeSnapshot(dir, raw, { capturedAt: inv.source.capturedAt, hostname: inv.host.hostname, platform: 'linux', versions: {}, demo: false, label: 'live', redaction: { applied: false, poolNames: false } });
      const again = (await loadSnapshotInventory(dir)).inventory;
      expect({ ...again, source: null }).toEqual({ ...inv, source: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
