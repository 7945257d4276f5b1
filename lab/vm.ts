/**
 * The lab guest: a QEMU VM running Debian 13 with a real OpenZFS (2.4 or 2.3) kernel module, built by
 * `lab/build-image.sh` and booted here with the drives a test asks for. The host talks to the guest
 * through a shared job directory (9p): a command file in, its output, error and exit code out (the
 * guest's `lab-agent` runs them one at a time). The checkout is shared read-only at its own path, and
 * the host's `node` with it; the agent copies node and the bundle onto the guest's own disk (GUEST_CLI),
 * so `zfs-advisor` runs inside the guest exactly as it does on a host.
 *
 * ```ts
 * const vm = await bootLab({ zfs: '2.4', drives: [hdd('ZD0001'), nvme('NV0001', '2G')] });
 * await vm.must('zpool create -o cachefile=none tank mirror /dev/disk/by-id/virtio-ZD0001 …');
 * const { stdout } = await vm.run('zpool status -j');
 * await vm.stop();
 * ```
 * Under TCG (KVM does not work on these machines) a boot takes about 30 s; at most three VMs run at
 * a time (machine-wide slots, takeLock), and each boot starts from a throw-away overlay over the pristine image.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection, type Socket } from 'node:net';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, renameSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSeconds } from './proc-cpu.ts';

/** The OpenZFS lines the lab boots (lab/build-image.sh); 2.1 is covered by its recorded captures (tests/fixtures/lab/2.1). */
export type ZfsLine = '2.4' | '2.3';
export const LAB_VERSIONS: readonly ZfsLine[] = ['2.4', '2.3'];

export interface LabDrive {
  bus: 'virtio' | 'nvme';
  serial: string;
  /** Size as qemu-img takes it: '1G', '512M'. */
  size: string;
  /** QEMU I/O throttling: whole-device IOPS and bytes per second limits (e.g. a hard disk's ~150 IOPS). */
  iops?: number;
  bps?: number;
}

export interface LabOptions {
  zfs: ZfsLine;
  drives: LabDrive[];
  memMiB?: number;
  /** What the guest is for (the test file), in the run's timing table. */
  label?: string;
  /** TCP ports of the host's loopback forwarded to the guest (user-mode networking); none: no NIC. */
  forward?: { hostPort: number; guestPort: number } | { hostPort: number; guestPort: number }[];
  /**
   * Who gets a free guest slot first (higher first; default 0). With both lines' images built side
   * by side, six lab files want three slots at about the same time: the longest go first (as a
   * scheduler of unequal jobs on few machines does, longest first), so the run does not end with one
   * long file alone. By their guests' QEMU CPU (round 14's CI-like run 1): the installed .deb (498 s;
   * 911 s of wall time, its UI waits on throttled disks) asks with 4, each line's part 1 (398–410 s)
   * with 3, the benchmark file (375 s) with 2, the parts 2 (281–307 s) with 1. Run 2 had the benchmark
   * at the parts 2's priority: it took the last slot and ran its last 287 s alone.
   */
  priority?: number;
  /**
   * The guest boots to its default target, with what logins need (logind, D-Bus, Cockpit's socket):
   * the installed package's test. Without it the guest boots to sysinit.target plus the agent: the
   * kernel, udev, the journal, tmpfiles and mounts, real OpenZFS, and none of the services no lab case
   * talks to (systemctl still answers). That cut a boot's emulated CPU from 50–55 s to 38–41 s (one
   * guest with the cases' fifteen drives, three boots each way, 2026-12-01; one outlier at 53 s).
   */
  logins?: boolean;
}

export interface RunResult { code: number; stdout: string; stderr: string; ms: number }

