/**
 * `zfs-advisor plan layouts (--disks N --size 16T | --snapshot DIR | --demo) [--type hdd|ssd|nvme] [--workload vm|files|media|db] [--ashift 12]
 *   [--spares N] [--zfs-version 2.2.6] [--json]` (options: defs/plan-layouts.ts, defs/plan-add-vdev.ts)
 * `zfs-advisor plan add-slog|add-special --pool P --devices D1,D2 [--snapshot DIR | --demo | --pool-json FILE [--platform linux|freebsd]]
 *   [--special-small-blocks 16K] [--datasets a,b] [--partition slog:16G,special:40G] [--accept-lower-redundancy] [--shared-disk] [--json]`
 * Prints plans; never runs a pool-changing command. Refused plans (hostile or in-use devices,
 * unmatched redundancy) print one line on stderr and exit 64.
 */
import { readFileSync } from 'node:fs';
import { EXIT, type CliIO, type Handler, type Values } from '../command.ts';
import type { options as addVdevOptions } from '../defs/plan-add-vdev.ts';
import type { options as layoutsOptions } from '../defs/plan-layouts.ts';
import { firstLine, inputError, refusal, usageError } from '../framework/errors.ts';
import { Platform, Pool, type Dataset, type Host, type Inventory } from '../../model/inventory.ts';
import { parseHumanNumber } from '../../parsers/common.ts';
import { planAddVdev, type PartitionRole } from '../../planner/add-vdev.ts';
import { nativeWayLines } from '../../planner/native-way-text.ts';
import { MAX_PLAN_DISKS, planLayouts, rankGroup, Workload } from '../../planner/layouts.ts';
import { MediaKind } from '../../planner/performance.ts';
import { PlanRefused } from '../../planner/plan-refused.ts';
import { unusedDisksForPlanning, type UnusedDisks } from '../../planner/unused-disks.ts';
import { inlinePlain } from '../../text/markdown.ts';
import { formatBytes, formatCount, formatRange, plural } from '../../text/format.ts';
import { textTable as groupedTable } from '../../text/table.ts';

/** Planner text is the server's Markdown (links to sources): a terminal gets "text (url)". */
const md = (text: string): string => inlinePlain(text);


/** Loads an inventory for --snapshot/--demo; a one-line error message on failure. */
async function inventoryFrom(snapshot: string | undefined, demo: string | true | undefined): Promise<Inventory> {
  const { loadInventory, InventoryLoadError } = await import('../../gather/load.ts');
  if (snapshot !== undefined && demo !== undefined) throw usageError('--snapshot and --demo exclude each other', 'give one');
  try {
    return (await loadInventory({ snapshot, demo: demo !== undefined, demoName: typeof demo === 'string' ? demo : undefined })).inventory;
  } catch (err) {
    if (err instanceof InventoryLoadError) throw inputError(firstLine(err), snapshot ? 'give a directory written by `zfs-advisor capture`' : 'see zfs-advisor plan --help');
    throw err;
  }
}

