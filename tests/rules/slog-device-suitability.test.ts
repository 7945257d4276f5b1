import rule from '../../rules/slog-device-suitability.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, benchPoolEvoLog, benchPoolOptaneLog, da1, da3, evo850, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { expect } from 'vitest';
import type { Finding } from '../../server/src/model/finding.ts';
import { drive, group, host, inClass, leaf } from '../support/builders.ts';

const a400 = drive('ata-KINGSTON_SA400S37240G', { model: 'KINGSTON SA400S37240G', media: 'ssd', rotational: false, rpm: null });
const a400b = drive('ata-KINGSTON_SA400S37240G_B', { model: 'KINGSTON SA400S37240G', media: 'ssd', rotational: false, rpm: null });
const s3500 = drive('ata-INTEL_SSDSC2BB480G4', { model: 'INTEL SSDSC2BB480G4', media: 'ssd', rotational: false, rpm: null });
// 002: the log is partition 1 of a Crucial MX300 (on OpenZFS's PLP list, but flushed-data-only firmware).
const mx300 = drive('ms:Crucial_CT275MX300SSD1:17191A2B3C4D', { model: 'Crucial_CT275MX300SSD1', media: 'ssd', rotational: false, rpm: null, byIdPath: '/dev/disk/by-id/ata-Crucial_CT275MX300SSD1_17191A2B3C4D' });
const mx300Part = `${mx300.byIdPath}-part1`;
const withLog = (d: typeof a400) => ({ ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', leaf('da9', { driveId: d.id }))] });
// Virtual log devices (issue 34 item 5): the lab's emulated NVMe, and an iSCSI LUN as Linux sees it (rotational, media hdd).
const qemuNvme = drive('nvme-QEMU_NVMe_Ctrl_NV0001', { model: 'QEMU NVMe Ctrl', serial: 'NV0001', media: 'nvme', transport: 'nvme', rotational: false, rpm: null });
const lunLog = drive('scsi-LIO-ORG_TrueNAS_iSCSI_Disk', { model: 'LIO-ORG TrueNAS iSCSI Disk', media: 'hdd', transport: 'scsi', rotational: true, rpm: null, devPath: '/dev/sdc' });
/** A virtual log device is "unknown: measure it": never "a hard disk", never a replace command on a guess. */
const measureIt = (f: Finding) => {
  expect(`${f.title} ${f.explanation}`).not.toMatch(/hard disk: no faster|assumed to flush like a consumer/);
  expect(f.evidence.find((e) => e.label === 'latency class')?.value).toBe('virtual disk or LUN (latency unknown: measure it)');
  expect(f.action?.commands).toEqual(['zfs-advisor bench sync-write-4k-qd1 --pool bench-pool']);
  expect(f.evidence.find((e) => e.label === 'typical 4K sync write')?.value, 'no typical figure for an unknown latency').toBeNull();
  expect(f.confidence).toBe('low');
  expect(f.citations.map((c) => c.url)).toContain('docs/kb/device-classes.md#virtual-disks-and-luns');
};

ruleTester(rule, {
  valid: [
    { name: '000: P1600X as SLOG on the HDD mirror', artifacts: { Pools: [benchPoolOptaneLog], Drives: [da1, da3, p1600x] } },
    { name: '000: Intel DC S3500 (PLP SATA) as SLOG on the HDD mirror', artifacts: { Pools: [withLog(s3500)], Drives: [da1, da3, s3500] } },
    { name: 'no log vdev', status: 'not-applicable', artifacts: { Pools: [benchPool], Drives: [da1, da3] } },
  ],
  invalid: [
    {
      name: 'the lab\'s QEMU NVMe as SLOG: a virtual disk of unknown latency, measure it (was: PLP unknown, assumed consumer)',
      artifacts: { Pools: [withLog(qemuNvme)], Drives: [da1, da3, qemuNvme] },
      findings: [{ severity: 'suggestion', subjectId: qemuNvme.id, mentions: ['virtual disk or LUN of unknown latency: measure it', 'QEMU/KVM virtual disk'], check: measureIt }],
    },
    {
      name: 'an iSCSI LUN as SLOG (rotational, media hdd): unknown latency, measure it — not "a hard disk"',
      artifacts: { Pools: [withLog(lunLog)], Drives: [da1, da3, lunLog] },
      findings: [{ severity: 'suggestion', subjectId: lunLog.id, mentions: ['Linux LIO iSCSI/FC LUN'], check: measureIt }],
    },
    {
      name: '000: Samsung 850 EVO as SLOG (PLP unknown → assumed consumer flush latency)',
      artifacts: { Pools: [benchPoolEvoLog], Drives: [da1, da3, evo850] },
      findings: [{ severity: 'suggestion', subjectId: evo850.id, mentions: ['850 EVO', 'unknown'], commandIncludes: ['zpool replace bench-pool /dev/disk/by-id/ata-Samsung_SSD_850_EVO_500GB'], check: (f) => { if (f.confidence !== 'low') throw new Error('expected low confidence'); } }],
    },
    {
      name: '002: MX300 partition as SLOG → one consistent PLP value with its basis, said once, clean text, the partition replaced',
      artifacts: { Pools: [{ ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', leaf(mx300Part, { driveId: mx300.id }))] }], Drives: [da1, da3, mx300], Host: host() },
      findings: [{
        severity: 'warning', subjectId: mx300.id, mentions: ['flushed data only'],
        commandIncludes: [`zpool replace bench-pool ${mx300Part} /dev/disk/by-id/<new-optane>`],
        check: (f) => {
          const ev = (label: string) => f.evidence.find((e) => e.label === label)?.value;
          expect(ev('power-loss protection')).toBe('partial: firmware protects flushed data only');
          expect(String(ev('latency class'))).not.toMatch(/without PLP/);
          expect(String(ev('power-loss protection basis'))).toContain('MX300');
          expect(f.explanation.split('firmware protects flushed data only').length - 1).toBe(1);
          expect(f.explanation).not.toMatch(/\.\.|\s$/);
        },
      }],
    },
    {
      name: 'Kingston A400 (DRAM-less, real smartctl model string) as SLOG',
      artifacts: { Pools: [withLog(a400)], Drives: [da1, da3, a400] },
      findings: [{ severity: 'warning', subjectId: a400.id, mentions: ['Kingston A400', 'DRAM-less'] }],
    },
    {
      name: 'a mirror of two Kingston A400 as SLOG: ONE finding for the log vdev naming both drives, not one per member',
      artifacts: {
        Pools: [{ ...benchPool, vdevs: [...benchPool.vdevs, inClass('log', group('mirror', 'mirror-1', [leaf('da8', { driveId: a400.id }), leaf('da9', { driveId: a400b.id })]))] }],
        Drives: [da1, da3, a400, a400b],
      },
      findings: [{
        severity: 'warning', subjectId: 'bench-pool/mirror-1', mentions: ['da8 (KINGSTON SA400S37240G) and da9 (KINGSTON SA400S37240G)', 'da8 in bench-pool', 'da9 in bench-pool'],
        commandIncludes: ['zpool replace bench-pool /dev/disk/by-id/ata-KINGSTON_SA400S37240G <new-optane-1>', 'zpool replace bench-pool /dev/disk/by-id/ata-KINGSTON_SA400S37240G_B <new-optane-2>'],
      }],
    },
  ],
});