export const hdd = (serial: string, size = '1G', iops?: number): LabDrive => ({ bus: 'virtio', serial, size, ...(iops ? { iops } : {}) });
export const nvme = (serial: string, size = '1G'): LabDrive => ({ bus: 'nvme', serial, size });
/** The path a drive has inside the guest (udev's by-id link). */
export const byId = (d: LabDrive): string => d.bus === 'nvme' ? `/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_${d.serial}` : `/dev/disk/by-id/virtio-${d.serial}`;

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '..');
/** The app's CLI inside the guest: node and the bundle from the guest's own disk (lab/guest/lab-agent); `env` so nohup can exec it. */
export const GUEST_CLI = 'env ZFS_ADVISOR_DATA_DIR=/root/zfs-advisor-data /usr/local/bin/node /lab/app/dist/cli.mjs';
const LOCK = existsSync('/run/lock') ? '/run/lock/zfs-advisor-lab.lock' : join(tmpdir(), 'zfs-advisor-lab.lock');

/** Why the lab cannot run here, or null. */
export function labUnavailableReason(): string | null {
  if (process.platform !== 'linux') return 'the lab needs Linux';
  if (process.getuid?.() !== 0) return 'the lab needs root (debootstrap, chroot)';
  for (const tool of ['qemu-system-x86_64', 'qemu-img', 'debootstrap', 'mkfs.ext4']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore', env: { PATH: `${process.env.PATH}:/usr/sbin:/sbin` } }).status !== 0) return `${tool} is not installed (apt-get install qemu-system-x86 qemu-utils debootstrap e2fsprogs)`;
  }
  if (process.env.ZFS_ADVISOR_LAB === '0') return 'ZFS_ADVISOR_LAB=0';
  return null;
}

/** True when the lab can run; under CI=true a lab that cannot run throws instead of skipping. */
export function labAvailable(): boolean {
  const why = labUnavailableReason();
  if (why && process.env.CI === 'true' && process.env.ZFS_ADVISOR_LAB !== '0') throw new Error(`real OpenZFS lab unavailable under CI=true: ${why}`);
  return why === null;
}

/**
 * How long a caller waits for an image (the shared base, then its line's layer; the two lines' layers
 * build side by side): both images of a CI run are ready about 10–15 min in, later on a loaded
 * machine (55 min was not enough beside three other engineers' runs, when the lines built one after
 * the other). A lab file's hooks allow this plus a guest slot (LAB_HOOK_MS).
 */
export const IMAGE_WAIT_MS = 80 * 60_000;
/** A lab file's beforeAll: the image, then a slot (takeLock waits up to 45 min, usually far less). */
export const LAB_HOOK_MS = 88 * 60_000;

/** Builds (or finds in the cache) the guest image for an OpenZFS line; returns its directory. */
export function ensureImage(zfs: ZfsLine): string {
  // At nice -5 as root, as CI's own builds (.ci/run): the lab waits for the images, so their builds go
  // ahead of the tests (nice 0), but not so far that a test file beside them starves (a build at -10
  // beside three guests at -5 took 18 min instead of 7; -15 would leave a test server a few per cent
  // of a core).
  const cmd = process.getuid?.() === 0 ? ['nice', '-n', '-5', 'bash'] : ['bash'];
  const r = spawnSync(cmd[0]!, [...cmd.slice(1), join(HERE, 'build-image.sh'), zfs], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: IMAGE_WAIT_MS });
  if (r.status !== 0) throw new Error(`lab image for OpenZFS ${zfs} could not be built (exit ${r.status})`);
  return r.stdout.trim().split('\n').pop()!;
}

/** KVM only where it works: on these machines /dev/kvm is a software nested backend (kvm_pvm) that hangs guests. */
function accel(): string[] {
  const kvmUsable = existsSync('/dev/kvm') && !existsSync('/sys/module/kvm_pvm') && process.env.ZFS_ADVISOR_LAB_ACCEL !== 'tcg';
  return kvmUsable ? ['-accel', 'kvm', '-cpu', 'host'] : ['-accel', 'tcg,thread=multi', '-cpu', process.env.ZFS_ADVISOR_LAB_CPU || 'Nehalem'];
}

