/**
 * OpenZFS ≤ 2.3: a special vdev never holds the ZIL, so a pool with a special vdev but no SLOG
 * still writes its sync log to the data disks.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_003, doc, fact, kb } from './lib/slog-citations.ts';
import { NEEDS_OBSERVATION } from './lib/slog-evidence.ts';
import { hasLog, hasSpecial } from './lib/slog-devices.ts';
import { poolSyncEvidence } from '../server/src/forecast/sync-evidence.ts';
import { atLeast } from './engine/version.ts';
import { newDevice } from './lib/commands.ts';

export default defineRule({
  meta: {
    id: 'special-does-not-replace-slog',
    title: 'Special vdev does not replace a SLOG (OpenZFS ≤ 2.3)',
    category: 'slog',
    defaultSeverity: 'info',
    requiredArtifacts: ['Pools', 'Host'],
    // The inputs of the pool's sync-write evidence (forecast/sync-evidence.ts), read as the verdict reads it.
    optionalArtifacts: ['Drives', 'Datasets', 'Workload', 'ZilStats', 'Benchmarks', 'Capture'],
    description:
      'Before OpenZFS 2.4 the ZIL is written to a log vdev or to the normal class, never to a special vdev. A fast special vdev therefore does not speed up sync writes of datasets whose data lives on the disks; a SLOG does. Learn more: [Special vdevs: A special vdev is not a SLOG](docs/kb/special-vdev.md#a-special-vdev-is-not-a-slog).',
    citations: [kb('special-vdev', 'A special vdev is not a SLOG'), fact('A4'), fact('A5'), doc(DOC_003, '§5: "A special vdev does not replace an Slog"')],
    appliesTo: { minVersion: null, maxVersion: '2.3' },
  },
  check({ Pools, Host, Drives, Datasets, Workload, ZilStats, Benchmarks, Capture }) {
    const v = Host.zfs.openzfs;
    if (atLeast(v, '2.4')) return notApplicable(`OpenZFS ${v} writes the ZIL to the special vdev (zil_special_is_slog); see slog-on-2.4-special.`);
    const targets = Pools.filter((p) => hasSpecial(p) && !hasLog(p));
    if (targets.length === 0) return notApplicable('No pool has a special vdev without a log vdev.');
    const findings: FindingDraft[] = [];
    for (const pool of targets) {
      const e = poolSyncEvidence({ Pools, Host, Drives, Datasets, Workload, ZilStats, Benchmarks, Capture }, pool);
      const ev = e.demand;
      if (ev.level === 'none-observed' || ev.level === 'unknown') continue;
      // ≤ 2.3 without a log vdev: the ZIL lands on the data vdevs.
      const data = e.dataLatency;
      findings.push({
        title: `${pool.name}: sync writes still go to the data vdevs despite the special vdev`,
        subject: { kind: 'pool', id: pool.name, pool: pool.name },
        evidence: [
          { label: 'OpenZFS', value: v ?? 'unknown' },
          { label: 'special vdev', value: 'present' },
          { label: 'log vdev', value: 'none' },
          { label: 'data vdevs', value: data?.label ?? 'unknown' },
          { label: 'sync-write evidence', value: ev.level },
        ],
        explanation:
          `On OpenZFS ≤ 2.3 ZIL blocks go to a log vdev or the normal class, never to special. ${pool.name} has a special vdev but no log, so its sync writes are logged on the ${data?.label ?? 'data vdevs'}. ${ev.reasons.join(' ')} ` +
          'The napp-it allocation-class benchmarks measured 2–4× better sync writes for a filesystem placed wholly on special (its data and log then sit on flash), but 10–20× with a dedicated Optane SLOG (§10.2, §11.4). ' +
          'OpenZFS 2.4 changes this (zil_special_is_slog). ' + (ev.level === 'observed' ? '' : NEEDS_OBSERVATION),
        action: {
          summary: 'If sync writes matter, add a small Optane/PLP log vdev; or plan the upgrade to OpenZFS 2.4, where the special vdev takes the ZIL.',
          commands: [`zpool add -n ${pool.name} log mirror ${newDevice(Host, 'optane-1')} ${newDevice(Host, 'optane-2')}`],
          reversible: 'yes',
          reversibleWhy: 'Log vdevs can always be removed.',
        },
        citations: [kb('special-vdev', 'A special vdev is not a SLOG'), fact('A4'), fact('A5'), fact('A24'), doc(DOC_003, '§5, §10.2, §11.4')],
        confidence: v === null ? 'low' : ev.level === 'observed' ? 'high' : 'medium',
      });
    }
    return fired(findings);
  },
});
