/**
 * Pool health from `zpool status`: devices that are faulted, unavailable, offline or removed (in
 * data, special, dedup, log and cache vdevs), read/write/checksum errors, permanent data errors,
 * scrubs that are overdue, and a resilver under way.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { fact, kb, man } from './lib/layout-citations.ts';
import { vdevLabel, vdevSubjectId } from './lib/layout-geometry.ts';
import { BAD_STATES, errorCounts, isBeingReplaced, lostLeaves } from './lib/health-vdev-state.ts';
import { commandPath, faultTolerance } from './lib/topology.ts';
import type { Pool, VdevNode } from '../server/src/model/inventory.ts';
import type { Dataset, Drive, Host } from '../server/src/model/inventory.ts';
import { newDevice } from './lib/commands.ts';
import { datasetsByName } from './lib/inventory-index.ts';
import { plural } from '../server/src/text/format.ts';

/** Issue 3: flag pools not scrubbed for more than 35 days (a monthly scrub plus slack; distributions schedule monthly). */
export const SCRUB_MAX_AGE_DAYS = 35;
const DAY_MS = 86_400_000;
const POOL_DOWN = new Set(['FAULTED', 'UNAVAIL', 'SUSPENDED']);
const CITES = [man('zpool-status', 8), man('zpoolconcepts', 7, 'Device Failure and Recovery'), man('zpool-scrub', 8)];

/**
 * When the pool was made, from its root dataset's `creation` property (created with the pool;
 * `zpool get` has no creation time and `zpool history` is not collected). `zfs get -p` prints epoch
 * seconds, plain `zfs get` a date such as `Sun Nov 22  6:10 2026`. Null when unknown.
 */
export function poolCreatedMs(pool: Pick<Pool, 'name'>, datasets: readonly Dataset[]): number | null {
  const raw = datasetsByName(datasets).get(pool.name)?.properties.creation?.value.trim();
  if (raw === undefined || raw === '' || raw === '-') return null;
  const ms = /^\d+$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
  return Number.isFinite(ms) ? ms : null;
}

const isBad = (n: VdevNode): boolean => n.state !== null && BAD_STATES.has(n.state.toUpperCase());

