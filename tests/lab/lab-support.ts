/**
 * What the lab tests do around a guest: capture a snapshot of it — with the app inside it, as a user
 * runs it (`capture`), or, for the many captures a file takes, with the app's own collectors on the
 * host running their commands in the guest (`guestCapture`: no node start in the emulated guest) —
 * assess the capture on the host, clean up between cases, and — when asked with
 * ZFS_ADVISOR_LAB_FIXTURES=write — keep captures as fixtures under tests/fixtures/lab/.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { assess, type AssessResult } from '../../server/src/assess/assess.ts';
import type { Inventory } from '../../server/src/model/inventory.ts';
import { REPO_ROOT, type LabVm } from '../../lab/vm.ts';
import { spawnSync } from 'node:child_process';
import { COLLECTORS } from '../../server/src/gather/collectors/index.ts';
import { platformFromUname, type GatherContext, type RawRequest } from '../../server/src/gather/request.ts';
import { buildInventory } from '../../server/src/gather/build.ts';
import { writeSnapshot } from '../../server/src/snapshot/directory.ts';
import type { RawOutput, RawSet } from '../../server/src/snapshot/raw-set.ts';
import { APP_VERSION } from '../../server/src/version.ts';
import { DRIVE_VARS } from './lab-cases.ts';

export const FIXTURE_ROOT = join(import.meta.dirname, '../fixtures/lab');

/** Runs a case script with the drive variables set; throws with its output when it fails. */
export const sh = (vm: LabVm, script: string, timeoutMs = 300_000) => vm.must(`${DRIVE_VARS}\nset -e\n${script}`, { timeoutMs });

/** `zfs-advisor capture` inside the guest into the shared job directory, as a user runs it; returns the host path. */
export async function capture(vm: LabVm, name: string): Promise<string> {
  const guestDir = `/lab/job/captures/${name}`;
  rmSync(join(vm.jobDir, 'captures', name), { recursive: true, force: true });
  const r = await vm.cli(`capture ${guestDir} --json`);
  if (r.code !== 0) throw new Error(`capture ${name} failed (exit ${r.code}): ${r.stderr || r.stdout}`);
  return join(vm.jobDir, 'captures', name);
}

/** Per guest: the outputs of its first capture that cannot change while it runs (guestCapture). */
const keptOutputs = new WeakMap<LabVm, Map<string, RawOutput>>();
const KEPT_FILE = /^(smartctl|nvme)\/|^(uname|zfs-version|os-release|truenas-version|pveversion)\.txt$/;

