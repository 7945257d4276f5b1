/**
 * QLC, DRAM-less or hybrid-cache SSDs (fast only while their SLC/DRAM/Optane cache lasts) in a
 * SLOG, special or dedup role — or as the data vdevs of a write-heavy flash pool.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_004, doc, fact, kb } from './lib/layout-citations.ts';
import { normaliseModel, qlcOrDramless } from './lib/device-class.ts';
import type { CheapFlashMatch } from './lib/device-class.ts';
import { driveRoles, type DriveRole } from './lib/layout-roles.ts';
import type { Drive } from '../server/src/model/inventory.ts';
import { newDevice } from './lib/commands.ts';

/** Optane Memory H10: a small Optane cache in front of QLC NAND (004 point 8: "Optane cached NVRAM isn't the same as Optane SSD"). */
const H10 = /^(INTEL )?HBRPEKNX/;

function cacheOnly(d: Drive): CheapFlashMatch | null {
  const hit = qlcOrDramless(d);
  if (hit) return hit;
  if (H10.test(normaliseModel(d.model))) return { product: 'Intel Optane Memory H10 (Optane cache + QLC)', kind: 'QLC', source: 'A bit about SSD performance and Optane SSDs (TrueNAS Community), point 8' };
  return null;
}

const CRITICAL_ROLES = new Set(['log', 'special', 'dedup']);

export default defineRule({
  meta: {
    id: 'qlc-or-cache-only-ssd-in-role',
    title: 'QLC, DRAM-less or cache-dependent SSD in a demanding role',
    category: 'device',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools', 'Drives'],
    optionalArtifacts: ['Host'],
    description:
      'QLC and DRAM-less SSDs are fast only while their SLC or DRAM cache lasts; under sustained or mixed writes they fall to hard-disk speed, with low endurance. A SLOG, special or dedup vdev sees exactly that load. Learn more: [Device classes: QLC and DRAM-less SSDs](docs/kb/device-classes.md#qlc-and-dram-less-ssds).',
    citations: [kb('device-classes', 'QLC and DRAM-less SSDs'), doc(DOC_004, 'points 2 and 8'), fact('E8'), fact('G3'), fact('A28')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Host }) {
    const roles = driveRoles(Pools, Drives);
    const cheap = [...roles.values()].filter((e) => cacheOnly(e.drive) !== null);
    if (roles.size === 0) return notApplicable('No pool device could be matched to a drive (needs lsblk/smartctl data).');
    const findings: FindingDraft[] = [];
    // One finding per vdev: the members of one mirror with the same problem are named together.
    const groups = new Map<string, Array<{ drive: Drive; match: CheapFlashMatch; rs: DriveRole[] }>>();
    for (const { drive, roles: rs } of cheap) {
      const critical = rs.filter((r) => CRITICAL_ROLES.has(r.cls));
      const data = rs.filter((r) => r.cls === 'data');
      if (critical.length === 0 && data.length === 0) continue; // L2ARC or spare only: reads, harmless
      const role = critical[0] ?? data[0]!;
      const key = [role.pool, role.top.name, critical.map((r) => `${r.pool}/${r.cls}/${r.top.name}`).join(','), critical.length ? '' : 'data'].join('|');
      groups.set(key, [...(groups.get(key) ?? []), { drive, match: cacheOnly(drive)!, rs }]);
    }
    for (const members of groups.values()) {
      const { drive, match, rs } = members[0]!;
      const critical = rs.filter((r) => CRITICAL_ROLES.has(r.cls));
      const role = critical[0] ?? rs.find((r) => r.cls === 'data')!;
      const many = members.length > 1;
      const allRoles = members.flatMap((m) => m.rs);
      const path = drive.byIdPath ?? drive.devPath ?? drive.id;
      const products = [...new Set(members.map((m) => `${m.match.product} (${m.match.kind})`))].join(', ');
      findings.push({
        severity: critical.length > 0 ? 'warning' : 'suggestion',
        title: `${many ? `${members.length} drives of ${role.top.name}: ${products}` : `${match.product} (${match.kind})`} used as ${critical.length > 0 ? critical.map((r) => r.cls).join(' + ') : 'data'} in ${role.pool}`,
        subject: many ? { kind: 'vdev', id: `${role.pool}/${role.top.name}`, pool: role.pool } : { kind: 'drive', id: drive.id, pool: role.pool },
        evidence: [
          { label: 'model', value: [...new Set(members.map((m) => m.drive.model))].join(', ') },
          { label: 'class', value: [...new Set(members.map((m) => m.match.kind))].join(', ') },
          { label: 'identified as', value: [...new Set(members.map((m) => m.match.product))].join(', ') },
          { label: 'identification source', value: [...new Set(members.map((m) => m.match.source))].join('; ') },
          { label: 'roles', value: allRoles.map((r) => `${r.pool}/${r.cls} (${r.leaf})`).join(', ') },
          { label: 'wear', value: many ? members.map((m) => (m.drive.wearPct === null ? '?' : `${m.drive.wearPct}`)).join(' / ') : drive.wearPct, unit: '%' },
        ],
        explanation:
          (many ? `${members.map((m) => m.rs.find((r) => r.top === role.top)?.leaf ?? m.drive.id).join(' and ')} are in the same vdev and share the problem, so mirroring them does not help. ` : '') +
          (critical.some((r) => r.cls === 'log')
            ? 'Every sync write lands on a SLOG, followed by a cache flush: a QLC or DRAM-less drive has consumer flush latency and, once its cache is full, hard-disk write speed, so it gains little over the pool\'s own ZIL and wears quickly. '
            : '') +
          (critical.some((r) => r.cls === 'special' || r.cls === 'dedup')
            ? 'A special or dedup vdev takes all metadata I/O — small, random, mixed reads and writes, the load under which such drives collapse (TrueNAS Optane resource) — and the pool dies with it. '
            : '') +
          (critical.length === 0
            ? 'As a data vdev it works, but sustained writes larger than its SLC cache run at hard-disk speed and its endurance is low; fine for mostly-read data. '
            : '') +
          'Model identification is by model string; some budget lines change NAND between batches, so treat it as "known to ship as".',
        action: {
          summary: critical.length > 0
            ? 'Replace it in that role with an Optane or an enterprise SSD with power-loss protection.'
            : 'Keep write-heavy datasets elsewhere; watch its wear.',
          commands: critical.length > 0
            ? members.flatMap((m) => m.rs.filter((r) => CRITICAL_ROLES.has(r.cls)).map((r) => (r.cls === 'log' ? `zpool remove ${r.pool} ${r.leaf}` : `zpool replace ${r.pool} ${r.leaf} ${newDevice(Host, 'enterprise-ssd')}`)))
            : members.map((m) => `smartctl -a ${m.drive.byIdPath ?? m.drive.devPath ?? path}`),
          reversible: critical.length > 0 ? 'partly' : 'yes',
          reversibleWhy: critical.length > 0
            ? 'A log device can be removed and re-added at any time; special/dedup members can be replaced but not removed from raidz pools.'
            : 'Reading SMART data changes nothing.',
        },
        confidence: 'medium',
      });
    }
    return fired(findings);
  },
});
