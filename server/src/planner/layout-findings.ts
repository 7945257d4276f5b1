/**
 * The planner asks the rule catalog (issue 17 §1): each candidate layout becomes a synthetic
 * inventory — the planned disks, an empty pool of that shape, the workload's datasets, the host's
 * OpenZFS version — built from the same zod model types the rules consume, and the catalog runs
 * on it. So a layout the rules would warn about once built is warned about before it is built.
 *
 * Rules about a pool's history or the drives' health (scrubs, fill, SMART) cannot speak about a
 * pool that does not exist yet; they find nothing here because the synthetic pool is new, empty,
 * and its planned drives carry no SMART readings ("unknown", never a guessed "passed").
 */
import { runRules } from '../../../rules/engine/engine.ts';
import { ALL_RULES } from '../../../rules/index.ts';
import type { Artifacts } from '../model/artifacts.ts';
import type { Finding, Severity } from '../model/finding.ts';
import type { Dataset, Drive, Host, Pool, VdevNode } from '../model/inventory.ts';
import { layoutSpace } from './capacity.ts';
import type { LayoutSpec } from './layout-spec.ts';
import type { MediaKind } from './performance.ts';

/** The planned pool's name in findings. */
export const PLANNED_POOL = 'planned';

export interface LayoutContext {
  diskBytes: number;
  media: MediaKind;
  workload: 'vm' | 'files' | 'media' | 'db';
  blockSize: number;
  ashift: number;
  /** OpenZFS version the pool will be created on (major.minor.patch), null when not given. */
  openzfs: string | null;
  /** Hot spares the caller asked for (added as `spare` vdevs). */
  hotSpares: number;
}

/** What a plan shows of one finding: who said it, how loud, and the sentence, with its citation links. */
export interface LayoutFinding {
  ruleId: string;
  severity: Severity;
  title: string;
  explanation: string;
  citations: { source: string; url: string | null }[];
}

const diskName = (i: number) => `planned-disk-${i + 1}`;

function plannedDrive(i: number, ctx: LayoutContext): Drive {
  const id = diskName(i);
  return {
    id, devPath: null, aliases: [id], byIdPath: `/dev/disk/by-id/${id}`, model: null, serial: null, wwn: null, firmware: null,
    sizeBytes: ctx.diskBytes, rotational: ctx.media === 'hdd', rpm: null, media: ctx.media,
    transport: ctx.media === 'nvme' ? 'nvme' : 'unknown', logicalSectorSize: null, physicalSectorSize: null,
    optane: null, powerLossProtection: 'unknown', smartPassed: null, wearPct: null, temperatureC: null, powerOnHours: null,
    mediaErrors: null, reallocatedSectors: null, pendingSectors: null, sources: ['planner'],
  };
}

function node(cls: VdevNode['class'], type: VdevNode['type'], name: string, children: VdevNode[], extra: Partial<VdevNode> = {}): VdevNode {
  return { class: cls, type, name, state: 'ONLINE', read: 0, write: 0, cksum: 0, note: null, children, ...extra };
}

/** The `zpool status` tree the layout would have, leaves bound to the planned drives. */
export function plannedVdevs(spec: LayoutSpec, ctx: LayoutContext): VdevNode[] {
  let next = 0;
  const leaf = (cls: VdevNode['class'] = 'data'): VdevNode => {
    const i = next++;
    return node(cls, 'disk', diskName(i), [], { driveId: diskName(i), sizeBytes: ctx.diskBytes, ashift: ctx.ashift });
  };
  const many = (n: number) => Array.from({ length: n }, () => leaf());
  const out: VdevNode[] = [];
  switch (spec.kind) {
    case 'stripe': for (let i = 0; i < spec.disks; i++) out.push({ ...leaf(), allocBytes: 0 }); break;
    case 'mirror': for (let v = 0; v < spec.vdevs; v++) out.push(node('data', 'mirror', `mirror-${v}`, many(spec.ways), { ashift: ctx.ashift, allocBytes: 0 })); break;
    case 'raidz': for (let v = 0; v < spec.vdevs; v++) out.push(node('data', `raidz${spec.parity}` as VdevNode['type'], `raidz${spec.parity}-${v}`, many(spec.width), { ashift: ctx.ashift, allocBytes: 0 })); break;
    case 'draid': {
      const name = `draid${spec.parity}:${spec.data}d:${spec.children}c:${spec.spares}s-0`;
      out.push(node('data', 'draid', name, many(spec.children), { ashift: ctx.ashift, allocBytes: 0, draid: { parity: spec.parity, data: spec.data, children: spec.children, spares: spec.spares } }));
      break;
    }
  }
  for (let s = 0; s < ctx.hotSpares; s++) out.push({ ...leaf('spare'), state: 'AVAIL', read: null, write: null, cksum: null });
  return out;
}

