/**
 * Writes a large synthetic host in the capture format (README "Snapshot format"), for the scale
 * benchmark and the large-host tests: `tsx scripts/gen-large-snapshot.ts OUT [--pools 20]
 * [--disks-per-pool 12] [--datasets 5000] [--zvol-share 0.2]`.
 *
 * Shape (issue 21): half the pools one 12-wide raidz2, half six 2-way mirrors; every disk a SATA
 * HDD with a smartctl JSON built from a real smartctl output (Seagate Exos X16, see
 * tests/fixtures/devices/PROVENANCE.md) with its own name, serial and WWN; datasets spread over the
 * pools with the full `zfs get -H -p all` property set of OpenZFS 2.2 (57 properties a filesystem,
 * so 5,000 datasets ≈ 285,000 lines), some set locally (compression=off on every dataset of some
 * pools, the case that once made a rule quadratic), a share of them zvols.
 *
 * The outputs follow the real formats the parsers are tested on; nothing in them is measured, and
 * meta.json labels the snapshot synthetic.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATE = join(root, 'tests/fixtures/devices/smartctl/sce-sata-hdd-seagate-exos-x16-16tb.json');

export interface LargeSnapshotShape {
  pools: number;
  disksPerPool: number;
  datasets: number;
  /** Share of the non-root datasets that are zvols. */
  zvolShare: number;
}

const DISK_BYTES = 16_000_900_661_248;
const MIRROR_WIDTH = 2;

/** sda … sdz, sdaa … (the kernel's naming), enough for thousands of disks. */
export function diskName(i: number): string {
  let n = i;
  let s = '';
  do { s = String.fromCharCode(97 + (n % 26)) + s; n = Math.floor(n / 26) - 1; } while (n >= 0);
  return `sd${s}`;
}

const serialOf = (i: number) => `ZL2SYN${String(i).padStart(5, '0')}`;
const wwnOf = (i: number) => `0x5000c500${(0xa000000 + i).toString(16)}`;
const byIdOf = (i: number) => `ata-ST16000NM001G-2KK103_${serialOf(i)}`;

function smartctlJson(template: Record<string, unknown>, i: number): string {
  const name = diskName(i);
  const wwn = wwnOf(i).slice(2);
  return JSON.stringify({
    ...template,
    device: { name: `/dev/${name}`, info_name: `/dev/${name} [SAT]`, type: 'sat', protocol: 'ATA' },
    serial_number: serialOf(i),
    wwn: { naa: 5, oui: parseInt(wwn.slice(1, 7), 16), id: parseInt(wwn.slice(7), 16) },
  }, null, 1);
}

interface PoolPlan { name: string; layout: 'raidz2' | 'mirror'; disks: number[] }

function planPools(shape: LargeSnapshotShape): PoolPlan[] {
  const pools: PoolPlan[] = [];
  for (let p = 0; p < shape.pools; p++) {
    const disks = Array.from({ length: shape.disksPerPool }, (_, k) => p * shape.disksPerPool + k);
    pools.push({ name: `tank${String(p).padStart(2, '0')}`, layout: p % 2 === 0 ? 'raidz2' : 'mirror', disks });
  }
  return pools;
}

/** Top-level vdevs of a pool plan: one raidz2 of every disk, or 2-way mirrors. */
function vdevsOf(p: PoolPlan): { name: string; disks: number[] }[] {
  if (p.layout === 'raidz2') return [{ name: 'raidz2-0', disks: p.disks }];
  const out: { name: string; disks: number[] }[] = [];
  for (let k = 0; k < p.disks.length; k += MIRROR_WIDTH) out.push({ name: `mirror-${k / MIRROR_WIDTH}`, disks: p.disks.slice(k, k + MIRROR_WIDTH) });
  return out;
}

function zpoolStatus(pools: PoolPlan[]): string {
  const row = (indent: number, name: string) => `${' '.repeat(8 + indent)}${name.padEnd(Math.max(40 - indent, name.length + 1))}  ONLINE       0     0     0`;
  return pools.map((p) => [
    `  pool: ${p.name}`,
    ' state: ONLINE',
    '  scan: scrub repaired 0B in 09:12:44 with 0 errors on Sun Nov  8 09:36:45 2026',
    'config:',
    '',
    `        ${'NAME'.padEnd(40)}  STATE     READ WRITE CKSUM`,
    row(0, p.name),
    ...vdevsOf(p).flatMap((v) => [row(2, v.name), ...v.disks.map((d) => row(4, byIdOf(d)))]),
    '',
    'errors: No known data errors',
  ].join('\n')).join('\n\n') + '\n';
}

