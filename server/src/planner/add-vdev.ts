/**
 * Plans adding a SLOG or a special vdev to an existing pool (issue 11 §2): the exact commands, each
 * labelled reversible or not with the reason, redundancy matched to the data vdevs, and a preview of
 * the resulting `zpool status` tree from our own model. The app prints these; it never runs them.
 */
import type { Dataset, Drive, Host, Pool, VdevNode } from '../model/inventory.ts';
import type { Reversibility } from '../model/finding.ts';
import { atLeast } from '../../../rules/engine/version.ts';
import { deviceNaming, partitionArgv } from '../../../rules/lib/commands.ts';
import { classFaultTolerance, topLevel } from '../../../rules/lib/topology.ts';
import { checkDevices } from './device-check.ts';
import { PlanRefused } from './plan-refused.ts';
import { displayName, renderStatus } from './status-preview.ts';
import { planSlogForecast, type PlanForecast } from '../forecast/plan-forecast.ts';
import { factLinks } from '../../../rules/lib/citations.ts';
import { inlinePlain } from '../text/markdown.ts';
import { nativeWayForAdd, truenasDiskName } from './native-way.ts';
import type { NativeWay } from '../model/finding.ts';
import { plural } from '../text/format.ts';

/** One partition of each device: for the vdev being added, or kept for a later role (l2arc: `zpool add POOL cache …`). */
export interface PartitionRole { role: 'slog' | 'special' | 'l2arc'; sizeBytes: number }

export interface AddVdevRequest {
  kind: 'slog' | 'special';
  pool: Pool;
  /**
   * Whole devices: /dev/… paths (preferably /dev/disk/by-id on Linux) or names the inventory knows
   * (`nvd1`); plain absolute file paths only for pools built from files. Checked by device-check.ts.
   */
  devices: string[];
  /** The host: decides device paths and the partitioning tool (sgdisk on Linux, gpart on FreeBSD). */
  host?: Host | null;
  /** Every pool of the host: a device in any of them, in any role, is refused. Default: [pool]. */
  pools?: readonly Pool[];
  /** The inventory's drives: resolve bare names and partitions to disks. */
  drives?: readonly Drive[];
  /** Print the plan even though the special vdev survives fewer failures than the data vdevs (adds `zpool add -f`). */
  acceptLowerRedundancy?: boolean;
  /** Allow a partition whose sibling partition already serves a pool (one device for several roles). */
  sharedDisk?: boolean;
  /** OpenZFS version (major.minor.patch) of the host, null when unknown. */
  openzfs: string | null;
  /** For special: datasets to receive `special_small_blocks`, and the threshold. */
  datasets?: Dataset[];
  specialSmallBlocks?: number;
  /** Partition each device (e.g. one Optane for SLOG + special) first: sgdisk on Linux, gpart on FreeBSD. */
  partitions?: PartitionRole[];
}

export interface PlanStep {
  argv: string[];
  /** The command as a person types it. */
  display: string;
  reversible: Reversibility;
  why: string;
}

export interface AddVdevPlan {
  pool: string;
  kind: 'slog' | 'special';
  steps: PlanStep[];
  redundancy: {
    dataTolerance: number | null; newTolerance: number; requiredSides: number;
    /** The new vdev survives at least as many device failures as the data vdevs (false whenever fewer, SLOG included). */
    matched: boolean;
    /** Whether the plan is sound as printed even so, and why (a single SLOG is; a single special only when accepted). */
    acceptable: boolean;
    reason: string;
    /** The one sentence every view shows (CLI, API, UI render it; none re-derives it). */
    summary: string;
    /** True only when a mismatch was printed because the caller accepted lower redundancy. */
    lowerRedundancyAccepted: boolean;
  };
  warnings: string[];
  /**
   * On TrueNAS: the UI steps and the API requests that do the same (the steps above are then the
   * shell fallback); on Proxmox VE: that the shell is its way. Null on other hosts.
   */
  native: NativeWay | null;
  /** SLOG plans: the sync-write forecast now and with these devices (server/src/forecast/plan-forecast.ts). */
  forecast?: PlanForecast;
  /** The new top-level vdev as our model sees it. */
  added: VdevNode;
  /** `zpool status` text of the pool after the plan. */
  preview: string;
  previewVdevs: VdevNode[];
}

