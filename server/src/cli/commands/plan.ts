/**
 * `zfs-advisor plan layouts (--disks N --size 16T | --snapshot DIR | --demo) [--type hdd|ssd|nvme] [--workload vm|files|media|db] [--ashift 12]
 *   [--spares N] [--zfs-version 2.2.6] [--json]`
 * `zfs-advisor plan add-slog|add-special --pool P --devices D1,D2 [--snapshot DIR | --demo | --pool-json FILE [--platform linux|freebsd]]
 *   [--special-small-blocks 16K] [--datasets a,b] [--partition slog:16G,special:40G] [--accept-lower-redundancy] [--shared-disk] [--json]`
 * Prints plans; never runs a pool-changing command. Refused plans (hostile or in-use devices,
 * unmatched redundancy) print one line on stderr and exit 64.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { CliCommand, CliIO } from '../command.ts';
import { EXIT } from '../command.ts';
import { Platform, Pool, type Dataset, type Host, type Inventory } from '../../model/inventory.ts';
import { parseHumanNumber } from '../../parsers/common.ts';
import { planAddVdev, type PartitionRole } from '../../planner/add-vdev.ts';
import { planLayouts, Workload } from '../../planner/layouts.ts';
import { MediaKind } from '../../planner/performance.ts';
import { PlanRefused } from '../../planner/plan-refused.ts';
import { parseDiskSize } from '../../planner/space.ts';
import { unusedDisksForPlanning, type UnusedDisks } from '../../planner/unused-disks.ts';

const USAGE = `usage: zfs-advisor plan layouts (--disks N --size 16T | --snapshot DIR | --demo) [--type hdd|ssd|nvme]
                 [--workload vm|files|media|db] [--ashift 12] [--spares N] [--zfs-version 2.2.6] [--json]
       zfs-advisor plan add-slog|add-special --pool P --devices D1,D2 [--snapshot DIR | --demo | --pool-json FILE [--platform linux|freebsd]]
                 [--special-small-blocks 16K] [--datasets a,b] [--partition slog:16G,special:40G]
                 [--accept-lower-redundancy] [--shared-disk] [--json]
  (--size: "16T"/"16TB" = 16·10^12 bytes as drives are sold, "14.5TiB" binary;
   --snapshot/--demo plan for the inventory's unused disks: count, smallest size, media)
`;

const tib = (b: number) => `${(b / 2 ** 40).toFixed(2)} TiB`;

function usage(io: CliIO, message: string): number {
  io.stderr(`zfs-advisor plan: ${message}\n${USAGE}`);
  return EXIT.usage;
}

/** Loads an inventory for --snapshot/--demo; a one-line error message on failure. */
async function inventoryFrom(snapshot: string | undefined, demo: boolean | undefined): Promise<{ ok: true; inv: Inventory } | { ok: false; message: string }> {
  const { loadInventory, InventoryLoadError } = await import('../../gather/load.ts');
  try {
    return { ok: true, inv: (await loadInventory({ snapshot, demo })).inventory };
  } catch (err) {
    if (err instanceof InventoryLoadError) return { ok: false, message: err.message.split('\n')[0]! };
    throw err;
  }
}