function zpoolList(pools: PoolPlan[]): string {
  const lines = ['NAME                                              SIZE  ALLOC   FREE  CKPOINT  EXPANDSZ   FRAG    CAP  DEDUP    HEALTH  ALTROOT'];
  for (const p of pools) {
    const vdevs = vdevsOf(p);
    const total = p.layout === 'raidz2' ? '175T' : '87.3T';
    lines.push(`${p.name.padEnd(48)}  ${total}  41.2T   134T        -         -     3%    23%  1.00x    ONLINE  -`);
    for (const v of vdevs) {
      lines.push(`  ${v.name.padEnd(46)}  ${p.layout === 'raidz2' ? '175T' : '14.5T'}  6.8T   7.7T        -         -     3%  46.9%      -    ONLINE`);
      for (const d of v.disks) lines.push(`    ${byIdOf(d).padEnd(44)}  14.6T      -      -        -         -      -      -      -    ONLINE`);
    }
  }
  return lines.join('\n') + '\n';
}

function zpoolGet(pools: PoolPlan[]): string {
  const props: [string, string, string][] = [
    ['size', '192414534860800', '-'], ['capacity', '23', '-'], ['health', 'ONLINE', '-'], ['ashift', '12', 'local'],
    ['autotrim', 'off', 'default'], ['fragmentation', '3', '-'], ['freeing', '0', '-'], ['version', '-', 'default'],
  ];
  return pools.flatMap((p) => [
    ...props.map(([k, v, s]) => `${p.name}\t${k}\t${v}\t${s}`),
    `${p.name}\tguid\t${(BigInt(1e15) + BigInt(p.disks[0]!)).toString()}\t-`,
    `${p.name}\tfeature@special_small_blocks\tenabled\tlocal`,
  ]).join('\n') + '\n';
}

/** The OpenZFS 2.2 `zfs get -H -p all` set for a filesystem (57) or a volume, in its order. */
function datasetProps(name: string, pool: string, kind: 'filesystem' | 'volume', compressionOff: boolean, isRoot: boolean, i: number): [string, string, string][] {
  const inh = isRoot ? 'default' : `inherited from ${pool}`;
  const compression: [string, string] = compressionOff ? ['off', 'local'] : ['lz4', isRoot ? 'local' : inh];
  const common: [string, string, string][] = [
    ['type', kind, '-'], ['creation', String(1_700_000_000 + i), '-'], ['used', String(1_000_000_000 + i * 4096), '-'],
    ['available', '100000000000000', '-'], ['referenced', String(900_000_000 + i * 4096), '-'], ['compressratio', '1.37', '-'],
  ];
  if (kind === 'volume') {
    return [
      ...common,
      ['reservation', 'none', 'default'], ['volsize', '34359738368', 'local'], ['volblocksize', '16384', 'default'],
      ['checksum', 'on', 'default'], ['compression', ...compression], ['readonly', 'off', 'default'], ['createtxg', String(100 + i), '-'],
      ['copies', '1', 'default'], ['refreservation', 'none', 'default'], ['guid', String(9_000_000_000_000 + i), '-'],
      ['primarycache', 'all', 'default'], ['secondarycache', 'all', 'default'], ['usedbysnapshots', '0', '-'],
      ['usedbydataset', String(900_000_000 + i * 4096), '-'], ['usedbychildren', '0', '-'], ['usedbyrefreservation', '0', '-'],
      ['logbias', 'latency', 'default'], ['objsetid', String(300 + i), '-'], ['dedup', 'off', 'default'], ['mlslabel', 'none', 'default'],
      ['sync', 'standard', 'default'], ['refcompressratio', '1.37', '-'], ['written', '0', '-'], ['logicalused', '1370000000', '-'],
      ['logicalreferenced', '1230000000', '-'], ['volmode', 'default', 'default'], ['snapshot_limit', 'none', 'default'],
      ['snapshot_count', 'none', 'default'], ['snapdev', 'hidden', 'default'], ['context', 'none', 'default'],
      ['redundant_metadata', 'all', 'default'], ['encryption', 'off', 'default'], ['keylocation', 'none', 'default'],
      ['keyformat', 'none', 'default'], ['pbkdf2iters', '0', 'default'],
    ].map(([k, v, s]) => [k!, v!, s!]);
  }
  return [
    ...common,
    ['mounted', 'yes', '-'], ['quota', '0', 'default'], ['reservation', '0', 'default'],
    ['recordsize', isRoot || i % 7 !== 0 ? '131072' : '1048576', isRoot || i % 7 !== 0 ? 'default' : 'local'],
    ['mountpoint', `/mnt/${name}`, 'default'], ['sharenfs', 'off', 'default'], ['checksum', 'on', 'default'],
    ['compression', ...compression], ['atime', 'off', isRoot ? 'local' : inh], ['devices', 'on', 'default'], ['exec', 'on', 'default'],
    ['setuid', 'on', 'default'], ['readonly', 'off', 'default'], ['zoned', 'off', 'default'], ['snapdir', 'hidden', 'default'],
    ['aclmode', 'discard', 'default'], ['aclinherit', 'restricted', 'default'], ['createtxg', String(100 + i), '-'],
    ['canmount', 'on', 'default'], ['xattr', 'sa', isRoot ? 'local' : inh], ['copies', '1', 'default'], ['version', '5', '-'],
    ['utf8only', 'off', '-'], ['normalization', 'none', '-'], ['casesensitivity', 'sensitive', '-'], ['vscan', 'off', 'default'],
    ['nbmand', 'off', 'default'], ['sharesmb', 'off', 'default'], ['refquota', '0', 'default'], ['refreservation', '0', 'default'],
    ['guid', String(9_000_000_000_000 + i), '-'], ['primarycache', 'all', 'default'], ['secondarycache', 'all', 'default'],
    ['usedbysnapshots', '0', '-'], ['usedbydataset', String(900_000_000 + i * 4096), '-'], ['usedbychildren', '0', '-'],
    ['usedbyrefreservation', '0', '-'], ['logbias', 'latency', 'default'], ['objsetid', String(300 + i), '-'],
    ['dedup', 'off', 'default'], ['mlslabel', 'none', 'default'], ['sync', 'standard', 'default'], ['dnodesize', 'legacy', 'default'],
    ['refcompressratio', '1.37', '-'], ['written', '0', '-'], ['logicalused', '1370000000', '-'], ['logicalreferenced', '1230000000', '-'],
    ['acltype', 'posix', isRoot ? 'local' : inh], ['relatime', 'on', 'default'], ['redundant_metadata', 'all', 'default'],
    ['overlay', 'on', 'default'], ['encryption', 'off', 'default'], ['keylocation', 'none', 'default'], ['keyformat', 'none', 'default'],
    ['pbkdf2iters', '0', 'default'], ['special_small_blocks', '0', 'default'], ['snapshots_changed', '-', '-'],
  ];
}

