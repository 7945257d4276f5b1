/**
 * The device in a log vdev: consumer/QLC/DRAM-less SSDs, devices without PLP, and devices not
 * faster than the data vdevs make poor SLOGs. Optane and PLP enterprise drives pass.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_000, DOC_004, doc, fact, kb } from './lib/slog-citations.ts';
import { classifyDrive, measureCommand, plpSummary } from './lib/device-class.ts';
import { dataLatency, hasLog } from './lib/slog-devices.ts';
import { commandPath, driveForLeaf, leaves, topLevel, vdevId } from './lib/topology.ts';
import { newDevice } from './lib/commands.ts';

/**
 * A log device must be at least this many latency-class ranks faster than the data vdevs to be
 * worth having (1 = strictly faster class). E1 ranks: Optane < PLP NVMe < PLP SATA < consumer < HDD.
 */
export const MIN_RANK_ADVANTAGE = 1;

export default defineRule({
  meta: {
    id: 'slog-device-suitability',
    title: 'Log device suited to the job',
    category: 'slog',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools', 'Drives'],
    optionalArtifacts: ['Host'],
    description:
      'A SLOG is only as good as its flush latency: ZFS flushes the device after every log write. Consumer SSDs without power-loss protection take about a millisecond or more per flush, QLC and DRAM-less drives collapse under sustained small writes, and a log no faster than the data vdevs gains nothing. Optane and PLP data-centre drives are the right choice; PLP alone does not make a drive fast. Learn more: [SLOG and the ZFS intent log: Flush latency is the sync write latency](docs/kb/slog.md#flush-latency-is-the-sync-write-latency).',
    citations: [kb('slog', 'Flush latency is the sync write latency'), fact('A19'), fact('E1'), fact('E2'), fact('E3'), fact('E8'), fact('G3'), doc(DOC_000, 'SLOG ranking'), doc(DOC_004)],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Host }) {
    const findings: FindingDraft[] = [];
    const withLog = Pools.filter(hasLog);
    if (withLog.length === 0) return notApplicable('No pool has a log vdev.');
    for (const pool of withLog) {
      const data = dataLatency(pool, Drives);
      // One finding per log vdev: both sides of a mirror are named in one finding, not one each.
      for (const top of topLevel(pool, 'log')) {
        const judged = leaves(top).flatMap((leaf) => {
          const d = driveForLeaf(leaf, Drives);
          if (!d) return [];
          const c = classifyDrive(d);
          const problems: string[] = [];
          let severity: 'warning' | 'suggestion' = 'warning';
          let confidence: 'high' | 'medium' | 'low' = 'high';
          if (c.virtual) {
            // Neither "hard disk" nor "fast": the storage behind it decides, and only a measurement says which.
            problems.push(`${c.virtual.why.replace(/\.$/, '')}; measure it: \`${measureCommand(d, pool.name)}\``);
            severity = 'suggestion';
            confidence = 'low';
          }
          if (c.hdd) problems.push('it is a hard disk: no faster than the pool itself');
          if (c.cheapFlash) problems.push(`${c.cheapFlash.product} is a consumer ${c.cheapFlash.kind} drive: slow flushes and, once its cache is full, HDD-like writes with low endurance`);
          if (!c.hdd && !c.optane && c.plp.plp === 'no' && !c.cheapFlash) problems.push('it has no power-loss protection, so each flush waits for NAND programming (~1–2 ms)');
          if (!c.hdd && !c.optane && c.plp.kind === 'firmware-flushed-only') problems.push(`${c.plp.basis}`);
          if (data && data.known && c.latency.known && data.rank - c.latency.rank < MIN_RANK_ADVANTAGE) {
            problems.push(`its sync-write latency class (${c.latency.label}) is not faster than the data vdevs' (${data.label})`);
          }
          if (problems.length === 0 && !c.optane && c.plp.plp === 'unknown' && !c.hdd && !c.virtual) {
            problems.push('its power-loss protection is unknown, so it is assumed to flush like a consumer drive');
            severity = 'suggestion';
            confidence = 'low';
          }
          return problems.length ? [{ leaf, d, c, problems, severity, confidence }] : [];
        });
        if (judged.length === 0) continue;
        const first = judged[0]!;
        const severity = judged.some((j) => j.severity === 'warning') ? 'warning' : 'suggestion';
        const confidence = judged.some((j) => j.confidence === 'low') ? 'low' : 'high';
        const products = [...new Set(judged.map((j) => j.c.product))].join(', ');
        const one = judged.length === 1;
        const allVirtual = judged.every((j) => j.c.virtual !== null);
        findings.push({
          severity,
          title: allVirtual
            ? `${pool.name}: log ${one ? `device ${first.c.product} is a virtual disk or LUN` : `${top.name} — ${judged.map((j) => `${j.leaf.name} (${j.c.product})`).join(' and ')} — are virtual disks or LUNs`} of unknown latency: measure it`
            : one ? `${pool.name}: log device ${first.c.product} is a poor SLOG` : `${pool.name}: log ${top.name} — ${judged.map((j) => `${j.leaf.name} (${j.c.product})`).join(' and ')} — are poor SLOG devices`,
          subject: one && top.children.length === 0 ? { kind: 'drive', id: first.d.id, pool: pool.name } : { kind: 'vdev', id: vdevId(pool.name, top), pool: pool.name },
          evidence: [
            { label: 'log device', value: products },
            ...(one ? [] : [{ label: 'log vdev', value: `${top.name}: ${judged.map((j) => j.leaf.name).join(', ')}` }]),
            { label: 'latency class', value: [...new Set(judged.map((j) => j.c.latency.label))].join(', ') },
            // A class that does not know the latency (virtual, unknown) gives no typical figure: it is to be measured.
            { label: 'typical 4K sync write', value: Math.max(0, ...judged.filter((j) => j.c.latency.known).map((j) => j.c.latency.typicalUs)) || null, unit: 'µs' },
            { label: 'power-loss protection', value: [...new Set(judged.map((j) => plpSummary(j.c.plp)))].join(', ') },
            { label: 'power-loss protection basis', value: [...new Set(judged.map((j) => j.c.plp.basis))].join(' ') },
            { label: 'QLC/DRAM-less', value: [...new Set(judged.map((j) => (j.c.cheapFlash ? j.c.cheapFlash.kind : 'no known match')))].join(', ') },
            { label: 'data vdevs', value: data?.label ?? 'unknown' },
          ],
          explanation:
            judged.map((j) => `${j.leaf.name} in ${pool.name}'s log: ${j.problems.map((x) => x.replace(/\.\s*$/, '')).join('; ')}.`).join(' ') +
            ' ZFS issues a cache flush after every log write, so the flush latency is the sync-write latency. ' +
            'In a published SLOG test, a consumer Samsung 850 EVO as SLOG gave 6,306 IOPS at QD16 (30 s runs) against 38,900–39,200 for Optane P1600X/P4800X and 27,400–43,000 for PLP SAS/SATA SSDs.' +
            // The firmware-flushed-only case already quoted the basis as its problem: say it once.
            (judged.every((j) => j.problems.includes(j.c.plp.basis)) ? '' : ` Power-loss protection: ${[...new Set(judged.filter((j) => !j.problems.includes(j.c.plp.basis)).map((j) => j.c.plp.basis))].join(' ')}`),
          action: {
            summary: allVirtual
              ? `Measure ${pool.name}'s sync writes first (the probe below); only if they are slow, replace the log device with an Optane (P1600X, P4801X, 900P/905P) or a PLP data-centre SSD the host sees directly.`
              : 'Replace the log device with an Optane (P1600X, P4801X, 900P/905P) or a PLP data-centre SSD.',
            commands: allVirtual
              ? [measureCommand(first.d, pool.name)]
              : [...judged.map((j, i) => `zpool replace ${pool.name} ${commandPath(j.leaf, Drives)} ${newDevice(Host, one ? 'new-optane' : `new-optane-${i + 1}`)}`), measureCommand(first.d, pool.name)],
            reversible: 'yes',
            reversibleWhy: 'A log device can be replaced or removed at any time; pool data is not touched.',
          },
          citations: [
            kb('slog', 'Flush latency is the sync write latency'), ...(judged.some((j) => j.c.virtual) ? [kb('device-classes', 'Virtual disks and LUNs')] : []),
            fact('A19'), fact('E1'), fact('E2'), fact('E3'), fact('E8'), fact('G3'), doc(DOC_000, 'Samsung 850 EVO vs Optane QD16 results'), doc(DOC_004, 'choose SSDs carefully'),
          ],
          confidence,
        });
      }
    }
    return fired(findings);
  },
});