/**
 * Guests at once on this machine (ZFS_ADVISOR_LAB_SLOTS, default 3). A guest under TCG keeps about
 * one core busy while its case runs and much less between (it waits on its throttled disks and its
 * agent), so three keep a two-core machine busy where two left it half idle at the end of a run (the
 * last line's cases in one guest once everything else was done); more only slow each other down.
 */
const SLOTS = Math.max(1, Number(process.env.ZFS_ADVISOR_LAB_SLOTS) || 3);

/**
 * vCPUs per guest (ZFS_ADVISOR_LAB_SMP, default 1). Three guests share two host cores, so a second
 * vCPU buys no parallelism, only multi-threaded TCG's cost: the same lab file (openzfs-2.4-b, 11
 * cases, beside two other guests) used 366 s of QEMU CPU with one vCPU and 431 s with two. One vCPU
 * also never hits the boot-time "Oops: int3" of text_poke across vCPUs (bootLab).
 */
const SMP = Math.max(1, Number(process.env.ZFS_ADVISOR_LAB_SMP) || 1);

/** Callers waiting for a slot, one file each: `<pid>-<nonce>-<priority>`. */
const WAITING = `${LOCK}.waiting`;
/** Callers that asked for a guest and still wait for their image (or the bundle), the same way. */
const ASKED = `${LOCK}.asked`;
/**
 * How long a caller leaves free slots to callers of higher priority still waiting for their image.
 * CI builds both lines' images side by side and they are done within seconds of each other; the
 * first line's files would otherwise take every slot and the longest file (of the other line) start
 * last, alone at the end of the run (round 13's CI-like run: installed-deb ran its last 170 s alone).
 */
const RESERVE_MS = 120_000;

/** A caller's entry in `dir` (WAITING or ASKED); removed by the caller. */
function enter(dir: string, priority: number): string {
  mkdirSync(dir, { recursive: true });
  const me = `${process.pid}-${Math.random().toString(36).slice(2)}-${priority}`;
  writeFileSync(join(dir, me), '');
  return me;
}

/** Live callers in `dir` of higher priority than `priority` (entries of callers that died are removed). */
function higher(dir: string, me: string, priority: number): number {
  let n = 0;
  for (const f of existsSync(dir) ? readdirSync(dir) : []) {
    const [pid, , p] = f.split('-');
    if (f === me || Number(p) <= priority) continue;
    if (alive(Number(pid))) n++;
    else rmSync(join(dir, f), { force: true }); // a caller that died
  }
  return n;
}

/** Slots no live guest holds. */
function freeSlots(): number {
  let n = 0;
  for (let slot = 0; slot < SLOTS; slot++) {
    const owner = Number(readFileSafe(join(`${LOCK}.${slot}`, 'owner')));
    if (!existsSync(`${LOCK}.${slot}`) || (owner && !alive(owner))) n++;
  }
  return n;
}

/**
 * Waits for a guest slot. A caller lets every waiting caller of higher priority go first, and for its
 * first RESERVE_MS also leaves as many free slots as there are callers of higher priority still
 * waiting for their image. `onWaiting` runs once this caller is among those waiting for a slot.
 */