function zfsGet(pools: PoolPlan[], shape: LargeSnapshotShape): string {
  const parts: string[] = [];
  const perPool = Math.max(1, Math.floor(shape.datasets / pools.length));
  let i = 0;
  pools.forEach((p, pi) => {
    // Every third pool sets compression=off locally on each dataset: the worst case for inheritance joins.
    const compressionOff = pi % 3 === 0;
    const names: { name: string; kind: 'filesystem' | 'volume' }[] = [{ name: p.name, kind: 'filesystem' }];
    // Groups of ten: a share filesystem under the pool root, then nine children (datasets or zvols).
    for (let k = 1; k < perPool; k++) {
      const share = `${p.name}/share${String(Math.floor((k - 1) / 10)).padStart(3, '0')}`;
      if ((k - 1) % 10 === 0) { names.push({ name: share, kind: 'filesystem' }); continue; }
      const zvol = (k * 7919) % 100 < shape.zvolShare * 100;
      names.push({ name: `${share}/${zvol ? 'vm' : 'ds'}${k}`, kind: zvol ? 'volume' : 'filesystem' });
    }
    const seen = new Set<string>();
    for (const n of names) {
      if (seen.has(n.name)) continue;
      seen.add(n.name);
      for (const [k, v, s] of datasetProps(n.name, p.name, n.kind, compressionOff, n.name === p.name, i)) parts.push(`${n.name}\t${k}\t${v}\t${s}`);
      i++;
    }
  });
  return parts.join('\n') + '\n';
}

function lsblkJson(count: number): string {
  const devices = Array.from({ length: count }, (_, i) => ({
    name: diskName(i), kname: diskName(i), path: `/dev/${diskName(i)}`, type: 'disk', size: DISK_BYTES, rota: true,
    tran: 'sata', model: 'ST16000NM001G-2KK103', serial: serialOf(i), wwn: wwnOf(i), 'log-sec': 512, 'phy-sec': 4096,
    children: [
      { name: `${diskName(i)}1`, kname: `${diskName(i)}1`, path: `/dev/${diskName(i)}1`, type: 'part', size: DISK_BYTES - 8_388_608, rota: true, fstype: 'zfs_member' },
      { name: `${diskName(i)}9`, kname: `${diskName(i)}9`, path: `/dev/${diskName(i)}9`, type: 'part', size: 8_388_608, rota: true, fstype: null },
    ],
  }));
  return JSON.stringify({ blockdevices: devices }, null, 1);
}