const quote = (a: string): string => `'${a.replace(/'/g, `'\\''`)}'`;

/**
 * The same capture without starting node in the guest (each start costs seconds to minutes under
 * TCG): the app's collectors (collect-local.ts's rounds, the same requests in the same order) run on
 * the host, and each round's commands run in the guest as one script — every command by its argv,
 * no shell between it and its arguments, `LC_ALL=C` and the per-command timeout as the runner sets
 * them, side by side within a round — whose outputs make the RawSet. The snapshot is written by the app's own writer with the
 * meta `capture` writes. One `capture` per line (the all-classes case) checks the two agree.
 */
export async function guestCapture(vm: LabVm, name: string): Promise<string> {
  const dir = join(vm.jobDir, 'captures', name);
  rmSync(dir, { recursive: true, force: true });
  const raw: RawSet = {};
  let n = 0;
  // Nothing measured twice: a drive's SMART identity and health (smartctl, nvme smart-log) and the
  // host's identity (uname, OS and ZFS versions) do not change while one guest runs, and asking
  // sixteen drives again cost about half of every capture under TCG (5.8 of 9 s at load 3). The first
  // capture of a boot reads them; later ones take the same outputs.
  const kept = keptOutputs.get(vm) ?? new Map<string, RawOutput>();
  keptOutputs.set(vm, kept);
  const runRound = async (all: RawRequest[]): Promise<void> => {
    const reqs = all.filter((req) => {
      const old = KEPT_FILE.test(req.file) ? kept.get(req.file) : undefined;
      if (old) raw[req.file] = old;
      return !old;
    });
    if (reqs.length === 0) return;
    const round = `gc-${++n}`;
    const hostOut = join(vm.jobDir, round);
    rmSync(hostOut, { recursive: true, force: true });
    const lines = [`D=/lab/job/${round}; mkdir -p $D`,
      // r ID TIMEOUT_S PROGRAM ARGS…: 0 when done (exit 0, or not installed: the other spellings are the same program).
      'r() { local id=$1 t=$2; shift 2; if ! command -v "$1" >/dev/null 2>&1; then echo nf >"$D/$id.rc"; return 0; fi',
      '  LC_ALL=C LANG=C timeout -s KILL "$t" "$@" >"$D/$id.out" 2>"$D/$id.err" </dev/null; local rc=$?; echo $rc >"$D/$id.rc"; [ $rc = 0 ]; }',
      'f() { if [ -e "$2" ]; then cat -- "$2" >"$D/$1.out" 2>/dev/null && echo 0 >"$D/$1.rc" || echo unreadable >"$D/$1.rc"; else echo enoent >"$D/$1.rc"; fi; }'];
    reqs.forEach((req, i) => {
      if ('readPath' in req) lines.push(`f ${i} ${quote(req.readPath)}`);
      // The requests of a round run side by side (the guest's two vCPUs; each one's alternatives in turn):
      // none depends on another within a round, and under TCG each process start costs a noticeable part of a second.
      else lines.push(`{ ${req.commands.map((c, j) => `r ${i}.${j} ${Math.ceil((req.timeoutMs ?? 60_000) / 1000)} ${[c.program, ...c.args].map(quote).join(' ')}`).join(' || ')} || true; } &`);
    });
    lines.push('wait');
    const t0 = Date.now();
    await vm.must(lines.join('\n'), { timeoutMs: 15 * 60_000 });
    if (process.env.LAB_TIMING) console.log(`round ${n}: ${reqs.length} requests ${Date.now() - t0} ms: ${reqs.map((r) => r.file).join(' ')}`);
    const read = (f: string): string => (existsSync(join(hostOut, f)) ? readFileSync(join(hostOut, f), 'utf8') : '');
    reqs.forEach((req, i) => {
      if ('readPath' in req) {
        const rc = read(`${i}.rc`).trim();
        raw[req.file] = rc === '0' ? { text: read(`${i}.out`), command: ['read', req.readPath], exitCode: 0, stderr: '', error: null }
          : { text: '', command: ['read', req.readPath], exitCode: null, stderr: '', error: rc === 'enoent' ? `${req.readPath} does not exist` : `${req.readPath}: unreadable` };
        return;
      }
      let last: RawOutput | null = null;
      req.commands.forEach((c, j) => {
        const rc = read(`${i}.${j}.rc`).trim();
        if (rc === '') return;
        const command = [c.program, ...c.args];
        if (rc === 'nf') { last = { text: '', command, exitCode: null, stderr: '', error: `${command.join(' ')}: ${c.program} is not installed or not on PATH` }; return; }
        const code = Number(rc);
        const stderr = read(`${i}.${j}.err`);
        // timeout -s KILL: exit 137, as the runner's SIGKILL after its timeout. A non-zero exit alone is no error (runner.ts).
        last = code === 137 ? { text: read(`${i}.${j}.out`), command, exitCode: null, stderr, error: `${command.join(' ')}: command timed out` }
          : { text: read(`${i}.${j}.out`), command, exitCode: code, stderr, error: null };
      });
      raw[req.file] = last ?? { text: '', command: null, exitCode: null, stderr: '', error: 'no command to run' };
      if (KEPT_FILE.test(req.file)) kept.set(req.file, raw[req.file]!);
    });
    rmSync(hostOut, { recursive: true, force: true });
  };
  await runRound([{ file: 'uname.txt', commands: [{ program: 'uname', args: ['-a'] }] }]);
  const ctx: GatherContext = { platform: platformFromUname(raw['uname.txt']!.text) };
  for (let round = 0; round < 4; round++) {
    const seen = new Set<string>();
    const pending = COLLECTORS.flatMap((c) => c.requests(raw, ctx)).filter((r) => !(r.file in raw) && !seen.has(r.file) && seen.add(r.file));
    if (pending.length === 0) break;
    await runRound(pending);
  }
  const inv = buildInventory(raw, { kind: 'local', label: 'capture', capturedAt: new Date().toISOString(), demo: false, redacted: false });
  await writeSnapshot(dir, raw, {
    capturedAt: new Date().toISOString(), hostname: inv.host.hostname, platform: inv.host.platform,
    versions: { 'zfs-advisor': APP_VERSION, ...(inv.host.zfs.userland ? { zfs: inv.host.zfs.userland } : {}), ...(inv.host.zfs.kernel ? { 'zfs-kmod': inv.host.zfs.kernel } : {}) },
    demo: false, label: null, redaction: { applied: false, poolNames: false },
  });
  return dir;
}

/** The app's CLI on the host (on a capture of the guest); never throws for a non-zero exit. */
export function hostCli(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'server/bin/zfs-advisor.js'), ...args], { encoding: 'utf8', timeout: 5 * 60_000 });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export async function inventoryOf(dir: string): Promise<Inventory> {
  return (await loadSnapshotInventory(dir)).inventory;
}

/** A capture (by the host-side collectors, guestCapture), its inventory and the app's assessment. */
export async function captureAndAssess(vm: LabVm, name: string): Promise<{ dir: string; inventory: Inventory; result: AssessResult }> {
  const dir = await guestCapture(vm, name);
  const inventory = await inventoryOf(dir);
  return { dir, inventory, result: assess(inventory) };
}

/** Rule ids with at least one finding. */
export const firedRules = (r: AssessResult): string[] => [...new Set(r.assessment.findings.map((f) => f.ruleId))].sort();

/**
 * Destroys every pool and clears every lab drive's labels: each case starts from blank drives. Few
 * processes (each start costs under TCG): one wipefs for the partitions blkid finds a ZFS label on
 * (first: a partition made again where a pool's was must not show the old label) and for the drives
 * udev knows a partition table or a signature on. A `zpool labelclear` per member and a wipefs of all
 * fifteen drives (the 8 TiB ones too) cost about 2 s more of emulated CPU at every reset; recreating
 * a wiped member's partition showed no label either way (blkid, zdb -l).
 */
export async function resetGuest(vm: LabVm): Promise<void> {
  await vm.must(`${DRIVE_VARS}
