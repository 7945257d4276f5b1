/**
 * Drive health from SMART: overall assessment failed, media errors, reallocated and pending
 * sectors, wear, temperature.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import type { Severity } from '../server/src/model/finding.ts';
import type { Drive, Pool } from '../server/src/model/inventory.ts';
import { isHdd, isNvme, isVirtual } from './lib/device-class.ts';
import { allLeaves, driveForLeaf } from './lib/topology.ts';
import { newDevice } from './lib/commands.ts';
import { kb } from './lib/citations.ts';
import { plural } from '../server/src/text/format.ts';

/** Issue 3: wear (NVMe "Percentage Used" or the ATA equivalent) ≥ 80 % warns; ≥ 100 % = rated endurance used up (NVMe spec). */
export const WEAR_WARN_PCT = 80;
export const WEAR_CRITICAL_PCT = 100;
/**
 * Temperature limits [heuristic, weak evidence]: most 3.5" HDD datasheets give 60 °C as the maximum
 * operating temperature, and large fleet studies see failure rates rise above ~45–50 °C; NVMe
 * drives throttle at their own warning threshold, commonly 70–80 °C. We warn a little before the
 * limit and call it critical at it.
 */
export const TEMP_LIMITS = {
  hdd: { warn: 50, critical: 60 },
  nvme: { warn: 70, critical: 80 },
  ssd: { warn: 60, critical: 70 },
} as const;

const SMARTCTL_MAN = { source: 'smartctl(8)', locator: 'overall-health self-assessment', url: 'https://www.smartmontools.org/browser/trunk/smartmontools/smartctl.8.in' };
const NVME_SPEC = { source: 'NVM Express Base Specification', locator: 'SMART / Health Information log: Percentage Used, Media and Data Integrity Errors', url: 'https://nvmexpress.org/specifications/' };

const RANK: Record<Severity, number> = { critical: 0, warning: 1, suggestion: 2, info: 3 };

function poolOf(d: Drive, pools: readonly Pool[]): { pool: string; leaf: string } | null {
  for (const p of pools) {
    for (const l of allLeaves(p)) if (driveForLeaf(l, [d]) !== null) return { pool: p.name, leaf: l.name };
  }
  return null;
}