function byIdListing(count: number): string {
  const lines = [`total 0`];
  for (let i = 0; i < count; i++) {
    lines.push(`lrwxrwxrwx 1 root root  9 Nov 20 07:57 ${byIdOf(i)} -> ../../${diskName(i)}`);
    lines.push(`lrwxrwxrwx 1 root root 10 Nov 20 07:57 ${byIdOf(i)}-part1 -> ../../${diskName(i)}1`);
    lines.push(`lrwxrwxrwx 1 root root  9 Nov 20 07:57 wwn-${wwnOf(i)} -> ../../${diskName(i)}`);
  }
  return lines.join('\n') + '\n';
}

/** Writes the snapshot and returns the number of files and `zfs get` lines. */
export function writeLargeSnapshot(out: string, shape: LargeSnapshotShape): { files: number; zfsGetLines: number; drives: number } {
  const template = JSON.parse(readFileSync(TEMPLATE, 'utf8')) as Record<string, unknown>;
  const pools = planPools(shape);
  const driveCount = shape.pools * shape.disksPerPool;
  mkdirSync(join(out, 'smartctl'), { recursive: true });
  const files: Record<string, { text: string; command: string[] }> = {
    'uname.txt': { text: 'Linux nas-large 6.8.12-4-pve #1 SMP PREEMPT_DYNAMIC PMX 6.8.12-4 x86_64 GNU/Linux\n', command: ['uname', '-a'] },
    'zfs-version.txt': { text: 'zfs-2.2.6-pve1\nzfs-kmod-2.2.6-pve1\n', command: ['zfs', 'version'] },
    'meminfo.txt': { text: 'MemTotal:       528280836 kB\n', command: ['cat', '/proc/meminfo'] },
    'zpool-status.txt': { text: zpoolStatus(pools), command: ['zpool', 'status', '-v'] },
    'zpool-list.txt': { text: zpoolList(pools), command: ['zpool', 'list', '-v'] },
    'zpool-get.txt': { text: zpoolGet(pools), command: ['zpool', 'get', '-H', '-p', 'all'] },
    'zfs-get.txt': { text: zfsGet(pools, shape), command: ['zfs', 'get', '-H', '-p', '-t', 'filesystem,volume', 'all'] },
    'lsblk.json': { text: lsblkJson(driveCount), command: ['lsblk', '-J', '-O', '-b'] },
    'by-id.txt': { text: byIdListing(driveCount), command: ['ls', '-l', '/dev/disk/by-id'] },
  };
  for (let i = 0; i < driveCount; i++) files[`smartctl/${diskName(i)}.json`] = { text: smartctlJson(template, i), command: ['smartctl', '-a', '-j', `/dev/${diskName(i)}`] };
  const meta = {
    format: 1, capturedAt: '2026-11-20T00:00:00.000Z', hostname: 'nas-large', platform: 'linux', versions: {}, demo: false,
    label: `Synthetic large host: ${shape.pools} pools × ${shape.disksPerPool} disks, ${shape.datasets} datasets (generated by scripts/gen-large-snapshot.ts, not a real system)`,
    redaction: { applied: false, poolNames: false },
    files: Object.fromEntries(Object.entries(files).map(([name, f]) => [name, { command: f.command, exitCode: 0, stderr: '', error: null }])),
  };
  for (const [name, f] of Object.entries(files)) writeFileSync(join(out, name), f.text);
  writeFileSync(join(out, 'meta.json'), JSON.stringify(meta, null, 1));
  return { files: Object.keys(files).length, zfsGetLines: files['zfs-get.txt']!.text.split('\n').length - 1, drives: driveCount };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { pools: { type: 'string', default: '20' }, 'disks-per-pool': { type: 'string', default: '12' }, datasets: { type: 'string', default: '5000' }, 'zvol-share': { type: 'string', default: '0.2' } },
  });
  const out = positionals[0];
  if (!out) { process.stderr.write('usage: tsx scripts/gen-large-snapshot.ts OUT [--pools 20] [--disks-per-pool 12] [--datasets 5000] [--zvol-share 0.2]\n'); process.exit(64); }
  const r = writeLargeSnapshot(out, { pools: Number(values.pools), disksPerPool: Number(values['disks-per-pool']), datasets: Number(values.datasets), zvolShare: Number(values['zvol-share']) });
  process.stdout.write(`${out}: ${r.files} files, ${r.drives} drives, ${r.zfsGetLines} zfs get lines\n`);
}