for p in $(zpool list -H -o name 2>/dev/null); do zpool destroy -f "$p"; done
members=$(blkid -c /dev/null -o device -t TYPE=zfs_member 2>/dev/null | grep -v '^/dev/vda')
used=$(lsblk -drno PATH,PTTYPE,FSTYPE $ZD1 $ZD2 $ZD3 $ZD4 $ZD5 $ZD6 $NV1 $NV2 $NV3 $NV4 $NV5 $NV6 $BIG1 $BIG2 $BIG3 | awk 'NF > 1 { print $1 }')
[ -z "$members$used" ] || wipefs -a -q $members $used >/dev/null 2>&1 || true
udevadm settle -t 60 || true`, { timeoutMs: 180_000 });
}

/** With ZFS_ADVISOR_LAB_FIXTURES=write, keeps a capture as a fixture, with where it came from. */
export function keepFixture(dir: string, zfs: string, name: string, recipe: string, zfsVersionText: string): void {
  if (process.env.ZFS_ADVISOR_LAB_FIXTURES !== 'write') return;
  const out = join(FIXTURE_ROOT, zfs, name);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(dir, out, { recursive: true });
  writeFileSync(join(out, 'PROVENANCE.md'), `# ${name} (OpenZFS ${zfs})\n\nCaptured in the lab guest (lab/vm.ts: Debian 13, QEMU TCG, drives emulated as virtio disks and ` +
    `QEMU NVMe controllers) by tests/lab/openzfs-line.ts on ${new Date().toISOString().slice(0, 10)}: all-classes with \`zfs-advisor capture\` ` +
    `inside the guest, the others by the app's collectors on the host running the same commands in the guest (tests/lab/lab-support.ts ` +
    `guestCapture; the all-classes case checks that the two read the same), observe-* by the test's own commands.\n\n` +
    `\`zfs version\` in the guest:\n\n\`\`\`\n${zfsVersionText.trim()}\n\`\`\`\n\nThe pool was built with:\n\n\`\`\`sh\n${recipe.trim()}\n\`\`\`\n`);
}
