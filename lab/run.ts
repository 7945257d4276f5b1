/**
 * Boots a lab guest with a chosen set of drives and runs commands in it (issue 24 §1), for a developer:
 *
 *   npx tsx lab/run.ts [--zfs 2.4|2.3] [--mem MiB] [--drive virtio:SERIAL:SIZE[:IOPS]]… [--nvme SERIAL:SIZE]… -- 'zpool status' ['more commands']…
 *
 * Each command runs as root in bash inside the guest; its output is printed as it finishes. With no
 * command it prints `zfs version` and the guest's block devices. The guest is stopped at the end.
 */
import { bootLab, type LabDrive, type ZfsLine } from './vm.ts';

const args = process.argv.slice(2);
const split = args.indexOf('--');
const opts = split >= 0 ? args.slice(0, split) : args;
const commands = split >= 0 ? args.slice(split + 1) : ['zfs version; lsblk -o NAME,SIZE,SERIAL,MODEL,TYPE,MOUNTPOINTS'];
let zfs: ZfsLine = '2.4';
let memMiB: number | undefined;
const drives: LabDrive[] = [];
for (let i = 0; i < opts.length; i++) {
  const [flag, value] = [opts[i], opts[i + 1] ?? ''];
  i++;
  if (flag === '--zfs' && (value === '2.4' || value === '2.3')) zfs = value;
  else if (flag === '--mem' && Number(value) > 0) memMiB = Number(value);
  else if (flag === '--drive') { const [, serial, size, iops] = value.split(':'); drives.push({ bus: 'virtio', serial: serial!, size: size ?? '1G', ...(iops ? { iops: Number(iops) } : {}) }); }
  else if (flag === '--nvme') { const [serial, size] = value.split(':'); drives.push({ bus: 'nvme', serial: serial!, size: size ?? '1G' }); }
  else { console.error(`lab/run.ts: unknown option ${flag} ${value}`); process.exit(64); }
}
const vm = await bootLab({ zfs, drives, ...(memMiB ? { memMiB } : {}) });
let status = 0;
try {
  for (const c of commands) {
    const r = await vm.run(c, { timeoutMs: 3_600_000 });
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    if (r.code !== 0) { status = r.code; break; }
  }
} finally {
  await vm.stop();
}
process.exit(status);