function deviceFinding(pool: Pool, v: VdevNode, drives: readonly Drive[], host: Host | undefined): FindingDraft | null {
  const slots = v.children.length === 0 ? [v] : v.children;
  const badSlots = slots.filter(isBad);
  if (badSlots.length === 0 && !isBad(v)) return null;
  const lost = lostLeaves(v);
  const tol = faultTolerance(v);
  const left = tol - badSlots.length;
  const role = v.class;
  const severity = role === 'cache' ? 'suggestion' : role === 'log' || role === 'spare' ? 'warning' : left <= 0 ? 'critical' : 'warning';
  const replacing = isBeingReplaced(v);
  const offline = lost.filter((l) => l.state?.toUpperCase() === 'OFFLINE');
  const roleText: Record<VdevNode['class'], string> = {
    data: left < 0 ? 'This vdev has lost more devices than its redundancy allows: the pool cannot work until a device returns.'
      : left === 0 ? 'It has no redundancy left: one more device failure in this vdev loses the whole pool.'
        : `It can still lose ${plural(left, 'more device')}, but it is running with reduced redundancy.`,
    special: left <= 0 ? 'This special vdev holds the pool\'s metadata and has no redundancy left: losing it loses the pool.' : `The special vdev can still lose ${plural(left, 'more device')}.`,
    dedup: left <= 0 ? 'This dedup vdev holds the dedup table and has no redundancy left: losing it loses the pool.' : `The dedup vdev can still lose ${plural(left, 'more device')}.`,
    log: 'Sync writes now go to the pool\'s own ZIL (slower); nothing is lost unless the system also crashes before the log is replayed.',
    cache: 'A cache (L2ARC) device only holds copies of pool data: nothing is at risk, reads just lose the cache.',
    spare: 'A hot spare that is not available cannot step in when a data disk fails.',
  };
  const first = lost[0] ?? badSlots[0] ?? v;
  const path = commandPath(first, drives);
  return {
    severity,
    title: `${role === 'data' ? '' : `${role} `}${vdevLabel(v)} in ${pool.name} is ${v.state ?? 'not healthy'}: ${lost.map((l) => `${l.name} ${l.state}`).join(', ') || badSlots.map((s) => `${s.name} ${s.state}`).join(', ')}`,
    subject: { kind: 'vdev', id: vdevSubjectId(pool, v), pool: pool.name },
    evidence: [
      { label: 'vdev class', value: role },
      { label: 'vdev state', value: v.state },
      { label: 'affected devices', value: [...new Set([...lost, ...badSlots])].map((l) => `${l.name}: ${l.state}${l.note ? ` (${l.note})` : ''}`).join('; ') },
      { label: 'devices this vdev may lose', value: tol },
      { label: 'failures it can still absorb', value: Math.max(0, left) },
      { label: 'replacement under way', value: replacing },
    ],
    explanation: `${roleText[role]}${replacing ? ' A replacement is already under way; let the resilver finish.' : ''}${pool.status ? ` zpool status says: "${pool.status.replace(/\s+/g, ' ')}"` : ''}`,
    action: offline.length > 0 && offline.length === lost.length
      ? {
          summary: `Bring the offlined device back online (or replace it if it was taken out on purpose).`,
          commands: [`zpool online ${pool.name} ${commandPath(offline[0]!, drives)}`, `zpool status -v ${pool.name}`],
          reversible: 'yes',
          reversibleWhy: '`zpool offline` takes it out again; onlining only resilvers what changed meanwhile.',
        }
      : {
          summary: replacing ? 'Wait for the resilver; then check the old device and the cabling.' : 'Check the cabling and the drive\'s SMART data; replace the device if it has failed.',
          commands: [
            `zpool status -v ${pool.name}`,
            `smartctl -a ${path}`,
            ...(replacing ? [] : [`zpool replace ${pool.name} ${path} ${newDevice(host, 'new-disk')}`]),
          ],
          reversible: 'partly',
          reversibleWhy: 'Diagnosis changes nothing; a `zpool replace` resilvers onto the new disk and the old one leaves the pool when it completes.',
        },
    confidence: 'high',
  };
}