async function layouts(args: string[], io: CliIO): Promise<number> {
  const p = parseArgs({ args, strict: true, options: {
    disks: { type: 'string' }, size: { type: 'string' }, type: { type: 'string' }, workload: { type: 'string' },
    ashift: { type: 'string' }, json: { type: 'boolean' }, snapshot: { type: 'string' }, demo: { type: 'boolean' },
    spares: { type: 'string' }, 'zfs-version': { type: 'string' },
  } });
  const spares = p.values.spares !== undefined ? Number(p.values.spares) : 0;
  if (!Number.isInteger(spares) || spares < 0 || spares > 100) return usage(io, '--spares must be a whole number of hot spares (0…100)');
  const zfsVersion = p.values['zfs-version'] ?? null;
  if (zfsVersion !== null && !/^\d{1,3}\.\d{1,3}(\.\d{1,3})?$/.test(zfsVersion)) return usage(io, '--zfs-version must look like 2.2.6');
  const fromInventory = p.values.snapshot !== undefined || p.values.demo === true;
  if (fromInventory && (p.values.disks !== undefined || p.values.size !== undefined)) return usage(io, '--disks/--size and --snapshot/--demo exclude each other');
  const mediaArg = p.values.type;
  if (mediaArg !== undefined && !(MediaKind as readonly string[]).includes(mediaArg)) return usage(io, `--type must be one of ${MediaKind.join(', ')}`);
  const workload = Workload.safeParse(p.values.workload ?? 'files');
  if (!workload.success) return usage(io, `--workload must be one of ${Workload.options.join(', ')}`);
  const ashift = p.values.ashift ? Number(p.values.ashift) : 12;
  if (!Number.isInteger(ashift) || ashift < 9 || ashift > 16) return usage(io, '--ashift must be 9…16');

  let disks: number;
  let size: number;
  let media: MediaKind;
  let unused: (UnusedDisks & { source: string; notes: string[]; openzfs: string | null }) | null = null;
  if (fromInventory) {
    const loaded = await inventoryFrom(p.values.snapshot, p.values.demo);
    if (!loaded.ok) { io.stderr(`zfs-advisor plan: ${loaded.message}\n`); return EXIT.badInput; }
    const picked = unusedDisksForPlanning(loaded.inv, mediaArg as MediaKind | undefined);
    if (!picked.ok) { io.stderr(`zfs-advisor plan: ${picked.message}\n`); return EXIT.usage; }
    unused = { ...picked.value, source: loaded.inv.source.label, notes: picked.notes, openzfs: loaded.inv.host.zfs.openzfs };
    ({ disks, diskBytes: size, media } = picked.value);
  } else {
    disks = Number(p.values.disks);
    const parsed = p.values.size ? parseDiskSize(p.values.size) : null;
    if (!Number.isInteger(disks) || disks < 1) return usage(io, '--disks N (a positive integer) is required, or --snapshot DIR / --demo');
    if (!parsed) return usage(io, '--size is required, e.g. 16T');
    size = parsed;
    media = (mediaArg ?? 'hdd') as MediaKind;
  }
  if (spares >= disks) return usage(io, `--spares ${spares} leaves no disks for data vdevs (${disks} disks)`);
  const plan = planLayouts({ disks, diskBytes: size, media, workload: workload.data, ashift, spares, openzfs: zfsVersion ?? unused?.openzfs ?? null });
  const out = unused ? { ...plan, fromInventory: true as const, unusedDisks: unused } : plan;
  if (p.values.json) { io.stdout(`${JSON.stringify(out, null, 2)}\n`); return EXIT.ok; }
  const sizeText = p.values.size ?? `${(size / 1e12).toFixed(2)} TB`;
  const lines = [`${disks} × ${sizeText} ${media}${spares ? ` (${spares} as hot spares)` : ''}, workload ${workload.data} (${plan.blockSize / 1024}K blocks), ashift ${ashift}`];
  if (unused) lines.push(`Unused disks of ${unused.source}: ${unused.drives.map((d) => d.path ?? d.id).join(', ')}`, ...unused.notes.map((n) => `  - ${n}`));
  lines.push('');
  if (!plan.candidates.some((c) => c.faultTolerance.perVdev > 0)) {
    lines.push(`No redundant layout fits ${disks - spares} disk(s): a mirror needs 2, raidz 3 or more. Shown for comparison only:`, '');
  }
  lines.push(`${'#'.padStart(3)}  ${'layout'.padEnd(26)} ${'usable'.padStart(11)} ${'for blocks'.padStart(11)} ${'80 %'.padStart(11)} ${'fails ok'.padStart(8)} ${'rand r/w'.padStart(9)} ${'seq r/w MB/s'.padStart(12)} ${'resilver h'.padStart(10)}  ${'score'.padEnd(5)}  findings`);
  for (const c of plan.candidates) {
    const findings = c.findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity === 'critical' || f.severity === 'warning' ? '!' : '·'} ${f.ruleId}${f.count > 1 ? ` ×${f.count}` : ''}`).join(', ');
    const label = c.flags.length ? `${c.label} [${c.flags.join(', ')}]` : c.label;
    lines.push(`${String(c.rank).padStart(3)}  ${label.padEnd(26)} ${tib(c.space.usableBytes).padStart(11)} ${tib(c.fit.effectiveUsableBytes).padStart(11)} ${tib(c.fillGuidanceBytes).padStart(11)} ${String(c.faultTolerance.perVdev).padStart(8)} ${`${c.performance.randomReadX}/${c.performance.randomWriteX}`.padStart(9)} ${`${c.performance.seqReadMBps}/${c.performance.seqWriteMBps}`.padStart(12)} ${(c.resilver.hours ? `${c.resilver.hours[0].toFixed(0)}–${c.resilver.hours[1].toFixed(0)}` : '-').padStart(10)}  ${c.score.toFixed(3)}  ${findings || '-'}`);
    if (c.rankNote) lines.push(`       ^ ${c.rankNote}`);
  }
  const best = plan.candidates[0]!;
  lines.push('', `Recommended: ${best.label}`, ...best.reasons.map((r) => `  - ${r}`), ...best.warnings.map((w) => `  ! ${w}`),
    ...best.findings.map((f) => `  ${f.severity === 'critical' || f.severity === 'warning' ? '!' : '-'} ${f.severity} (${f.ruleId}${f.count > 1 ? `, ${f.count} vdevs/devices` : ''}): ${f.title}`));
  const firstWarned = plan.candidates.find((c) => c.findings.some((f) => f.severity === 'critical' || f.severity === 'warning'));
  if (firstWarned) {
    lines.push('', `Why not ${firstWarned.label} (rank ${firstWarned.rank}): ` + firstWarned.findings.filter((f) => f.severity === 'critical' || f.severity === 'warning').map((f) => `${f.title} (${f.ruleId})`).join('; '));
  }
  lines.push('', 'Assumptions:', ...plan.assumptions.map((a) => `  - ${a}`), '');
  io.stdout(lines.join('\n'));
  return EXIT.ok;
}

function parsePartitions(text: string): PartitionRole[] | null {
  const out: PartitionRole[] = [];
  for (const part of text.split(',')) {
    const m = /^(slog|special):(.+)$/.exec(part.trim());
    const bytes = m ? parseHumanNumber(m[2]!) : null;
    if (!m || !bytes) return null;
    out.push({ role: m[1] as PartitionRole['role'], sizeBytes: bytes });
  }
  return out;
}

async function addVdev(kind: 'slog' | 'special', args: string[], io: CliIO): Promise<number> {
  const p = parseArgs({ args, strict: true, options: {
    pool: { type: 'string' }, devices: { type: 'string', multiple: true }, snapshot: { type: 'string' }, demo: { type: 'boolean' },
    'pool-json': { type: 'string' }, 'special-small-blocks': { type: 'string' }, datasets: { type: 'string' },
    partition: { type: 'string' }, 'zfs-version': { type: 'string' }, json: { type: 'boolean' },
    'accept-lower-redundancy': { type: 'boolean' }, 'shared-disk': { type: 'boolean' }, platform: { type: 'string' },
  } });
  const devices = (p.values.devices ?? []).flatMap((d) => d.split(',')).map((d) => d.trim()).filter(Boolean);
  if (devices.length === 0) return usage(io, '--devices is required');
  let pool: Pool | undefined;
  let datasets: Dataset[] = [];
  let inv: Inventory | null = null;
  let host: Host | null = null;
  let openzfs: string | null = p.values['zfs-version'] ?? null;
  if (p.values['pool-json']) {
    const file = p.values['pool-json'];
    let json: unknown;
    try { json = JSON.parse(readFileSync(file, 'utf8')); } catch (err) {
      io.stderr(`zfs-advisor plan: ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message.split('\n')[0]}\n`);
      return EXIT.badInput;
    }
    const parsed = Pool.safeParse(json);
    if (!parsed.success) { io.stderr(`zfs-advisor plan: ${file}: not a Pool (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})\n`); return EXIT.badInput; }
    pool = parsed.data;
    // A bare pool has no host: --platform says how to partition (without it, no partitioning command).
    if (p.values.platform !== undefined) {
      const platform = Platform.safeParse(p.values.platform);
      if (!platform.success) return usage(io, `--platform must be one of ${Platform.options.join(', ')}`);
      host = { hostname: null, platform: platform.data, distribution: 'other', distributionVersion: null, kernel: null, zfs: { userland: null, kernel: null, openzfs, flavour: 'unknown' }, memoryBytes: null };
    }
  } else {
    if (p.values.platform !== undefined) return usage(io, '--platform only goes with --pool-json (an inventory knows its platform)');
    const loaded = await inventoryFrom(p.values.snapshot, p.values.demo);
    if (!loaded.ok) { io.stderr(`zfs-advisor plan: ${loaded.message}\n`); return EXIT.badInput; }
    inv = loaded.inv;
    host = inv.host;
    const name = p.values.pool ?? (inv.pools.length === 1 ? inv.pools[0]!.name : undefined);
    pool = inv.pools.find((x) => x.name === name);
    if (!pool) return usage(io, `--pool: ${name ?? '(none given)'} not found (have: ${inv.pools.map((x) => x.name).join(', ') || 'no pools'})`);
    datasets = inv.datasets.filter((d) => d.pool === pool!.name);
    openzfs ??= inv.host.zfs.openzfs;
  }
  const wanted = p.values.datasets?.split(',').map((s) => s.trim()).filter(Boolean);
  if (wanted) datasets = wanted.map((n) => datasets.find((d) => d.name === n) ?? { name: n, pool: pool!.name, type: 'filesystem', sync: null, recordsize: null, volblocksize: null, volsize: null, compression: null, compressratio: null, specialSmallBlocks: null, logbias: null, primarycache: null, dedup: null, usedBytes: null, availableBytes: null, referencedBytes: null, quotaBytes: null, mountpoint: null, properties: {} });
  else datasets = datasets.filter((d) => d.type === 'filesystem');
  const ssb = p.values['special-small-blocks'];
  const threshold = ssb !== undefined ? parseHumanNumber(ssb) : undefined;
  if (ssb !== undefined && (threshold === null || threshold === undefined)) return usage(io, '--special-small-blocks must be a size such as 16K');
  const partitions = p.values.partition ? parsePartitions(p.values.partition) : undefined;
  if (partitions === null) return usage(io, '--partition must look like slog:16G,special:40G');
  let plan;
  try {
    plan = planAddVdev({
      kind, pool, devices, openzfs, datasets, specialSmallBlocks: threshold ?? undefined, partitions,
      host, pools: inv?.pools ?? [pool], drives: inv?.drives ?? [],
      acceptLowerRedundancy: p.values['accept-lower-redundancy'] === true, sharedDisk: p.values['shared-disk'] === true,
    });
  } catch (err) {
    if (err instanceof PlanRefused) { io.stderr(`zfs-advisor plan: ${err.message}\n`); return EXIT.usage; }
    throw err;
  }
  if (p.values.json) { io.stdout(`${JSON.stringify(plan, null, 2)}\n`); return EXIT.ok; }
  const lines = [`Plan: add a ${kind === 'slog' ? 'SLOG' : 'special vdev'} to ${pool.name} (printed only: zfs-advisor never runs these)`, ''];
  if (plan.redundancy.lowerRedundancyAccepted) lines.push('!!! LOWER REDUNDANCY ACCEPTED: this special vdev survives fewer failures than the data vdevs; losing it loses the pool !!!', '');
  lines.push(`Redundancy: ${plan.redundancy.summary}`, '');
  plan.steps.forEach((s, i) => lines.push(`${i + 1}. ${s.display}`, `   ${s.reversible === 'yes' ? 'reversible' : s.reversible === 'no' ? 'IRREVERSIBLE' : 'partly reversible'}: ${s.why}`));
  if (plan.warnings.length) lines.push('', ...plan.warnings.map((w) => `! ${w}`));
  lines.push('', 'Resulting zpool status (our model):', plan.preview);
  io.stdout(lines.join('\n'));
  return EXIT.ok;
}

const command: CliCommand = {
  summary: 'Compare pool layouts for a set of disks, or plan adding a SLOG/special vdev (printed, never run).',
  async run(args, io) {
    const [sub, ...rest] = args;
    try {
      if (sub === 'layouts') return await layouts(rest, io);
      if (sub === 'add-slog') return await addVdev('slog', rest, io);
      if (sub === 'add-special') return await addVdev('special', rest, io);
    } catch (err) {
      if (err instanceof TypeError && 'code' in err && String((err as { code: unknown }).code).startsWith('ERR_PARSE_ARGS')) return usage(io, err.message);
      if (err instanceof RangeError) return usage(io, err.message);
      throw err;
    }
    return usage(io, sub ? `unknown subcommand "${sub}"` : 'a subcommand is required');
  },
};
export default command;
