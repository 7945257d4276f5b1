/**
 * The one entry point to get an inventory (other parts call this):
 *   loadInventory({snapshot: DIR})  → from a snapshot directory
 *   loadInventory({demo: true})     → the bundled demo snapshot (source.kind 'demo', demo: true)
 *   loadInventory({})               → this host when it has ZFS, else the demo (and says so)
 * A snapshot directory that cannot be read rejects with InventoryLoadError (one-line message).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../exec/runner.ts';
import type { Inventory } from '../model/inventory.ts';
import { readSnapshot } from '../snapshot/directory.ts';
import type { RawSet } from '../snapshot/raw-set.ts';
import { buildInventory } from './build.ts';
import { collectLocal } from './collect-local.ts';

export const DEMO_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'demo');
export const DEMO_SNAPSHOTS = ['000-hdd-mirror-optane', '001-raidz2-12disk'] as const;
export const DEFAULT_DEMO = DEMO_SNAPSHOTS[0];

export class InventoryLoadError extends Error {}

export interface LoadOptions {
  snapshot?: string;
  demo?: boolean;
  /** Which bundled demo (default 000-hdd-mirror-optane). */
  demoName?: string;
}

export interface LoadedInventory {
  inventory: Inventory;
  raw: RawSet;
}

/** Whether this machine answers `zpool list` (kernel ZFS or a running zfs-fuse). */
export async function hostHasZfs(): Promise<boolean> {
  const r = await runCommand('zpool', ['list', '-H'], { timeoutMs: 15_000 });
  return r.error === null && r.exitCode === 0;
}

export async function loadSnapshotInventory(dir: string, forceDemo = false): Promise<LoadedInventory> {
  const s = await readSnapshot(dir);
  if (!s.ok) throw new InventoryLoadError(s.error);
  const { meta, raw, notes } = s.value;
  const demo = forceDemo || meta.demo;
  const inventory = buildInventory(raw, {
    kind: demo ? 'demo' : 'snapshot',
    label: demo ? `Demo data: ${meta.label ?? dir}` : (meta.label ?? meta.hostname ?? dir),
    capturedAt: meta.capturedAt,
    demo,
    redacted: meta.redaction.applied,
  });
  for (const n of notes) inventory.gaps.push({ artifact: 'Snapshot', source: dir, message: n, line: null, severity: 'info' });
  return { inventory, raw };
}

export async function loadInventory(opts: LoadOptions = {}): Promise<LoadedInventory> {
  if (opts.snapshot) return loadSnapshotInventory(opts.snapshot);
  const demoDir = () => {
    const name = opts.demoName ?? DEFAULT_DEMO;
    if (!(DEMO_SNAPSHOTS as readonly string[]).includes(name)) throw new InventoryLoadError(`unknown demo "${name}" (have: ${DEMO_SNAPSHOTS.join(', ')})`);
    return join(DEMO_DIR, name);
  };
  if (opts.demo) return loadSnapshotInventory(demoDir(), true);
  if (!(await hostHasZfs())) {
    const loaded = await loadSnapshotInventory(demoDir(), true);
    loaded.inventory.gaps.unshift({ artifact: 'Host', source: 'zpool list', message: 'this machine has no ZFS: showing the bundled demo data instead', line: null, severity: 'info' });
    return loaded;
  }
  const raw = await collectLocal();
  const inventory = buildInventory(raw, {
    kind: 'local',
    label: raw['uname.txt']?.text.trim().split(/\s+/)[1] ?? 'this host',
    capturedAt: new Date().toISOString(),
    demo: false,
    redacted: false,
  });
  return { inventory, raw };
}