export default defineRule({
  meta: {
    id: 'pool-health',
    title: 'Pool health: failed devices, errors, scrubs',
    category: 'health',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools'],
    optionalArtifacts: ['Drives', 'Capture', 'Host', 'Datasets'],
    description:
      'Reads `zpool status` the way an administrator should every day: devices that are faulted, unavailable, offline or removed (also in log, cache and special vdevs), read/write/checksum errors, permanent data errors, a resilver in progress, and scrubs older than 35 days (a pool never scrubbed is judged by its age, from the `creation` of its root dataset, when known). Learn more: [raidz space, padding and resilience: Health: faults, errors and scrubs](docs/kb/raidz-space.md#health-faults-errors-and-scrubs).',
    citations: [kb('raidz-space', 'Health: faults, errors and scrubs'), ...CITES, fact('A25')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Capture, Host, Datasets }) {
    if (Pools.length === 0) return notApplicable('No pools.');
    const drives = Drives ?? [];
    // Scrub age is judged at the moment the evidence was captured (a snapshot read a year later
    // must not suddenly report stale scrubs); without a capture time the age is not judged.
    const capturedMs = Capture ? Date.parse(Capture.capturedAt) : Number.NaN;
    const now = Number.isNaN(capturedMs) ? null : capturedMs;
    const findings: FindingDraft[] = [];
    for (const pool of Pools) {
      const state = pool.state?.toUpperCase() ?? null;
      if (state !== null && POOL_DOWN.has(state)) {
        findings.push({
          severity: 'critical',
          title: `Pool ${pool.name} is ${state}`,
          subject: { kind: 'pool', id: pool.name, pool: pool.name },
          evidence: [{ label: 'state', value: state }, { label: 'status', value: pool.status }, { label: 'see', value: pool.see }],
          explanation: `The pool is not serving data. ${pool.status ? `zpool status: "${pool.status.replace(/\s+/g, ' ')}" ` : ''}${pool.action ? `Suggested action: "${pool.action.replace(/\s+/g, ' ')}"` : ''}`,
          action: { summary: 'Reconnect or replace the missing devices as zpool status advises; do not re-create the pool.', commands: [`zpool status -v ${pool.name}`, ...(pool.see ? [`# ${pool.see}`] : [])], reversible: 'yes', reversibleWhy: 'Reading the status changes nothing.' },
          citations: pool.see ? [kb('raidz-space', 'Health: faults, errors and scrubs'), ...CITES, { source: pool.see, url: pool.see }] : [kb('raidz-space', 'Health: faults, errors and scrubs'), ...CITES],
          confidence: 'high',
        });
      }
      for (const v of pool.vdevs.filter((x) => x.type !== 'indirect' && x.type !== 'hole')) {
        const f = deviceFinding(pool, v, drives, Host);
        if (f) findings.push(f);
        const e = errorCounts(v);
        if (e.read + e.write + e.cksum > 0) {
          const noisy = v.children.length === 0 ? [v] : v.children.flatMap((c) => (c.children.length === 0 ? [c] : c.children)).filter((n) => (n.read ?? 0) + (n.write ?? 0) + (n.cksum ?? 0) > 0);
          findings.push({
            severity: 'warning',
            title: `${vdevLabel(v)} in ${pool.name} reports errors: ${e.read} read, ${e.write} write, ${e.cksum} checksum`,
            subject: { kind: 'vdev', id: vdevSubjectId(pool, v), pool: pool.name },
            evidence: [
              { label: 'read errors', value: e.read },
              { label: 'write errors', value: e.write },
              { label: 'checksum errors', value: e.cksum },
              { label: 'devices with errors', value: noisy.map((n) => `${n.name} (${n.read ?? 0}/${n.write ?? 0}/${n.cksum ?? 0})`).join(', ') },
            ],
            explanation:
              'ZFS detected I/O or checksum errors on these devices since the counters were last cleared. Where the vdev has redundancy ZFS repaired the data from another copy; the cause — a failing disk, cable, controller or RAM — is still there until found. ' +
              'Errors that keep growing mean a device should be replaced.',
            action: {
              summary: 'Find the cause (SMART data, cables, kernel log), scrub, then clear the counters and watch whether they come back.',
              commands: [`zpool status -v ${pool.name}`, ...noisy.slice(0, 3).map((n) => `smartctl -a ${commandPath(n, drives)}`), `zpool scrub ${pool.name}`, `zpool clear ${pool.name}`],
              reversible: 'yes',
              reversibleWhy: 'Scrubbing and clearing counters change no data; the counters are lost, so note them first.',
            },
            confidence: 'high',
          });
        }
      }
      const permanent = pool.errorFiles.length > 0 || (pool.errors !== null && /permanent|data errors/i.test(pool.errors) && !/no known data errors/i.test(pool.errors));
      if (permanent) {
        findings.push({
          severity: 'critical',
          title: `Pool ${pool.name} has permanent data errors${pool.errorFiles.length > 0 ? ` in ${plural(pool.errorFiles.length, 'file')}` : ''}`,
          subject: { kind: 'pool', id: pool.name, pool: pool.name },
          evidence: [{ label: 'errors', value: pool.errors }, { label: 'files', value: pool.errorFiles.join(', ') || null }],
          explanation: 'ZFS found blocks it could not repair from any copy. The listed files are damaged; the rest of the pool is intact. Restore them from backup or a snapshot, delete the damaged copies, then scrub so the error list is rebuilt.',
          action: { summary: 'Restore the listed files from backup, delete the damaged ones, scrub twice to clear the list.', commands: [`zpool status -v ${pool.name}`, `zpool scrub ${pool.name}`], reversible: 'yes', reversibleWhy: 'Listing and scrubbing change no data.' },
          confidence: 'high',
        });
      }
      const scan = pool.scan;
      if (scan && (scan.kind === 'resilver' || scan.kind === 'rebuild') && scan.state === 'in-progress') {
        findings.push({
          severity: 'info',
          title: `Pool ${pool.name} is ${scan.kind === 'rebuild' ? 'rebuilding' : 'resilvering'}${scan.progressPct != null ? ` (${scan.progressPct} % done)` : ''}`,
          subject: { kind: 'pool', id: pool.name, pool: pool.name },
          evidence: [{ label: 'scan', value: scan.raw.split('\n')[0] ?? scan.raw }, { label: 'progress', value: scan.progressPct, unit: '%' }, { label: 'started', value: scan.startedAt }],
          explanation: 'Until the resilver finishes the affected vdev runs with reduced redundancy and the pool is slower. Avoid heavy load, benchmarks and further disk swaps until it completes.',
          action: { summary: 'Let it finish; watch progress.', commands: [`zpool status ${pool.name}`, `zpool wait -t resilver ${pool.name}`], reversible: 'yes', reversibleWhy: 'Watching changes nothing.' },
          confidence: 'high',
        });
      }
      const scrubbedAt = scan?.kind === 'scrub' && scan.state !== 'in-progress' ? scan.endedAt ?? scan.startedAt : null;
      const ageDays = scrubbedAt && now !== null ? (now - Date.parse(scrubbedAt)) / DAY_MS : null;
      // `scan: none requested` also describes a pool made yesterday: judge "never scrubbed" against the
      // pool's age at capture time when its creation is known; otherwise say it may simply be new.
      const never = scan?.kind === 'none';
      const createdMs = never ? poolCreatedMs(pool, Datasets ?? []) : null;
      const poolAgeDays = createdMs !== null && now !== null ? (now - createdMs) / DAY_MS : null;
      const neverDue = never && (poolAgeDays === null || poolAgeDays > SCRUB_MAX_AGE_DAYS);
      // Scrub age matters for a working pool; on a degraded or faulted one the device findings come first.
      const working = state === null || state === 'ONLINE';
      if (working && (neverDue || (ageDays !== null && ageDays > SCRUB_MAX_AGE_DAYS))) {
        const neverText = poolAgeDays !== null
          ? `It was created ${Math.floor(poolAgeDays)} days before this capture, so its first scrub is overdue. `
          : 'Its creation time is unknown, so it may simply be new (a pool is not due for its first scrub until about a month old). ';
        findings.push({
          severity: 'suggestion',
          title: never
            ? `Pool ${pool.name} has never been scrubbed${poolAgeDays !== null ? ` in its ${Math.floor(poolAgeDays)} days` : ''}`
            : `Pool ${pool.name} was last scrubbed ${Math.floor(ageDays!)} days ago`,
          subject: { kind: 'pool', id: pool.name, pool: pool.name },
          evidence: [
            { label: 'last scan', value: scan?.raw.split('\n')[0] ?? null },
            { label: 'days since last scrub', value: ageDays !== null ? Math.floor(ageDays) : null },
            { label: 'threshold', value: SCRUB_MAX_AGE_DAYS, unit: 'days' },
            ...(createdMs !== null ? [{ label: 'pool created', value: new Date(createdMs).toISOString() }] : []),
            ...(poolAgeDays !== null ? [{ label: 'pool age at capture', value: Math.floor(poolAgeDays), unit: 'days' }] : []),
          ],
          explanation: `${never ? neverText : ''}A scrub reads and verifies every block, repairing silent corruption from redundant copies while that is still possible. Without regular scrubs, damage on a second disk is found only during a resilver, when it may no longer be repairable.`,
          action: { summary: 'Start a scrub now and schedule one monthly (most distributions ship a timer or cron job).', commands: [`zpool scrub ${pool.name}`], reversible: 'yes', reversibleWhy: '`zpool scrub -s` stops it; a scrub only reads and repairs.' },
          confidence: never && poolAgeDays === null ? 'medium' : 'high',
        });
      }
    }
    return fired(findings);
  },
});