const quote = (a: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
const step = (argv: string[], reversible: Reversibility, why: string): PlanStep => ({ argv, display: argv.map(quote).join(' '), reversible, why });

/** The data vdevs' ashift: the per-vdev values when known, else the pool property. */
function dataAshift(pool: Pool): { value: number | null; mixed: boolean } {
  const values = [...new Set(topLevel(pool, 'data').map((v) => v.ashift).filter((a): a is number => typeof a === 'number' && a > 0))];
  if (values.length > 1) return { value: Math.max(...values), mixed: true };
  return { value: values[0] ?? (pool.ashift && pool.ashift > 0 ? pool.ashift : null), mixed: false };
}

/** Why a special vdev could or could not be removed later (zfs-facts B17, C22). */
function specialRemovability(pool: Pool, openzfs: string | null): { reversible: Reversibility; why: string } {
  const raidz = topLevel(pool, 'data').find((v) => v.type.startsWith('raidz') || v.type === 'draid');
  if (raidz) {
    return { reversible: 'no', why: `the pool has a ${raidz.type} top-level vdev (${raidz.name}): OpenZFS can never remove a special vdev from a pool with raidz/dRAID data vdevs, so this vdev is permanent and its loss loses the pool (${factLinks('B17', 'B13')})` };
  }
  const ashift = dataAshift(pool);
  if (ashift.mixed) return { reversible: 'no', why: 'the data vdevs have different ashift values: device removal is impossible on this pool (' + factLinks('B17', 'C22') + ')' };
  if (openzfs && !atLeast(openzfs, '0.8.0')) return { reversible: 'no', why: `OpenZFS ${openzfs} has no device removal` };
  return { reversible: 'yes', why: 'all data vdevs are mirrors/disks with one ashift: `zpool remove` can evacuate it later, provided it keeps the same ashift (-o ashift below) and feature device_removal is enabled (' + factLinks('B17') + ')' };
}

/** The plan's redundancy sentences, one author for the CLI, API and UI. */
function redundancyWords(kind: 'slog' | 'special', r: { dataTolerance: number | null; newTolerance: number; requiredSides: number; matched: boolean; accepted: boolean }): { acceptable: boolean; reason: string; summary: string } {
  const data = r.dataTolerance === null ? 'an unknown number of' : String(r.dataTolerance);
  if (kind === 'slog') {
    if (r.newTolerance === 0) {
      const reason = 'not redundant: only in-flight sync writes are at risk if it fails together with a crash; the pool itself never depends on a log vdev (' + factLinks('A25', 'B14') + ')';
      return { acceptable: true, reason, summary: `Single SLOG — ${reason}.` };
    }
    if (!r.matched) {
      const reason = `the log mirror survives ${plural(r.newTolerance, 'device failure')}, the data vdevs ${data}; a log vdev only holds in-flight sync writes, so fewer is acceptable (${factLinks('B14')})`;
      return { acceptable: true, reason, summary: `Mirrored SLOG, fewer failures tolerated than the data vdevs — ${reason}.` };
    }
    const reason = `the log mirror survives ${plural(r.newTolerance, 'device failure')}, as many as the data vdevs (${data})`;
    return { acceptable: true, reason, summary: `Redundancy matched: ${reason}.` };
  }
  if (r.matched) {
    const reason = `the special vdev survives ${plural(r.newTolerance, 'device failure')}, as many as the data vdevs (${data}); losing it would lose the pool (${factLinks('B13')})`;
    return { acceptable: true, reason, summary: `Redundancy matched: ${reason}.` };
  }
  if (r.accepted) {
    const reason = `LOWER REDUNDANCY ACCEPTED by the caller: the special vdev survives ${plural(r.newTolerance, 'device failure')}, the data vdevs ${data}; if it fails the whole pool is lost (${factLinks('B13', 'B14')})`;
    return { acceptable: true, reason, summary: `Not redundancy-matched — ${reason}.` };
  }
  const reason = `a special vdev needs ${r.requiredSides} devices (a ${r.requiredSides}-way mirror) to survive as many failures as the data vdevs (${data}); losing it loses the pool (${factLinks('B13')})`;
  return { acceptable: false, reason, summary: `Refused unless accepted — ${reason}.` };
}

export function planAddVdev(req: AddVdevRequest): AddVdevPlan {
  const { pool } = req;
  const warnings: string[] = [];
  const steps: PlanStep[] = [];
  const partitioning = (req.partitions?.length ?? 0) > 0;
  const checked = checkDevices(req.devices, {
    host: req.host ?? null, pool, pools: req.pools ?? [pool], drives: req.drives ?? [], partitioning, sharedDisk: req.sharedDisk === true,
  });
  warnings.push(...checked.warnings);
  const devices = checked.devices.map((d) => d.path);

  // 1. Redundancy first, so a refused plan prints nothing. Special must match the data vdevs
  //    (B13–B15): losing it loses the pool. Log vdevs are exempt (B14) but a mirror is advised.
  const dataTolerance = classFaultTolerance(pool, 'data');
  const requiredSides = req.kind === 'special' ? (dataTolerance ?? 0) + 1 : 1;
  const mirrored = devices.length >= 2;
  const newTolerance = mirrored ? devices.length - 1 : 0;
  // Matched means "survives as many failures as the data vdevs", for a log vdev too: a single SLOG
  // is not matched, it is acceptable (B14, A25). Unknown data tolerance: matched only when mirrored.
  const matched = newTolerance >= (dataTolerance ?? 1);
  const specialMatched = newTolerance >= requiredSides - 1;
  const lowerRedundancyAccepted = req.kind === 'special' && !specialMatched && req.acceptLowerRedundancy === true;
  if (req.kind === 'special' && !specialMatched && !lowerRedundancyAccepted) {
    throw new PlanRefused('redundancy', `refused: the data vdevs of ${pool.name} survive ${plural(requiredSides - 1, 'failure')} each, so a special vdev needs ${requiredSides} devices (a ${requiredSides}-way mirror) to match; got ${devices.length}. Losing a special vdev loses the pool (${inlinePlain(factLinks('B13', 'B14'))}). Give ${requiredSides} devices, or accept lower redundancy explicitly (acceptLowerRedundancy / --accept-lower-redundancy)`);
  }
  if (lowerRedundancyAccepted) {
    warnings.unshift(`LOWER REDUNDANCY ACCEPTED: this special vdev survives ${plural(newTolerance, 'failure')} but the data vdevs ${dataTolerance}; ${requiredSides} devices would match. If it fails, the WHOLE POOL is lost (${factLinks('B13', 'B14')}). zpool add refuses this without -f, so the command carries -f, which also overrides its other safety checks`);
  }
  if (req.kind === 'slog' && !mirrored) {
    warnings.push('a single-device SLOG: if it fails together with a crash, up to ~5 s of acknowledged sync writes are lost; mirror it if that is unacceptable (' + factLinks('A25') + ')');
  }
  const words = redundancyWords(req.kind, { dataTolerance, newTolerance, requiredSides, matched, accepted: lowerRedundancyAccepted });

  // 2. Optional partitioning (one fast device serving several roles, 004), platform-aware.
  let members = devices;
  if (req.partitions && partitioning) {
    const roleIndex = req.partitions.findIndex((p) => p.role === req.kind);
    if (roleIndex < 0) throw new PlanRefused('partitioning', `no partition with role ${req.kind}`);
    const parts = req.partitions.map((p) => ({ label: p.role, sizeBytes: p.sizeBytes }));
    const made = devices.map((dev) => ({ dev, plan: partitionArgv(req.host, dev, parts) }));
    if (made.every((m) => m.plan !== null)) {
      for (const { dev, plan } of made) {
        plan!.argv.forEach((argv, k) => {
          steps.push(step(argv, 'partly', `partitioning ${dev} with ${plan!.tool} (command ${k + 1} of ${plan!.argv.length}): anything on the device is lost; unused partitions can be deleted again (it fails, changing nothing, if a partition table or these partitions already exist)`));
        });
      }
      members = made.map((m) => m.plan!.partitions[roleIndex]!);
    } else {
      const naming = deviceNaming(req.host);
      warnings.push(naming === 'other'
        ? `no partitioning command printed: the host platform is ${req.host?.platform ?? 'unknown'} and we only script sgdisk (Linux) and gpart (FreeBSD); create the partitions yourself and replace the <…> placeholders below with partition ${roleIndex + 1} of each device`
        : 'no partitioning command printed: partitioning needs /dev/… paths; create the partitions yourself and replace the <…> placeholders below');
      members = devices.map((d) => `<${displayName(d)} partition ${roleIndex + 1}>`);
    }
  }

  // 3. ashift: match the data vdevs so the vdev stays removable and no mismatch check fires (C22).
  const ashift = dataAshift(pool);
  if (ashift.mixed) warnings.push('the data vdevs already have mixed ashift values (' + factLinks('C22') + ')');
  const ashiftArgs = ashift.value ? ['-o', `ashift=${ashift.value}`] : [];
  if (!ashift.value) warnings.push('the pool ashift is unknown: check `zdb -C` and add `-o ashift=N` matching the data vdevs (' + factLinks('C22') + ')');

  // 4. The zpool add itself.
  const section = req.kind === 'slog' ? 'log' : 'special';
  const vdevArgs = mirrored ? ['mirror', ...members] : [...members];
  // -f only ever for an accepted redundancy mismatch; never added silently.
  const force = lowerRedundancyAccepted ? ['-f'] : [];
  const addArgv = ['zpool', 'add', ...force, ...ashiftArgs, pool.name, section, ...vdevArgs];
  // Dry run first, always: `-n` prints the configuration zpool would build and changes nothing.
  steps.push(step(['zpool', 'add', '-n', ...force, ...ashiftArgs, pool.name, section, ...vdevArgs], 'yes',
    'dry run: zpool checks the devices and prints the layout it would create without changing the pool; compare it with the preview below before running the next command'));
  if (req.kind === 'slog') {
    steps.push(step(addArgv, 'yes', `log vdevs can always be removed again: zpool remove ${pool.name} <log vdev> (${factLinks('B14', 'A1')})`));
  } else {
    if (req.openzfs && !atLeast(req.openzfs, '0.8.0')) warnings.push(`special vdevs need OpenZFS 0.8 or later; this host has ${req.openzfs}`);
    const r = specialRemovability(pool, req.openzfs);
    const loud = lowerRedundancyAccepted ? `LOWER REDUNDANCY ACCEPTED (-f): ${plural(newTolerance, 'failure')} tolerated instead of ${dataTolerance}; ` : '';
    steps.push(step(addArgv, r.reversible, `${loud}${r.why}`));
  }

  // 5. special_small_blocks per dataset (only new writes are affected, B9).
  if (req.kind === 'special' && req.specialSmallBlocks !== undefined) {
    const t = req.specialSmallBlocks;
    const pow2 = t > 0 && (t & (t - 1)) === 0;
    if (req.openzfs && !atLeast(req.openzfs, '2.4.0') && t !== 0 && (!pow2 || t < 512 || t > 1048576)) {
      warnings.push(`OpenZFS ${req.openzfs} accepts special_small_blocks only as 0 or a power of two from 512 to 1M (${factLinks('B11')})`);
    }
    for (const ds of req.datasets ?? []) {
      if (ds.type !== 'filesystem' && !(ds.type === 'volume' && req.openzfs && atLeast(req.openzfs, '2.4.0'))) continue;
      const rs = ds.recordsize ?? ds.volblocksize;
      if (rs !== null && t >= rs) warnings.push(`${ds.name}: special_small_blocks=${t} ≥ its block size ${rs} sends every data block of it to the special vdev (${factLinks('B10')})`);
      steps.push(step(['zfs', 'set', `special_small_blocks=${t}`, ds.name], 'yes',
        'a property: set it back to 0 at any time; it only affects blocks written afterwards — existing data moves only when rewritten (zfs rewrite ≥ 2.3.4, send/receive) (' + factLinks('B9') + ')'));
    }
  }

  // 6. Preview: the next top-level vdev id is the count of existing top-level vdevs (data/log/special/dedup).
  const topCount = pool.vdevs.filter((v) => v.class !== 'cache' && v.class !== 'spare').length;
  const cls = req.kind === 'slog' ? 'log' : 'special';
  const leaf = (p: string): VdevNode => ({ class: cls, type: p.startsWith('/') && !p.startsWith('/dev/') ? 'file' : 'disk', name: displayName(p), state: 'ONLINE', read: 0, write: 0, cksum: 0, note: null, children: [] });
  const added: VdevNode = mirrored
    ? { class: cls, type: 'mirror', name: `mirror-${topCount}`, state: 'ONLINE', read: 0, write: 0, cksum: 0, note: null, children: members.map(leaf), ashift: ashift.value }
    : { ...leaf(members[0]!), ashift: ashift.value };
  const previewVdevs = [...pool.vdevs, added];
  const native = nativeWayForAdd(req.host, pool, [{ section: section, type: mirrored ? 'MIRROR' : 'STRIPE', disks: devices.map((d) => truenasDiskName(d, req.drives ?? [])) }], { partitioned: partitioning });
  return {
    pool: pool.name,
    kind: req.kind,
    steps,
    native,
    redundancy: { dataTolerance, newTolerance, requiredSides, matched, ...words, lowerRedundancyAccepted },
    warnings,
    added,
    preview: renderStatus(pool.name, previewVdevs),
    previewVdevs,
    ...(req.kind === 'slog' ? {
      forecast: planSlogForecast({
        pool, host: req.host, pools: req.pools, drives: req.drives, datasets: req.datasets, label: mirrored ? `mirror ${members.join(' ')}` : members[0]!,
        deviceDrives: checked.devices.map((d) => (d.driveId ? req.drives?.find((x) => x.id === d.driveId) ?? null : null)),
      }),
    } : {}),
  };
}
