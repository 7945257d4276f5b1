/**
 * The planner view's logic: layout candidates as table rows and chart series, and the devices
 * the "add SLOG / add special" form offers (the inventory's drives no pool uses). The numbers are
 * the server planner's (`server/src/planner/*`); nothing is re-estimated here. The contract passes
 * the planner's nested detail through as-is, so those fields are read defensively (unknown → null).
 */
import type { AddVdevPlanView, LayoutPlanView } from '../../../server/src/api/contract.ts';
import type { Drive, Pool } from '../../../server/src/model/inventory.ts';
import { driveRows, kindOf } from '../overview/drives-table.ts';
import { formatBytes } from '../../../server/src/text/format.ts';

export { parseDiskSize } from '../../../server/src/planner/space.ts';

type Candidate = LayoutPlanView['candidates'][number];

/** A number at a path of nested objects, or null. */
function numAt(o: unknown, ...path: string[]): number | null {
  let v: unknown = o;
  for (const k of path) {
    if (typeof v !== 'object' || v === null) return null;
    v = (v as Record<string, unknown>)[k];
  }
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export interface LayoutRow {
  id: string;
  label: string;
  rank: number;
  recommended: boolean;
  disksUsed: number;
  spareDisks: number;
  usableBytes: number;
  /** Usable space for the workload's block size (after raidz padding), null when not given. */
  effectiveBytes: number | null;
  /** Block-fit efficiency for the workload's block size (1 = no padding loss). */
  efficiency: number | null;
  /** The sum of the disks' sizes, for "N % of raw". */
  rawBytes: number | null;
  /** The server's ranking group ("use every disk, no rule warns"): ranks run group by group. */
  group: string | null;
  fillGuidanceBytes: number;
  /** Disks that can fail in every vdev / fewest failures that can lose the pool. */
  tolerancePerVdev: number | null;
  worstCaseLoss: number | null;
  randomReadIops: number | null;
  randomWriteIops: number | null;
  seqReadMBps: number | null;
  seqWriteMBps: number | null;
  /** Forecast 4K sync-write IOPS at QD1 without a SLOG (server/src/forecast). */
  syncWriteIops: number | null;
  resilverHours: [number, number] | null;
  reasons: string[];
  warnings: string[];
  /** Short flags from the server ("no redundancy"). */
  flags: string[];
  /** What the rule catalog says about the layout once built (the server's words). */
  findings: LayoutFindingView[];
  /** The server's reason when a warned layout ranks above an unwarned one. */
  rankNote: string | null;
}

export interface LayoutFindingView { ruleId: string; severity: string; title: string; count: number; url: string | null }

/** The candidate's findings, read defensively (the contract passes them through as-is). */
function findingsOf(c: Candidate): LayoutFindingView[] {
  const raw = (c as Record<string, unknown>).findings;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((f: unknown) => {
    if (typeof f !== 'object' || f === null) return [];
    const o = f as Record<string, unknown>;
    if (typeof o.ruleId !== 'string' || typeof o.severity !== 'string' || typeof o.title !== 'string') return [];
    const cites = Array.isArray(o.citations) ? o.citations as { url?: unknown }[] : [];
    const url = cites.map((x) => x.url).find((u): u is string => typeof u === 'string' && u.startsWith('https://')) ?? null;
    return [{ ruleId: o.ruleId, severity: o.severity, title: o.title, count: typeof o.count === 'number' ? o.count : 1, url }];
  });
}

const stringsAt = (c: Candidate, key: string): string[] => {
  const v = (c as Record<string, unknown>)[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
};

export function layoutRow(c: Candidate): LayoutRow {
  const lo = numAt(c, 'resilver', 'hours', '0');
  const hi = numAt(c, 'resilver', 'hours', '1');
  return {
    id: c.id,
    label: c.label,
    rank: c.rank,
    recommended: c.recommended,
    disksUsed: c.disksUsed,
    spareDisks: c.spareDisks,
    usableBytes: c.space.usableBytes,
    effectiveBytes: numAt(c, 'fit', 'effectiveUsableBytes'),
    efficiency: numAt(c, 'fit', 'efficiency'),
    rawBytes: numAt(c, 'space', 'rawBytes'),
    group: typeof (c as Record<string, unknown>).group === 'string' ? (c as Record<string, unknown>).group as string : null,
    fillGuidanceBytes: c.fillGuidanceBytes,
    tolerancePerVdev: numAt(c, 'faultTolerance', 'perVdev'),
    worstCaseLoss: numAt(c, 'faultTolerance', 'worstCaseLoss'),
    randomReadIops: numAt(c, 'performance', 'randomReadIops'),
    randomWriteIops: numAt(c, 'performance', 'randomWriteIops'),
    seqReadMBps: numAt(c, 'performance', 'seqReadMBps'),
    seqWriteMBps: numAt(c, 'performance', 'seqWriteMBps'),
    syncWriteIops: numAt(c, 'performance', 'syncWrite4kQd1', 'iops'),
    resilverHours: lo !== null && hi !== null ? [lo, hi] : null,
    reasons: c.reasons,
    warnings: c.warnings,
    flags: stringsAt(c, 'flags'),
    findings: findingsOf(c),
    rankNote: typeof (c as Record<string, unknown>).rankNote === 'string' ? (c as Record<string, unknown>).rankNote as string : null,
  };
}

/** Whether the workload's block size changes the usable space of any row (padding): then both columns are worth showing. */
export const paddingMatters = (rows: readonly LayoutRow[]): boolean =>
  rows.some((r) => r.effectiveBytes !== null && Math.abs(r.effectiveBytes - r.usableBytes) > r.usableBytes * 0.001);

/** Findings at warning level or louder draw attention in the table. */
export const isLoud = (f: Pick<LayoutFindingView, 'severity'>): boolean => f.severity === 'warning' || f.severity === 'critical';

/** Rows in rank order (the server ranks; ties keep its order). */
export function layoutRows(plan: LayoutPlanView): LayoutRow[] {
  return plan.candidates.map(layoutRow).sort((a, b) => a.rank - b.rank);
}

/** Series for the comparison chart: usable TiB for the workload (the table's unit), and random-write IOPS. */
export function chartSeries(rows: readonly LayoutRow[]): { labels: string[]; usableTiB: number[]; randomWriteIops: (number | null)[] } {
  return {
    labels: rows.map((r) => r.label),
    usableTiB: rows.map((r) => Math.round(((r.effectiveBytes ?? r.usableBytes) / 2 ** 40) * 100) / 100),
    randomWriteIops: rows.map((r) => r.randomWriteIops),
  };
}

export interface DeviceChoice {
  /** The path the commands will use: /dev/disk/by-id/… when known. */
  path: string;
  label: string;
  optane: boolean;
  /** Free for a new vdev: only then may it be ticked. */
  usable: boolean;
  /** The server model's words why it is not (server/src/model/usable.ts), null when usable. */
  why: string | null;
}

/**
 * Every drive with a path as a device choice: the usable ones first (Optane first, then by path),
 * then those held otherwise (mounted, signatures…), then pool members — each with the reason, never
 * as a choice.
 */
export function deviceChoices(drives: readonly Drive[], pools: readonly Pool[]): DeviceChoice[] {
  const rank = (c: DeviceChoice, inPool: boolean) => (c.usable ? 0 : inPool ? 2 : 1);
  return driveRows(drives, pools)
    .filter((r) => (r.drive.byIdPath ?? r.drive.devPath) !== null)
    .map((r) => {
      const size = r.drive.sizeBytes ? ` · ${formatBytes(r.drive.sizeBytes)}` : '';
      const c: DeviceChoice = {
        path: (r.drive.byIdPath ?? r.drive.devPath)!, label: `${r.name} — ${r.drive.model ?? 'unknown model'} (${kindOf(r.drive)}${size})`, optane: r.optane,
        usable: r.usability.usable, why: r.usability.usable ? null : r.usability.words,
      };
      return { c, k: rank(c, r.usability.reasons.some((x) => x.kind === 'pool')) };
    })
    .sort((a, b) => a.k - b.k || Number(b.c.optane) - Number(a.c.optane) || a.c.path.localeCompare(b.c.path))
    .map((x) => x.c);
}

/** The drives a new vdev may take, as device choices. */
export const unusedDevices = (drives: readonly Drive[], pools: readonly Pool[]): DeviceChoice[] => deviceChoices(drives, pools).filter((c) => c.usable);

/** The server's redundancy sentence for the plan (one author: the planner writes it). */
export function redundancyText(plan: AddVdevPlanView): string {
  return plan.redundancy.summary;
}

/** special_small_blocks choices offered by the form, bytes (0 = metadata only). */
export const SMALL_BLOCK_CHOICES = [0, 4096, 8192, 16384, 32768, 65536] as const;

/** The versions the planner accepts (as the API does): major.minor[.patch]. */
export const OPENZFS_VERSION = /^\d{1,3}\.\d{1,3}(\.\d{1,3})?$/;

/**
 * The OpenZFS version to plan for, read from the host's inventory ("2.2.6-1", "zfs-2.3.4-pve1",
 * "2.4.0-rc1" → "2.2.6", "2.3.4", "2.4.0"), or '' when it is unknown.
 */
export function openzfsForPlan(hostVersion: string | null | undefined): string {
  const m = /(\d{1,3}\.\d{1,3}(?:\.\d{1,3})?)/.exec(hostVersion ?? '');
  return m ? m[1]! : '';
}