export const runLayouts: Handler<typeof layoutsOptions> = async ({ values: v }, io) => {
  const fromInventory = v.snapshot !== undefined || v.demo !== undefined;
  if (fromInventory && (v.disks !== undefined || v.size !== undefined)) throw usageError('--disks/--size and --snapshot/--demo exclude each other', 'give the disks by count and size, or plan for an inventory\'s unused disks');
  const mediaArg = v.type as MediaKind | undefined;
  const workload = Workload.parse(v.workload ?? 'files');
  const ashift = v.ashift ?? 12;
  const spares = v.spares ?? 0;
  const zfsVersion = v['zfs-version'] ?? null;
  if (zfsVersion !== null && !/^\d{1,3}\.\d{1,3}(\.\d{1,3})?$/.test(zfsVersion)) throw usageError(`--zfs-version "${zfsVersion}" is not an OpenZFS version`, 'give it as `zfs version` prints it, e.g. --zfs-version 2.2.6');

  let disks: number;
  let size: number;
  let media: MediaKind;
  let unused: (UnusedDisks & { source: string; notes: string[]; openzfs: string | null }) | null = null;
  if (fromInventory) {
    const inv = await inventoryFrom(v.snapshot, v.demo);
    const picked = unusedDisksForPlanning(inv, mediaArg);
    if (!picked.ok) throw refusal(picked.message, 'give the disks with --disks N --size SIZE instead');
    unused = { ...picked.value, source: inv.source.label, notes: picked.notes, openzfs: inv.host.zfs.openzfs };
    ({ disks, diskBytes: size, media } = picked.value);
  } else {
    if (v.disks === undefined) throw usageError('--disks is missing', 'give the number of disks, e.g. --disks 6 --size 4T, or --snapshot DIR / --demo');
    if (v.size === undefined) throw usageError('--size is missing', 'give the size of one disk with a unit, e.g. --size 4T (4·10^12 bytes) or --size 3.6TiB');
    disks = v.disks;
    size = v.size;
    media = mediaArg ?? 'hdd';
  }
  if (disks > MAX_PLAN_DISKS) throw refusal(`${disks} disks: a plan takes at most ${MAX_PLAN_DISKS}`, 'plan for one shelf or group of disks at a time with --disks N --size SIZE');
  if (spares >= disks) throw usageError(`--spares ${spares} leaves no disks for data vdevs (${disks} disks)`, 'give fewer spares or more disks');
  const plan = planLayouts({ disks, diskBytes: size, media, workload, ashift, spares, openzfs: zfsVersion ?? unused?.openzfs ?? null });
  const out = unused ? { ...plan, fromInventory: true as const, unusedDisks: unused } : plan;
  if (v.json) { io.stdout(`${JSON.stringify(out, null, 2)}\n`); return EXIT.ok; }
  const sizeText = formatBytes(size);
  const lines = [`${disks} × ${sizeText} ${media}${spares ? ` (${spares} as hot spares)` : ''}, workload ${workload} (${plan.blockSize / 1024}K blocks), ashift ${ashift}`];
  if (unused) {
    lines.push(`Unused disks of ${unused.source}: ${unused.drives.map((d) => d.path ?? d.id).join(', ')}`, ...unused.notes.map((n) => `  - ${md(n)}`));
    if (unused.inUse.length > 0) lines.push('Not planned, in use:', ...unused.inUse.map((d) => `  ${d.path ?? d.id}: ${d.words}`));
  }
  lines.push('');
  if (!plan.candidates.some((c) => c.faultTolerance.perVdev > 0)) {
    lines.push(`No redundant layout fits ${plural(disks - spares, 'disk')}: a mirror needs 2, raidz 3 or more. Shown for comparison only:`, '');
  }
  // One usable column when the workload's block size costs nothing extra (it is the 128K the
  // usable figure already assumes); both when padding makes them differ.
  const padded = plan.candidates.some((c) => Math.abs(c.fit.effectiveUsableBytes - c.space.usableBytes) > c.space.usableBytes * 0.001);
  const blocks = `${plan.blockSize / 1024}K`;
  const headers = ['#', 'layout', ...(padded ? ['usable', `for ${blocks} blocks`] : [`usable (${blocks})`]), '80 %', 'survives', 'rand r/w IOPS', 'seq r/w MB/s', 'sync 4K IOPS', 'resilver h', 'score', 'findings'];
  // Ranks run group by group (rankGroup), by score within a group: each group gets its heading row.
  const rows: (string | null)[][] = [];
  const notes = new Map<number, string>();
  let group = '';
  for (const c of plan.candidates) {
    const g = rankGroup(c);
    if (g !== group) { rows.push([`${g}:`]); group = g; }
    const findings = c.findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity === 'critical' || f.severity === 'warning' ? '!' : '·'} ${f.ruleId}${f.count > 1 ? ` ×${f.count}` : ''}`).join(', ');
    const label = c.flags.length ? `${c.label} [${c.flags.join(', ')}]` : c.label;
    rows.push([
      String(c.rank), label, ...(padded ? [formatBytes(c.space.usableBytes)] : []), formatBytes(c.fit.effectiveUsableBytes), formatBytes(c.fillGuidanceBytes),
      String(c.faultTolerance.perVdev), `${formatCount(c.performance.randomReadIops)}/${formatCount(c.performance.randomWriteIops)}`,
      `${formatCount(c.performance.seqReadMBps)}/${formatCount(c.performance.seqWriteMBps)}`, formatCount(c.performance.syncWrite4kQd1.iops),
      c.resilver.hours ? formatRange(Math.round(c.resilver.hours[0]), Math.round(c.resilver.hours[1])) : null, c.score.toFixed(3), findings || '-',
    ]);
    if (c.rankNote) notes.set(rows.length - 1, `^ ${md(c.rankNote)}`);
  }
  const tableLines = groupedTable(headers, rows).trimEnd().split('\n');
  // Header and rule take two lines; a row's note goes right under it.
  tableLines.forEach((l, i) => { lines.push(l); const n = notes.get(i - 2); if (n) lines.push(`     ${n}`); });
  const best = plan.candidates[0]!;
  lines.push('', `Recommended: ${best.label}`, ...best.reasons.map((r) => `  - ${md(r)}`), ...best.warnings.map((w) => `  ! ${md(w)}`),
    ...best.findings.map((f) => `  ${f.severity === 'critical' || f.severity === 'warning' ? '!' : '-'} ${f.severity} (${f.ruleId}${f.count > 1 ? `, ${f.count} vdevs/devices` : ''}): ${f.title}`));
  const firstWarned = plan.candidates.find((c) => c.findings.some((f) => f.severity === 'critical' || f.severity === 'warning'));
  if (firstWarned) {
    lines.push('', `Why not ${firstWarned.label} (rank ${firstWarned.rank}): ` + firstWarned.findings.filter((f) => f.severity === 'critical' || f.severity === 'warning').map((f) => `${f.title} (${f.ruleId})`).join('; '));
  }
  lines.push('', 'Assumptions:', ...plan.assumptions.map((a) => `  - ${md(a)}`), '');
  io.stdout(lines.join('\n'));
  return EXIT.ok;
};

function parsePartitions(text: string): PartitionRole[] | null {
  const out: PartitionRole[] = [];
  for (const part of text.split(',')) {
    const m = /^(slog|special|l2arc):(.+)$/.exec(part.trim());
    const bytes = m ? parseHumanNumber(m[2]!) : null;
    if (!m || !bytes) return null;
    out.push({ role: m[1] as PartitionRole['role'], sizeBytes: bytes });
  }
  return out;
}

async function addVdev(kind: 'slog' | 'special', v: Values<typeof addVdevOptions>, io: CliIO): Promise<number> {
  const p = { values: v };
  const devices = (p.values.devices ?? []).flatMap((d) => d.split(',')).map((d) => d.trim()).filter(Boolean);
  if (devices.length === 0) throw usageError('--devices is missing', 'give the devices to add, e.g. --devices /dev/disk/by-id/nvme-a,/dev/disk/by-id/nvme-b');
  let pool: Pool | undefined;
  let datasets: Dataset[] = [];
  let inv: Inventory | null = null;
  let host: Host | null = null;
  let openzfs: string | null = p.values['zfs-version'] ?? null;
  if (p.values['pool-json']) {
    const file = p.values['pool-json'];
    let json: unknown;
    try { json = JSON.parse(readFileSync(file, 'utf8')); } catch (err) {
      throw inputError(`${file}: ${(err as NodeJS.ErrnoException).code ?? firstLine(err)}`, 'give a Pool JSON file (one entry of `zfs-advisor inventory --json` pools)');
    }
    const parsed = Pool.safeParse(json);
    if (!parsed.success) throw inputError(`${file}: not a Pool (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message})`, 'give one entry of the pools of `zfs-advisor inventory --json`');
    pool = parsed.data;
    // A bare pool has no host: --platform says how to partition (without it, no partitioning command).
    if (p.values.platform !== undefined) {
      const platform = Platform.parse(p.values.platform);
      host = { hostname: null, platform, distribution: 'other', distributionVersion: null, kernel: null, zfs: { userland: null, kernel: null, openzfs, flavour: 'unknown' }, memoryBytes: null };
    }
  } else {
    if (p.values.platform !== undefined) throw usageError('--platform only goes with --pool-json', 'leave it out: an inventory knows its platform');
    inv = await inventoryFrom(p.values.snapshot, p.values.demo);
    host = inv.host;
    const name = p.values.pool ?? (inv.pools.length === 1 ? inv.pools[0]!.name : undefined);
    pool = inv.pools.find((x) => x.name === name);
    if (!pool) throw usageError(`--pool ${name ?? '(none given)'}: no such pool in ${inv.source.label}`, inv.pools.length ? `give one of ${inv.pools.map((x) => x.name).join(', ')}` : 'this inventory has no pools');
    datasets = inv.datasets.filter((d) => d.pool === pool!.name);
    openzfs ??= inv.host.zfs.openzfs;
  }
  const wanted = p.values.datasets?.split(',').map((s) => s.trim()).filter(Boolean);
  if (wanted) datasets = wanted.map((n) => datasets.find((d) => d.name === n) ?? { name: n, pool: pool!.name, type: 'filesystem', sync: null, recordsize: null, volblocksize: null, volsize: null, compression: null, compressratio: null, specialSmallBlocks: null, logbias: null, primarycache: null, dedup: null, usedBytes: null, availableBytes: null, referencedBytes: null, quotaBytes: null, mountpoint: null, properties: {} });
  else datasets = datasets.filter((d) => d.type === 'filesystem');
  const threshold = p.values['special-small-blocks'];
  const partitions = p.values.partition ? parsePartitions(p.values.partition) : undefined;
  if (partitions === null) throw usageError(`--partition "${p.values.partition}" is not a list of ROLE:SIZE`, 'give roles slog/special/l2arc with sizes in bytes with a unit, e.g. --partition slog:16G,special:40G');
  let plan;
  try {
    plan = planAddVdev({
      kind, pool, devices, openzfs, datasets, specialSmallBlocks: threshold, partitions,
      host, pools: inv?.pools ?? [pool], drives: inv?.drives ?? [],
      acceptLowerRedundancy: p.values['accept-lower-redundancy'] === true, sharedDisk: p.values['shared-disk'] === true,
    });
  } catch (err) {
    if (err instanceof PlanRefused) throw refusal(err.message, err.wayForward ?? 'nothing was planned; change the devices or options as the reason says');
    throw err;
  }
  if (p.values.json) { io.stdout(`${JSON.stringify(plan, null, 2)}\n`); return EXIT.ok; }
  const lines = [`Plan: add a ${kind === 'slog' ? 'SLOG' : 'special vdev'} to ${pool.name} (printed only: zfs-advisor never runs these)`, ''];
  if (plan.redundancy.lowerRedundancyAccepted) lines.push('!!! LOWER REDUNDANCY ACCEPTED: this special vdev survives fewer failures than the data vdevs; losing it loses the pool !!!', '');
  lines.push(`Redundancy: ${md(plan.redundancy.summary)}`, '');
  // On TrueNAS its UI and API come first and the commands below are the fallback (native-way.ts).
  if (plan.native) lines.push(...nativeWayLines(plan.native));
  plan.steps.forEach((s, i) => lines.push(`${i + 1}. ${s.display}`, `   ${s.reversible === 'yes' ? 'reversible' : s.reversible === 'no' ? 'IRREVERSIBLE' : 'partly reversible'}: ${md(s.why)}`));
  if (plan.warnings.length) lines.push('', ...plan.warnings.map((w) => `! ${md(w)}`));
  if (plan.forecast) lines.push('', ...plan.forecast.summary);
  lines.push('', 'Resulting zpool status (our model):', plan.preview);
  io.stdout(lines.join('\n'));
  return EXIT.ok;
}

export const runAddSlog: Handler<typeof addVdevOptions> = ({ values }, io) => addVdev('slog', values, io);
export const runAddSpecial: Handler<typeof addVdevOptions> = ({ values }, io) => addVdev('special', values, io);