export default defineRule({
  meta: {
    id: 'drive-health',
    title: 'Drive health (SMART)',
    category: 'health',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Drives'],
    optionalArtifacts: ['Pools', 'Host'],
    description:
      'A drive that fails its SMART self-assessment, reports media errors or reallocated/pending sectors, has used most of its rated endurance, or runs hot is likely to fail soon; replacing it before it fails avoids running the pool degraded. Learn more: [Device classes: Drive health and SMART](docs/kb/device-classes.md#drive-health-and-smart).',
    citations: [kb('device-classes', 'Drive health and SMART'), SMARTCTL_MAN, NVME_SPEC],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Drives, Pools, Host }) {
    const known = Drives.filter((d) => d.smartPassed !== null || d.wearPct !== null || d.temperatureC !== null || d.mediaErrors !== null);
    if (known.length === 0) return notApplicable('No SMART data for any drive (install smartmontools and run as root).');
    const findings: FindingDraft[] = [];
    for (const d of known) {
      const problems: Array<{ sev: Severity; text: string }> = [];
      if (d.smartPassed === false) problems.push({ sev: 'critical', text: 'the drive\'s own SMART overall-health self-assessment FAILED — the firmware predicts failure' });
      if ((d.mediaErrors ?? 0) > 0) problems.push({ sev: 'warning', text: `${plural(d.mediaErrors!, 'media/data-integrity error')}: data could not be read back as written` });
      if ((d.pendingSectors ?? 0) > 0) problems.push({ sev: 'warning', text: `${plural(d.pendingSectors!, 'pending sector')} waiting to be reallocated: unreadable right now` });
      if ((d.reallocatedSectors ?? 0) > 0) problems.push({ sev: (d.reallocatedSectors ?? 0) >= 100 ? 'warning' : 'suggestion', text: `${plural(d.reallocatedSectors!, 'reallocated sector')}: the drive has replaced bad sectors from its reserve; watch whether the number grows` });
      // A virtual disk or LUN reports the hypervisor's or the target's figures for wear and
      // temperature, not a drive's (QEMU emulates them): no limit of ours applies to them.
      const physical = !isVirtual(d);
      if (physical && d.wearPct !== null && d.wearPct >= WEAR_WARN_PCT) problems.push({ sev: d.wearPct >= WEAR_CRITICAL_PCT ? 'critical' : 'warning', text: `${d.wearPct} % of its rated write endurance used` });
      const kind = isHdd(d) ? 'hdd' : isNvme(d) ? 'nvme' : 'ssd';
      const lim = TEMP_LIMITS[kind];
      if (physical && d.temperatureC !== null && d.temperatureC >= lim.warn) problems.push({ sev: d.temperatureC >= lim.critical ? 'critical' : 'warning', text: `${d.temperatureC} °C, at or above the ${d.temperatureC >= lim.critical ? lim.critical : lim.warn} °C we flag for ${kind === 'hdd' ? 'hard disks' : kind === 'nvme' ? 'NVMe drives' : 'SATA/SAS SSDs'} (a heuristic limit)` });
      if (problems.length === 0) continue;
      const severity = problems.map((p) => p.sev).sort((a, b) => RANK[a] - RANK[b])[0]!;
      const where = Pools ? poolOf(d, Pools) : null;
      const path = d.byIdPath ?? d.devPath ?? d.id;
      const failing = problems.some((p) => p.sev !== 'suggestion' && !p.text.includes('°C'));
      findings.push({
        severity,
        title: `${d.model ?? d.id}${where ? ` (${where.pool})` : ''}: ${problems[0]!.text.split(':')[0]}`,
        subject: { kind: 'drive', id: d.id, pool: where?.pool ?? null },
        evidence: [
          { label: 'model', value: d.model },
          { label: 'serial', value: d.serial },
          { label: 'SMART overall health passed', value: d.smartPassed },
          { label: 'media errors', value: d.mediaErrors },
          { label: 'reallocated sectors', value: d.reallocatedSectors },
          { label: 'pending sectors', value: d.pendingSectors },
          { label: 'wear', value: d.wearPct, unit: '%' },
          { label: 'temperature', value: d.temperatureC, unit: '°C' },
          { label: 'power-on hours', value: d.powerOnHours, unit: 'h' },
          { label: 'pool', value: where ? `${where.pool} (${where.leaf})` : null },
        ],
        explanation:
          `${d.model ?? 'This drive'}: ${problems.map((p) => p.text).join('; ')}. ` +
          (where
            ? `It is part of pool ${where.pool}; ZFS will keep serving data from redundancy when it fails, but the pool then runs degraded until a resilver completes — replacing it early avoids that window.`
            : 'It is not part of any pool we saw.') +
          (problems.some((p) => p.text.includes('°C')) ? ' Temperature limits are conventional datasheet figures, not measured failure thresholds; check airflow first.' : ''),
        action: {
          summary: failing ? 'Run a long self-test, then replace the drive.' : 'Improve cooling and keep watching the counters.',
          commands: [
            `smartctl -a ${path}`,
            `smartctl -t long ${path}`,
            ...(where && failing ? [`zpool replace ${where.pool} ${where.leaf} ${newDevice(Host, 'new-disk')}`] : []),
          ],
          reversible: 'yes',
          reversibleWhy: 'Reading SMART data and running self-tests change no data; a `zpool replace` leaves the old disk untouched until the resilver finishes.',
        },
        confidence: d.smartPassed === false || (d.mediaErrors ?? 0) > 0 ? 'high' : 'medium',
      });
    }
    return fired(findings);
  },
});
