/**
 * OpenZFS ≥ 2.4 without a SLOG but with a special vdev: the special vdev already takes the ZIL
 * (zil_special_is_slog = 1), so it absorbs sync-write traffic and wear.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { fact, kb, man } from './lib/slog-citations.ts';
import { classifyDrive, measureCommand } from './lib/device-class.ts';
import { hasLog, hasSpecial } from './lib/slog-devices.ts';
import { poolSyncEvidence } from '../server/src/forecast/sync-evidence.ts';
import { atLeast } from './engine/version.ts';
import { newDevice } from './lib/commands.ts';

export default defineRule({
  meta: {
    id: 'slog-on-2.4-special',
    title: 'Special vdev acting as SLOG (OpenZFS 2.4+)',
    category: 'slog',
    defaultSeverity: 'info',
    requiredArtifacts: ['Pools', 'Host'],
    // Drives to name the special devices; with the rest, the inputs of the pool's sync-write evidence (forecast/sync-evidence.ts).
    optionalArtifacts: ['Drives', 'Datasets', 'Workload', 'ZilStats', 'Benchmarks', 'Capture'],
    description:
      'Since OpenZFS 2.4, zil_special_is_slog (default 1) makes a pool without a log vdev write its ZIL to the special vdev, so the special SSDs behave like a SLOG: sync writes get flash latency without a separate device, and the special vdev takes that write traffic and wear. Learn more: [SLOG and the ZFS intent log: OpenZFS 2.4: the special vdev as log](docs/kb/slog.md#openzfs-24-the-special-vdev-as-log).',
    citations: [kb('slog', 'OpenZFS 2.4: the special vdev as log'), fact('A4'), fact('A5'), man('zfs', 4, 'zil_special_is_slog')],
    appliesTo: { minVersion: '2.4', maxVersion: null },
  },
  check({ Pools, Host, Drives, Datasets, Workload, ZilStats, Benchmarks, Capture }) {
    const v = Host.zfs.openzfs;
    if (!atLeast(v, '2.4')) return notApplicable(`Needs OpenZFS ≥ 2.4; this host runs ${v ?? 'an unknown version'}.`);
    const findings: FindingDraft[] = [];
    const targets = Pools.filter((p) => !hasLog(p) && hasSpecial(p));
    if (targets.length === 0) return notApplicable('No pool has a special vdev without a log vdev.');
    for (const pool of targets) {
      // Where the ZIL lands, as the verdict reads it: on 2.4+ without a log vdev, the special vdev.
      const e = poolSyncEvidence({ Pools, Host, Drives, Datasets, Workload, ZilStats, Benchmarks, Capture }, pool);
      const ds = e.zil.drives;
      const slow = e.zil.latency;
      const classes = ds.map(classifyDrive);
      // A virtual disk or LUN is neither weak nor strong: its latency is unknown until measured.
      const virtual = classes.filter((c) => c.virtual);
      const weak = classes.filter((c) => !c.virtual && (c.cheapFlash || (!c.optane && c.plp.plp !== 'yes')));
      const ev = e.demand;
      findings.push({
        severity: weak.length > 0 && (ev.level === 'observed' || ev.level === 'configured' || ev.level === 'counters') ? 'suggestion' : 'info',
        title: `${pool.name}: the special vdev is also the ZIL (OpenZFS ${v})`,
        subject: { kind: 'pool', id: pool.name, pool: pool.name },
        evidence: [
          { label: 'OpenZFS', value: v },
          { label: 'log vdev', value: 'none' },
          { label: 'special vdev devices', value: ds.length > 0 ? ds.map((d) => classifyDrive(d).product).join(', ') : 'unresolved' },
          { label: 'special latency class', value: slow?.label ?? 'unknown' },
          { label: 'sync-write evidence', value: ev.level },
        ],
        explanation:
          `On OpenZFS 2.4+ with zil_special_is_slog=1 (the default) and no log vdev, ${pool.name}'s ZIL blocks go to the special vdev first${ds.length > 0 ? ` — here ${ds.map((d) => classifyDrive(d).product).join(', ')}` : ''}. ` +
          'Sync writes therefore already get the special devices\' latency; a separate SLOG would still win when present, but the gain is smaller than on a plain HDD pool. ' +
          'The special vdev now also takes every sync-written byte as extra writes: size and choose its SSDs for that endurance. ' +
          (weak.length > 0 ? `${weak.map((c) => c.product).join(', ')} ${weak.length === 1 ? 'is' : 'are'} not a PLP/Optane device, so sync latency stays consumer-grade and wear rises. ` : '') +
          (virtual.length > 0 ? `${virtual.map((c) => c.product).join(', ')} ${virtual.length === 1 ? 'is a virtual disk or LUN' : 'are virtual disks or LUNs'}: the sync latency they give is that of storage this host cannot see, unknown until measured (\`${measureCommand(ds[0]!, pool.name)}\`). ` : '') +
          'ZIL traffic on the special vdev is counted under the "normal" ZIL metaslab counters.',
        action: weak.length > 0
          ? {
              summary: 'Either add a small Optane/PLP log vdev (it takes precedence) or keep an eye on the special SSDs\' wear.',
              commands: [`zpool add -n ${pool.name} log mirror ${newDevice(Host, 'optane-1')} ${newDevice(Host, 'optane-2')}`, `smartctl -a ${newDevice(Host, 'special-device')}`],
              reversible: 'yes',
              reversibleWhy: 'A log vdev can be removed again; the zil_special_is_slog module parameter can be set to 0 at any time.',
            }
          : virtual.length > 0
            ? {
                summary: `Measure ${pool.name}'s sync writes: whether the virtual special devices are fast enough as its ZIL is unknown until then.`,
                commands: [measureCommand(ds[0]!, pool.name)],
                reversible: 'yes',
                reversibleWhy: 'The probe writes to a throw-away dataset of the pool and removes it afterwards; it changes no pool setting.',
              }
            : null,
        citations: [kb('slog', 'OpenZFS 2.4: the special vdev as log'), fact('A4'), fact('A5'), fact('A28'), fact('F10'), man('zfs', 4, 'zil_special_is_slog')],
        confidence: ds.length > 0 ? 'high' : 'medium',
      });
    }
    return fired(findings);
  },
});
