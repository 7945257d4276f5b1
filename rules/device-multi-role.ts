/**
 * One physical device partitioned into several ZFS roles (e.g. SLOG + special + L2ARC, or a data
 * disk that also holds the log): the roles compete for one device's latency and fail together.
 * Partitioned, mirrored Optane is the accepted exception (004).
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_004, doc, fact, kb } from './lib/layout-citations.ts';
import { isHdd, isOptane, isSsd, isVirtual, productName } from './lib/device-class.ts';
import { distinctRoles, driveRoles } from './lib/layout-roles.ts';
import { newDevice } from './lib/commands.ts';

/** Roles where a shared device hurts: latency-critical or pool-critical. L2ARC alone beside one of them is cheap. */
const ROLE_NAMES: Record<string, string> = { data: 'data', log: 'SLOG', special: 'special (metadata)', dedup: 'dedup table', cache: 'L2ARC' };

export default defineRule({
  meta: {
    id: 'device-multi-role',
    title: 'One device serving several ZFS roles',
    category: 'device',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools', 'Drives'],
    optionalArtifacts: ['Host'],
    description:
      'The rule of thumb in ZFS is one physical device per role: a SLOG needs the device\'s full flush latency, a special vdev its random I/O, and when the device dies every role on it dies together. Partitioned, mirrored Optane is the one accepted exception, because it keeps its latency under mixed load. Learn more: [Device classes: One device, several roles](docs/kb/device-classes.md#one-device-several-roles).',
    citations: [kb('device-classes', 'One device, several roles'), doc(DOC_004, 'points 5–6: partitioned mirrored Optane for several roles'), fact('A27'), fact('E5')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Host }) {
    const roles = driveRoles(Pools, Drives);
    if (roles.size === 0) return notApplicable('No pool device could be matched to a drive (needs lsblk/smartctl data).');
    const findings: FindingDraft[] = [];
    // Drives partitioned alike whose roles sit in the same vdevs (both sides of a mirrored log and
    // special) draw ONE finding naming all of them, not one per mirror side.
    const groups = new Map<string, { drafts: FindingDraft[]; devices: string[] }>();
    for (const { drive, roles: rs } of roles.values()) {
      const distinct = distinctRoles(rs);
      if (distinct.length < 2) continue;
      const optane = isOptane(drive);
      const active = rs.filter((r) => r.cls !== 'spare');
      const unmirrored = active.filter((r) => !r.redundant && r.cls !== 'cache');
      // 004: partitioned Optane is fine when each critical role is mirrored across two Optanes.
      if (optane && unmirrored.length === 0) continue;
      const names = distinct.map((k) => { const [pool, cls] = k.split(':'); return `${ROLE_NAMES[cls!] ?? cls} in ${pool}`; });
      const withData = active.some((r) => r.cls === 'data');
      // An unmirrored special/dedup/data role on the shared Optane takes the pool with it when the
      // device dies (B13), which the 004 exception never covered: a warning, not a suggestion.
      const poolCritical = unmirrored.some((r) => r.cls === 'special' || r.cls === 'dedup' || r.cls === 'data');
      const key = [optane, optane && !poolCritical, ...active.map((r) => `${r.pool}/${r.cls}/${r.top.name}`).sort()].join('|');
      const g = groups.get(key) ?? { drafts: [], devices: [] };
      groups.set(key, g);
      g.devices.push(drive.byIdPath ?? drive.devPath ?? drive.id);
      g.drafts.push({
        severity: optane && !poolCritical ? 'suggestion' : 'warning',
        title: `${productName(drive)} serves ${distinct.length} roles: ${names.join(', ')}`,
        subject: { kind: 'drive', id: drive.id, pool: active[0]?.pool ?? null },
        evidence: [
          { label: 'device', value: drive.byIdPath ?? drive.devPath ?? drive.id },
          { label: 'model', value: drive.model },
          { label: 'Optane', value: optane },
          { label: 'roles (partition → pool/class/vdev)', value: active.map((r) => `${r.leaf} → ${r.pool}/${r.cls}/${r.top.name}`).join('; ') },
          { label: 'roles without redundancy', value: unmirrored.length > 0 ? unmirrored.map((r) => `${r.pool}/${r.cls}`).join(', ') : null },
        ],
        explanation: optane
          ? `Optane is the accepted exception to "one device, one role" (the TrueNAS Optane resource: mirrored, partitioned Optane 905Ps served SLOG and special at 255 ns–4 µs latency), but the exception assumes each role is mirrored across two devices. Here ${unmirrored.map((r) => `${r.cls} in ${r.pool}`).join(', ')} rests on this one device alone, so its failure takes ${poolCritical ? 'the pool' : 'those roles'} with it.`
          : `This ${isVirtual(drive) ? 'virtual disk' : isHdd(drive) ? 'hard disk' : isSsd(drive) ? 'SSD' : 'device'} is partitioned into ${distinct.length} roles.${isVirtual(drive) ? ' Its roles share one path to the storage behind it, which this host cannot see.' : ''} NAND SSDs and hard disks lose much of their performance under sustained mixed reads and writes (TrueNAS Optane resource), so ${withData ? 'the log or cache competes with the pool\'s own data I/O on the same device and gains little' : 'the SLOG\'s flush latency suffers whenever the other role is busy'}; and when the device fails, every role on it fails at once${unmirrored.length > 0 ? ` — including ${unmirrored.map((r) => `${r.cls} in ${r.pool}`).join(', ')}, which has no redundancy` : ''}. OpenZFS also advises leaving the unused space of a NAND SLOG empty as over-provisioning.`,
        action: {
          summary: optane
            ? 'Mirror each role across a second Optane partitioned the same way.'
            : 'Give the latency-critical role (SLOG or special) its own device; remove the extra role from this one.',
          commands: optane
            ? unmirrored.filter((r) => r.cls !== 'data').map((r) => `zpool attach ${r.pool} ${r.leaf} ${newDevice(Host, 'second-optane-partition')}`)
            : active.filter((r) => r.cls === 'log' || r.cls === 'cache').map((r) => `zpool remove ${r.pool} ${r.leaf}`),
          reversible: optane ? 'yes' : 'partly',
          reversibleWhy: optane
            ? '`zpool detach` removes the added mirror side again.'
            : 'Log and cache devices can be removed and re-added at any time; a special or data role on the shared device can only be moved by replacing it.',
        },
        confidence: 'medium',
      });
    }
    for (const { drafts, devices } of groups.values()) {
      const first = drafts[0]!;
      if (drafts.length === 1) { findings.push(first); continue; }
      findings.push({
        ...first,
        title: `${drafts.length} drives partitioned alike (${devices.join(', ')}) each serve ${first.title.replace(/^.* serves /, '')}`,
        evidence: [{ label: 'devices', value: devices.join(', ') }, ...first.evidence.filter((e) => e.label !== 'device'),
          { label: 'roles of the other drives', value: drafts.slice(1).map((d) => d.evidence.find((e) => e.label.startsWith('roles (partition'))?.value ?? '').join(' | ') }],
        action: first.action && { ...first.action, commands: [...new Set(drafts.flatMap((d) => d.action?.commands ?? []))] },
      });
    }

    return fired(findings);
  },
});
