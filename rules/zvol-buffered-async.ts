/**
 * zvols written asynchronously through the page cache: the 002 study measured wall times up to
 * ~77× the runtime fio reported, system-load spikes and kernel crashes.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_002, doc, fact, kb, man } from './lib/layout-citations.ts';
import { isZvol } from './lib/layout-dataset-props.ts';
import { ABSENT, platformText, plural } from '../server/src/text/format.ts';

/** 002: a 190 s buffered 4k sequential write took 13 970 s longer: a 7761 % increase, ≈ 77× (line "write-seq-4k"). */
export const OBSERVED_WALL_TIME_FACTOR = 77;
/** 002 had to skip 201 of 2448 tests because zvol buffered writes crashed the kernel (OpenZFS 2.0.3; still seen on 2.1.6). */
export const SKIPPED_TESTS = 201;

export default defineRule({
  meta: {
    id: 'zvol-buffered-async',
    title: 'zvols written with buffered asynchronous I/O',
    category: 'workload',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Datasets'],
    optionalArtifacts: ['Host'],
    description:
      'Writing a zvol asynchronously through the host page cache (dd/cp/fio without direct I/O, QEMU cache=writeback/unsafe) made a Proxmox study\'s runs take up to 77× longer than reported, drove load averages up and crashed the kernel; direct or synchronous I/O ran normally. Learn more: [zvols, sync and the page cache: Buffered asynchronous writes](docs/kb/zvol-sync.md#buffered-asynchronous-writes).',
    citations: [kb('zvol-sync', 'Buffered asynchronous writes'), doc(DOC_002, 'Test runtime and zvol direct IO vs. buffered IO'), fact('D1'), fact('D2'), fact('D3'), man('zfsprops', 7, 'sync')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Datasets, Host }) {
    const zvols = Datasets.filter(isZvol);
    if (zvols.length === 0) return notApplicable('No zvols.');
    const findings: FindingDraft[] = [];
    const pools = [...new Set(zvols.map((z) => z.pool))];
    for (const pool of pools) {
      // sync=always turns every write into a logged one: the buffered-async path 002 warns about cannot occur.
      const exposed = zvols.filter((z) => z.pool === pool && z.sync !== 'always');
      if (exposed.length === 0) continue;
      const proxmox = Host?.distribution === 'proxmox-ve';
      findings.push({
        severity: exposed.some((z) => z.sync === 'disabled') ? 'warning' : 'suggestion',
        title: `${plural(exposed.length, 'zvol')} in ${pool} accept buffered asynchronous writes`,
        subject: { kind: 'pool', id: pool, pool },
        evidence: [
          { label: 'zvols (sync setting)', value: exposed.map((z) => `${z.name} (${z.sync ?? 'unknown'})`).join(', ') },
          { label: 'observed wall time vs reported runtime (Proxmox zvol study)', value: OBSERVED_WALL_TIME_FACTOR, unit: '×' },
          { label: 'tests skipped in the Proxmox zvol study for kernel crashes', value: SKIPPED_TESTS },
          { label: 'platform', value: Host ? `${platformText(Host)} / OpenZFS ${Host.zfs.openzfs ?? ABSENT}` : null },
        ],
        explanation:
          'On Linux a zvol write is synchronous only with FUA or sync=always; everything else is held in RAM until the next transaction group. ' +
          `In a Proxmox zvol study (Proxmox, OpenZFS 2.0.3, re-observed on 2.1.6) buffered asynchronous writes to zvols ran for hours past the reported runtime — one 3-minute fio job took ${OBSERVED_WALL_TIME_FACTOR}× as long — with high load averages, and ${SKIPPED_TESTS} zvol tests had to be skipped because they crashed the kernel; the same jobs with direct or synchronous I/O ran normally. ` +
          'Whether this host writes its zvols that way cannot be seen from the properties: it depends on the consumer (hypervisor cache mode, dd/cp without direct I/O, iSCSI target). ' +
          (proxmox ? 'Proxmox VE\'s default disk cache mode is `none` (direct, honours flushes), which avoids the page cache; check VMs set to writeback or unsafe. ' : '') +
          'This is one study on one machine, so the confidence is low; the advice costs little.',
        action: {
          summary: 'Write zvols with direct I/O (QEMU cache=none, dd oflag=direct, fio --direct=1), or set sync=always, or keep such data in a file on a dataset.',
          commands: [
            ...exposed.slice(0, 3).map((z) => `dd if=IMAGE of=/dev/zvol/${z.name} bs=1M oflag=direct status=progress`),
            `zfs set sync=always ${exposed[0]!.name}`,
          ],
          reversible: 'yes',
          reversibleWhy: 'I/O mode is the consumer\'s choice; `zfs set sync=standard` reverts the property (sync=always costs write latency without a fast SLOG).',
        },
        confidence: 'low',
      });
    }
    return fired(findings);
  },
});
