/**
 * An unmirrored log vdev: say what is really at risk (only in-flight sync writes, and only if the
 * SLOG dies together with a crash), and when a mirror is worth it.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { fact, kb, man } from './lib/slog-citations.ts';
import { hasLog } from './lib/slog-devices.ts';
import { commandPath, driveForLeaf, topLevel, vdevId } from './lib/topology.ts';
import { productName } from './lib/device-class.ts';
import { newDevice } from './lib/commands.ts';

export default defineRule({
  meta: {
    id: 'slog-single-device',
    title: 'Unmirrored SLOG',
    category: 'slog',
    defaultSeverity: 'info',
    requiredArtifacts: ['Pools'],
    optionalArtifacts: ['Drives', 'Host'],
    description:
      'Losing a single SLOG while the system runs is harmless: the ZIL falls back to the pool. Data is lost only if the SLOG dies together with a crash or power loss before replay, and then only the last few seconds of sync writes, not the pool. Mirror it when those seconds matter (business data, databases, VM hosts). Learn more: [SLOG and the ZFS intent log: One device or a mirror](docs/kb/slog.md#one-device-or-a-mirror).',
    citations: [kb('slog', 'One device or a mirror'), fact('A22'), fact('A23'), fact('A25'), man('zpool-import', 8, '-m')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Host }) {
    const findings: FindingDraft[] = [];
    const withLog = Pools.filter(hasLog);
    if (withLog.length === 0) return notApplicable('No pool has a log vdev.');
    for (const pool of withLog) {
      for (const top of topLevel(pool, 'log')) {
        if (top.type !== 'disk' && top.type !== 'file') continue;
        const d = Drives ? driveForLeaf(top, Drives) : null;
        const path = Drives ? commandPath(top, Drives) : top.name;
        findings.push({
          title: `${pool.name}: log ${d ? productName(d) : top.name} is not mirrored`,
          subject: { kind: 'vdev', id: vdevId(pool.name, top), pool: pool.name },
          evidence: [
            { label: 'log vdev', value: top.name },
            { label: 'type', value: 'single device' },
            { label: 'what a failure alone costs', value: 'nothing (ZIL falls back to the pool)' },
            { label: 'worst case', value: 'last ~5 s of sync writes, if SLOG dies with a crash' },
          ],
          explanation:
            'If this device fails while the system is running, ZFS simply writes the ZIL to the pool again; nothing is lost. ' +
            'Data is at risk only if the SLOG dies at the same moment as a crash or power loss, before the log is replayed: then the last few seconds of acknowledged sync writes are lost and the pool imports only with `zpool import -m` (A25). The pool itself survives. ' +
            '`zpool add` does not warn about a single log device. For home media this is usually acceptable; for databases, VM storage or NFS with business data, mirror it.',
          action: {
            summary: 'If losing a few seconds of acknowledged sync writes in a double failure is unacceptable, attach a second device to mirror the log.',
            commands: [`zpool attach ${pool.name} ${path} ${newDevice(Host, 'second-log-device')}`],
            reversible: 'yes',
            reversibleWhy: 'The second side can be detached again with `zpool detach`.',
          },
          confidence: 'high',
        });
      }
    }
    return fired(findings);
  },
});