async function takeLock(timeoutMs: number, priority = 0, onWaiting: () => void = () => {}): Promise<() => void> {
  // Developers working on more lab files at once may opt out of taking turns (each guest is slower).
  if (process.env.ZFS_ADVISOR_LAB_PARALLEL === '1') { onWaiting(); return () => {}; }
  const start = Date.now();
  const me = enter(WAITING, priority);
  onWaiting();
  try {
    for (;;) {
      const reserved = Date.now() - start < RESERVE_MS ? higher(ASKED, me, priority) : 0;
      if (higher(WAITING, me, priority) === 0 && freeSlots() > reserved) {
        for (let slot = 0; slot < SLOTS; slot++) {
          const lock = `${LOCK}.${slot}`;
          try {
            mkdirSync(lock);
            writeFileSync(join(lock, 'owner'), String(process.pid));
            return () => rmSync(lock, { recursive: true, force: true });
          } catch {
            const owner = Number(readFileSafe(join(lock, 'owner')));
            if (owner && !alive(owner)) { rmSync(lock, { recursive: true, force: true }); slot--; continue; }
          }
        }
      }
      if (Date.now() - start > timeoutMs) throw new Error(`all ${SLOTS} lab slots (${LOCK}.N) held for ${timeoutMs} ms`);
      await sleep(500);
    }
  } finally {
    rmSync(join(WAITING, me), { force: true });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const readFileSafe = (p: string): string => { try { return readFileSync(p, 'utf8'); } catch { return ''; } };
const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };

export class LabVm {
  private seq = 0;
  private lastCpu: number | undefined;
  /** The agent's port (virtio-serial, lab/guest/lab-agent): the host writes a command's number, the guest writes it back when done. */
  private port: Socket | null = null;
  private readonly done = new Map<string, () => void>();
  /** `started`: when QEMU was spawned, so the row's span covers the boot its CPU seconds include. */
  constructor(readonly opts: LabOptions, readonly dir: string, readonly jobDir: string, private readonly qemu: ChildProcess,
              private readonly release: () => void, readonly zfsVersionText: string, private readonly image = '',
              private readonly started = Date.now(),
              private readonly boot: (BootWaits & { ready: number; bootCpuS: number }) | null = null) {}

  /** Connects to the agent's port; without it (an old agent, a refused connection) commands are still found by polling. */
  async connect(): Promise<void> {
    const path = join(this.dir, 'agent.sock');
    if (!existsSync(path)) return;
    await new Promise<void>((resolve) => {
      const s = createConnection(path);
      let buf = '';
      s.setEncoding('utf8');
      s.once('connect', () => { this.port = s; resolve(); });
      s.once('error', () => { this.port = null; resolve(); });
      s.on('close', () => { this.port = null; });
      s.on('data', (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n')) >= 0) { const n = buf.slice(0, i).trim(); buf = buf.slice(i + 1); this.done.get(n)?.(); }
      });
    });
  }

  /** Runs a bash script in the guest as root; never throws for a non-zero exit. */
  async run(script: string, { timeoutMs = 300_000 } = {}): Promise<RunResult> {
    const n = String(++this.seq).padStart(4, '0');
    const base = join(this.jobDir, 'cmd', n);
    writeFileSync(`${base}.sh.tmp`, `set -o pipefail\n${script}\n`);
    renameSync(`${base}.sh.tmp`, `${base}.sh`);
    let wake: () => void = () => {};
    this.done.set(n, () => wake());
    this.port?.write(`${n}\n`);
    const start = Date.now();
    try {
      // Done when its exit code is there, newline and all (the agent writes it in one write, last).
      while (!/^\d+\n$/.test(readFileSafe(`${base}.rc`))) {
        if (this.qemu.exitCode !== null || this.qemu.signalCode) throw new Error(`lab guest ended while running: ${script.slice(0, 200)}\n${this.consoleTail()}`);
        if (Date.now() - start > timeoutMs) throw new Error(`lab command timed out after ${timeoutMs} ms: ${script.slice(0, 200)}`);
        // The agent's word wakes us at once; the poll stays for a guest without the port.
        await new Promise<void>((r) => { const t = setTimeout(r, this.port ? 1000 : 100); wake = () => { clearTimeout(t); r(); }; });
      }
    } finally { this.done.delete(n); }
    if (process.env.ZFS_ADVISOR_LAB_PROFILE) {
      const cpu = cpuSeconds(this.qemu.pid);
      appendFileSync(process.env.ZFS_ADVISOR_LAB_PROFILE, `${this.opts.label ?? ''}\t${Date.now() - start}\t${(cpu - (this.lastCpu ?? cpu)).toFixed(1)}\t${script.replace(/^[\s\S]*?\nzpool\(\) \{[\s\S]*?\n\}\n/, '').replace(/^set -e\n/, '').replace(/\s+/g, ' ').slice(0, 160)}\n`);
      this.lastCpu = cpu;
    }
    return { code: Number(readFileSafe(`${base}.rc`).trim()), stdout: readFileSafe(`${base}.out`), stderr: readFileSafe(`${base}.err`), ms: Date.now() - start };
  }

  /** Like run, but throws with the command's error output when it fails. */
  async must(script: string, opts?: { timeoutMs?: number }): Promise<string> {
    const r = await this.run(script, opts);
    if (r.code !== 0) throw new Error(`lab command failed (exit ${r.code}): ${script}\n${r.stderr || r.stdout}`);
    return r.stdout;
  }

  /**
   * Runs the app's CLI in the guest: the bundle itself, built before boot and copied onto the guest's
   * disk at boot — the launcher's freshness check and tsx fallback cost minutes under emulation, and
   * node read over 9p seconds at every start.
   */
  cli(args: string, opts?: { timeoutMs?: number }): Promise<RunResult> {
    return this.run(`${GUEST_CLI} ${args}`, { timeoutMs: 600_000, ...opts });
  }

  /**
   * For the test run's timing table (tests/support/timing-table.ts): how long this guest ran and how
   * much CPU QEMU used meanwhile (user + system, all its threads), appended to the lab cache's
   * `guest-times` beside the image builds' `build-times`. What a guest costs the machine, not only its wall time.
   */
  private recordCpu(): void {
    const cpu = cpuSeconds(this.qemu.pid);
    if (!this.image || !Number.isFinite(cpu)) return;
    const label = (this.opts.label ?? 'lab/run.ts').replace(/\s+/g, '_');
    // Then, where known: seconds waited for the image, for a slot, the boot's wall time and its CPU.
    const b = this.boot;
    const more = b && Number.isFinite(b.bootCpuS)
      ? ` ${Math.round((b.image - b.asked) / 1000)} ${Math.round((b.slot - b.image) / 1000)} ${Math.round((b.ready - this.started) / 1000)} ${Math.round(b.bootCpuS)}` : '';
    try {
      appendFileSync(join(dirname(this.image), 'guest-times'), `${label} ${this.opts.zfs} ${Math.floor(this.started / 1000)} ${Math.floor(Date.now() / 1000)} ${Math.round(cpu)}${more}\n`);
    } catch { /* a read-only cache: the table goes without the row */ }
  }

  consoleTail(lines = 30): string {
    return readFileSafe(join(this.dir, 'console.log')).split('\n').slice(-lines).join('\n');
  }

  async stop(): Promise<void> {
    this.port?.destroy();
    if (this.qemu.exitCode === null && !this.qemu.signalCode) {
      this.recordCpu();
      this.qemu.kill('SIGKILL');
      await new Promise((r) => this.qemu.once('exit', r));
    }
    this.release();
    if (process.env.ZFS_ADVISOR_LAB_KEEP !== '1') rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * The guest runs the app from this checkout: a stale bundle would make it compile the TypeScript
 * through tsx under emulation (minutes per command), so bring the bundle up to date first.
 */
function ensureBundle(): void {
  spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-server.mjs'), '--if-stale'], { stdio: 'ignore', timeout: 300_000 });
}

/** Boots a guest with the given drives and waits until ZFS answers inside it. */
export async function bootLab(opts: LabOptions): Promise<LabVm> {
  const waits: BootWaits = { asked: Date.now(), image: 0, slot: 0 };
  const priority = opts.priority ?? 0;
  const asked = enter(ASKED, priority);
  const leave = () => rmSync(join(ASKED, asked), { force: true });
  let image: string;
  try {
    image = ensureImage(opts.zfs);
    ensureBundle();
  } catch (e) { leave(); throw e; }
  waits.image = Date.now();
  const release = await takeLock(45 * 60_000, priority, leave).finally(leave);
  waits.slot = Date.now();
  try {
    return await bootOnce(opts, image, release, waits);
  } catch (e) {
    // The Debian 13 kernel under multi-threaded TCG (QEMU 7.2 here) now and then dies early in boot with
    // "Oops: int3" in sched_clock_cpu while it patches a static key (text_poke_bp across vCPUs): 1 boot in
    // 5 on 2026-11-28. The guest then panics and (panic=1, -no-reboot) QEMU exits: boot once more, on a
    // new overlay. Any other failure, or a second panic, fails the test.
    if (!(e instanceof GuestPanic)) { release(); throw e; }
    console.warn(`lab guest (OpenZFS ${opts.zfs}) panicked while booting; booting again:\n${e.message}`);
    try { return await bootOnce(opts, image, release, waits); } catch (e2) { release(); throw e2; }
  }
}

class GuestPanic extends Error {}

/** When a lab file asked for its guest, had its image (and the bundle), and got a slot (ms since the epoch): for the timing table. */
interface BootWaits { asked: number; image: number; slot: number }

/**
 * Modules the kernel refuses to load in a guest: drivers of the emulated PC's devices no test uses
 * (floppy, PS/2 mouse, PC speaker, IDE, ACPI SMBus, the VGA stack) and Linux md RAID, which mdadm's
 * initramfs script loads at every boot (raid6_pq then benchmarks its algorithms on the emulated CPU).
 * ZFS needs none of them.
 */
const UNUSED_MODULES = ['floppy', 'psmouse', 'pcspkr', 'serio_raw', 'ata_piix', 'ata_generic', 'pata_acpi', 'i2c_piix4', 'drm',
  'md_mod', 'raid0', 'raid1', 'raid10', 'raid456', 'raid6_pq', 'async_tx', 'xor'];

async function bootOnce(opts: LabOptions, image: string, release: () => void, waits: BootWaits): Promise<LabVm> {
  // On failure the caller (bootLab) releases the slot, or boots again in it.
  const dir = mkdtempSync(join(process.env.ZFS_ADVISOR_LAB_RUN ?? tmpdir(), 'zfs-advisor-lab-'));
  const jobDir = join(dir, 'job');
  mkdirSync(join(jobDir, 'cmd'), { recursive: true });
  const img = (args: string[]) => { const r = spawnSync('qemu-img', args, { encoding: 'utf8' }); if (r.status !== 0) throw new Error(`qemu-img ${args.join(' ')}: ${r.stderr}`); };
  img(['create', '-q', '-f', 'qcow2', '-b', join(image, 'root.img'), '-F', 'raw', join(dir, 'root.qcow2')]);
  const args = [...accel(), '-nodefaults', '-smp', String(SMP), '-m', String(opts.memMiB ?? 2048), '-display', 'none', '-monitor', 'none', '-no-reboot',
    '-serial', `file:${join(dir, 'console.log')}`,
    '-kernel', join(image, 'vmlinuz'), '-initrd', join(image, 'initrd.img'),
    '-append', `root=/dev/vda rw console=ttyS0 quiet loglevel=3 systemd.show_status=false panic=1 mitigations=off systemd.mask=systemd-udev-settle.service systemd.mask=serial-getty@ttyS0.service module_blacklist=${UNUSED_MODULES.join(',')} lab.src=${REPO_ROOT} lab.nodedir=${dirname(process.execPath)}${opts.logins ? '' : ' systemd.unit=sysinit.target systemd.wants=lab-boot.service'}`,
    '-drive', `if=none,id=root,file=${join(dir, 'root.qcow2')},format=qcow2,cache=unsafe`, '-device', 'virtio-blk-pci,drive=root,serial=LABROOT',
    '-virtfs', `local,path=${jobDir},mount_tag=job,security_model=none`,
    '-virtfs', `local,path=${REPO_ROOT},mount_tag=src,security_model=none,readonly=on`,
    '-virtfs', `local,path=${dirname(process.execPath)},mount_tag=nodebin,security_model=none,readonly=on`,
    // The agent's command port (lab/guest/lab-agent): it waits on it instead of polling the share.
    '-device', 'virtio-serial-pci,id=vser0', '-chardev', `socket,id=agent,path=${join(dir, 'agent.sock')},server=on,wait=off`,
    '-device', 'virtserialport,bus=vser0.0,chardev=agent,name=lab.agent'];
  opts.drives.forEach((d, i) => {
    const file = join(dir, `drive${i}.raw`);
    img(['create', '-q', '-f', 'raw', file, d.size]);
    const throttle = [d.iops ? `,throttling.iops-total=${d.iops}` : '', d.bps ? `,throttling.bps-total=${d.bps}` : ''].join('');
    args.push('-drive', `if=none,id=d${i},file=${file},format=raw,cache=none,aio=threads${throttle}`);
    args.push('-device', d.bus === 'nvme' ? `nvme,drive=d${i},serial=${d.serial}` : `virtio-blk-pci,drive=d${i},serial=${d.serial}`);
  });
  const forwards = opts.forward === undefined ? [] : Array.isArray(opts.forward) ? opts.forward : [opts.forward];
  if (forwards.length > 0) args.push('-nic', ['user,model=virtio-net-pci,restrict=on', ...forwards.map((f) => `hostfwd=tcp:127.0.0.1:${f.hostPort}-:${f.guestPort}`)].join(','));
  else args.push('-nic', 'none');
  const log = openSync(join(dir, 'qemu.log'), 'w');
  // The guests run at the rest of the suite's priority. With three guests of two vCPU threads each at
  // nice -5, a test file beside them got a few per cent of a core, and servers that must start or
  // assess within 60 s did not (round 11, load 15). ZFS_ADVISOR_LAB_NICE=-5 gives them the lead back
  // where nothing else runs (nice execs qemu: same pid).
  const nice = Number(process.env.ZFS_ADVISOR_LAB_NICE ?? 0);
  const qemu = process.getuid?.() === 0 && nice !== 0
    ? spawn('nice', ['-n', String(nice), 'qemu-system-x86_64', ...args], { stdio: ['ignore', log, log] })
    : spawn('qemu-system-x86_64', args, { stdio: ['ignore', log, log] });
  closeSync(log);
  const start = Date.now();
  const fail = (why: string): never => { qemu.kill('SIGKILL'); throw new Error(why); };
  while (!existsSync(join(jobDir, 'ready'))) {
    if (existsSync(join(jobDir, 'failed'))) fail(`lab guest could not start its agent: ${readFileSafe(join(jobDir, 'failed'))} ${readFileSafe(join(jobDir, 'agent.log'))}`);
    if (qemu.exitCode !== null) {
      const console_ = readFileSafe(join(dir, 'console.log'));
      if (/Kernel panic/.test(console_)) {
        const tail = console_.split('\n').filter((l) => /Oops|RIP:|Kernel panic/.test(l)).slice(0, 4).join('\n');
        if (process.env.ZFS_ADVISOR_LAB_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
        throw new GuestPanic(tail);
      }
      throw new Error(`qemu exited (${qemu.exitCode}): ${readFileSafe(join(dir, 'qemu.log'))}`);
    }
    // TCG on a busy 2-core machine can take minutes to boot; an idle one takes about 30 s.
    if (Date.now() - start > 600_000) fail(`lab guest not ready after 600 s:\n${readFileSafe(join(dir, 'console.log')).split('\n').slice(-40).join('\n')}`);
    await sleep(250);
  }
  const vm = new LabVm(opts, dir, jobDir, qemu, release, readFileSafe(join(jobDir, 'ready')), image, start,
    { ...waits, ready: Date.now(), bootCpuS: cpuSeconds(qemu.pid) });
  await vm.connect();
  return vm;
}