/** The datasets the workload lives in, created as the planner's commands would (lz4, the workload's block size). */
function plannedDatasets(ctx: LayoutContext, now: Date): Dataset[] {
  const base = {
    pool: PLANNED_POOL, sync: 'standard' as const, volsize: null, compression: 'lz4', compressratio: null, specialSmallBlocks: 0,
    logbias: 'latency' as const, primarycache: 'all', dedup: 'off', usedBytes: 0, availableBytes: null, referencedBytes: 0, quotaBytes: null, properties: {},
  };
  // Created now: no rule may call the new pool overdue for anything (its first scrub, say).
  const created = { creation: { value: String(Math.floor(now.getTime() / 1000)), source: '-' } };
  const root: Dataset = { ...base, name: PLANNED_POOL, type: 'filesystem', recordsize: 131072, volblocksize: null, mountpoint: `/${PLANNED_POOL}`, properties: created };
  if (ctx.workload === 'vm') {
    return [root, { ...base, name: `${PLANNED_POOL}/vm-disk`, type: 'volume', recordsize: null, volblocksize: ctx.blockSize, volsize: 100e9, mountpoint: null }];
  }
  return [root, { ...root, name: `${PLANNED_POOL}/${ctx.workload}`, recordsize: ctx.blockSize, mountpoint: `/${PLANNED_POOL}/${ctx.workload}` }];
}

function plannedHost(ctx: LayoutContext): Host {
  return {
    hostname: null, platform: 'linux', distribution: 'other', distributionVersion: null, kernel: null,
    zfs: { userland: null, kernel: null, openzfs: ctx.openzfs, flavour: ctx.openzfs ? 'openzfs' : 'unknown' }, memoryBytes: null,
  };
}

/** The artifacts of the host once the layout is built: an empty, healthy, new pool. */
export function syntheticArtifacts(spec: LayoutSpec, ctx: LayoutContext, now: Date = new Date()): Artifacts {
  const vdevs = plannedVdevs(spec, ctx);
  const drives = vdevs.flatMap(function all(v: VdevNode): VdevNode[] { return v.children.length ? v.children.flatMap(all) : [v]; })
    .map((_, i) => plannedDrive(i, ctx));
  const size = layoutSpace(spec, ctx.diskBytes, { ashift: ctx.ashift }).poolSizeBytes;
  const pool: Pool = {
    name: PLANNED_POOL, guid: null, state: 'ONLINE', status: null, action: null, see: null,
    // A new pool has never been scrubbed and needs none yet: no scan line, as `zpool status` prints it.
    scan: { kind: 'none', state: 'none', raw: 'none requested', startedAt: null, endedAt: null, errors: null, progressPct: null },
    errors: 'No known data errors', errorFiles: [], vdevs,
    sizeBytes: size, allocBytes: 0, freeBytes: size, fragmentationPct: 0, capacityPct: 0, dedupRatio: 1,
    ashift: ctx.ashift, features: {}, properties: { ashift: { value: String(ctx.ashift), source: 'local' } },
  };
  return {
    Capture: { kind: 'local', capturedAt: now.toISOString(), demo: false },
    Host: plannedHost(ctx), Pools: [pool], Drives: drives, Datasets: plannedDatasets(ctx, now),
  };
}

const LOUD: ReadonlySet<Severity> = new Set(['critical', 'warning']);
export const isWarningLevel = (f: Pick<LayoutFinding, 'severity'>): boolean => LOUD.has(f.severity);

const toLayoutFinding = (f: Finding): LayoutFinding => ({
  ruleId: f.ruleId, severity: f.severity, title: f.title, explanation: f.explanation,
  citations: f.citations.map((c) => ({ source: c.source, url: c.url })),
});

/** One rule's findings about a layout: the first one's words, how many vdevs/devices drew it. */
export interface GroupedFinding extends LayoutFinding {
  /** How many subjects (vdevs, devices) the rule named; 3 × raidz1 draws one entry with count 3. */
  count: number;
}

/** One entry per rule and severity, loudest first, so 8 identical raidz1 vdevs do not print 8 lines. */
export function groupFindings(findings: readonly LayoutFinding[]): GroupedFinding[] {
  const out = new Map<string, GroupedFinding>();
  for (const f of findings) {
    const key = `${f.ruleId}\u0000${f.severity}`;
    const seen = out.get(key);
    if (seen) seen.count++;
    // The pool does not exist yet: "raidz1-0 in planned has…" reads as "raidz1-0 has…".
    else out.set(key, { ...f, title: f.title.replace(new RegExp(` (?:in|on|of) ${PLANNED_POOL}\\b(?!/)`, 'g'), ''), count: 1 });
  }
  return [...out.values()];
}

/** Every finding the rule catalog raises about the layout once built, loudest first. */
export function layoutFindings(spec: LayoutSpec, ctx: LayoutContext, now?: Date): LayoutFinding[] {
  return findingsFor(syntheticArtifacts(spec, ctx, now), now);
}

/** The catalog's findings on artifacts already built (one synthetic inventory serves several questions). */
export function findingsFor(artifacts: Artifacts, now?: Date): LayoutFinding[] {
  return runRules(ALL_RULES, artifacts, now).findings.map(toLayoutFinding);
}
