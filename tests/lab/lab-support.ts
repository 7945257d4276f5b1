/**
 * What the lab tests do around a guest: capture a snapshot with the app inside it (the checkout is
 * mounted at its own path), assess the capture on the host, clean up between cases, and — when asked
 * with ZFS_ADVISOR_LAB_FIXTURES=write — keep captures as fixtures under tests/fixtures/lab/.
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { assess, type AssessResult } from '../../server/src/assess/assess.ts';
import type { Inventory } from '../../server/src/model/inventory.ts';
import type { LabVm } from '../../lab/vm.ts';
import { DRIVE_VARS } from './lab-cases.ts';

export const FIXTURE_ROOT = join(import.meta.dirname, '../fixtures/lab');

/** Runs a case script with the drive variables set; throws with its output when it fails. */
export const sh = (vm: LabVm, script: string, timeoutMs = 300_000) => vm.must(`${DRIVE_VARS}\nset -e\n${script}`, { timeoutMs });

/** `zfs-advisor capture` inside the guest into the shared job directory; returns the host path. */
export async function capture(vm: LabVm, name: string): Promise<string> {
  const guestDir = `/lab/job/captures/${name}`;
  rmSync(join(vm.jobDir, 'captures', name), { recursive: true, force: true });
  const r = await vm.cli(`capture ${guestDir} --json`);
  if (r.code !== 0) throw new Error(`capture ${name} failed (exit ${r.code}): ${r.stderr || r.stdout}`);
  return join(vm.jobDir, 'captures', name);
}

export async function inventoryOf(dir: string): Promise<Inventory> {
  return (await loadSnapshotInventory(dir)).inventory;
}

export async function captureAndAssess(vm: LabVm, name: string): Promise<{ dir: string; inventory: Inventory; result: AssessResult }> {
  const dir = await capture(vm, name);
  const inventory = await inventoryOf(dir);
  return { dir, inventory, result: assess(inventory) };
}

/** Rule ids with at least one finding. */
export const firedRules = (r: AssessResult): string[] => [...new Set(r.assessment.findings.map((f) => f.ruleId))].sort();

/** Destroys every pool and clears every lab drive's labels: each case starts from blank drives. */
export async function resetGuest(vm: LabVm): Promise<void> {
  await vm.must(`${DRIVE_VARS}
for p in $(zpool list -H -o name 2>/dev/null); do zpool destroy -f "$p"; done
for d in $ZD1 $ZD2 $ZD3 $ZD4 $ZD5 $ZD6 $NV1 $NV2 $NV3 $NV4 $NV5 $NV6 $BIG1 $BIG2 $BIG3; do
  for p in "$d"-part*; do [ -e "$p" ] && zpool labelclear -f "$p" 2>/dev/null; done
  wipefs -a -q "$d" 2>/dev/null || true
done
udevadm settle -t 10 || true`, { timeoutMs: 120_000 });
}

/** With ZFS_ADVISOR_LAB_FIXTURES=write, keeps a capture as a fixture, with where it came from. */
export function keepFixture(dir: string, zfs: string, name: string, recipe: string, zfsVersionText: string): void {
  if (process.env.ZFS_ADVISOR_LAB_FIXTURES !== 'write') return;
  const out = join(FIXTURE_ROOT, zfs, name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(dir, out, { recursive: true });
  writeFileSync(join(out, 'PROVENANCE.md'), `# ${name} (OpenZFS ${zfs})\n\nCaptured with \`zfs-advisor capture\` inside the lab guest (lab/vm.ts: Debian 12, QEMU TCG, ` +
    `drives emulated as virtio disks and QEMU NVMe controllers) by tests/lab/openzfs.test.ts on ${new Date().toISOString().slice(0, 10)}.\n\n` +
    `\`zfs version\` in the guest:\n\n\`\`\`\n${zfsVersionText.trim()}\n\`\`\`\n\nThe pool was built with:\n\n\`\`\`sh\n${recipe.trim()}\n\`\`\`\n`);
}
