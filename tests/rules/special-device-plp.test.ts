/**
 * special-device-plp: a special/dedup vdev on NAND without power-loss protection draws a warning
 * with 003 §13's reason; Optane and capacitor-PLP SSDs pass; a mirror draws ONE finding naming both
 * members. Includes reference 004's partitioned mirrored Optane (passes) and one partitioned NAND
 * drive serving several roles (warned).
 */
import { expect } from 'vitest';
import rule from '../../rules/special-device-plp.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { p1600x, testPool, testPoolDrivesAll } from '../fixtures/rules/slog-fixtures.ts';
import { drive, group, host, inClass, leaf, pool } from '../support/builders.ts';

const hdds = ['sda', 'sdb', 'sdc', 'sdd'].map((n) => leaf(n));
const data = [group('mirror', 'mirror-0', hdds.slice(0, 2)), group('mirror', 'mirror-1', hdds.slice(2))];
const nvme = (id: string, model: string, extra = {}) => drive(id, { devPath: `/dev/${id}`, aliases: [`/dev/${id}`], byIdPath: `/dev/disk/by-id/nvme-${id}`, model, media: 'nvme', rotational: false, rpm: null, transport: 'nvme', sizeBytes: 1e12, ...extra });

// Consumer QLC NVMe: no PLP (device-class: consumer QLC drives have none, G3).
const p3a = nvme('nvme0n1', 'CT1000P3SSD8');
const p3b = nvme('nvme1n1', 'CT1000P3SSD8');
// Capacitor PLP (OpenZFS PLP list): Intel DC P4510.
const dcA = nvme('nvme2n1', 'INTEL SSDPE2KX010T8');
const dcB = nvme('nvme3n1', 'INTEL SSDPE2KX010T8');
// Reference 004: two Optane 905P/900P-class drives, each partitioned for SLOG + special + L2ARC.
const optA = nvme('nvme4n1', 'INTEL SSDPED1D280GA', { sizeBytes: 280e9 });
const optB = nvme('nvme5n1', 'INTEL SSDPED1D280GA', { sizeBytes: 280e9 });
const unknownA = nvme('nvme6n1', 'ACME NVME 1TB');
// The lab's emulated NVMe drives (tests/lab: nvme-QEMU_NVMe_Ctrl_NV0001…): virtual disks, no flash this host can see.
const qemuA = nvme('nvme7n1', 'QEMU NVMe Ctrl');
const qemuB = nvme('nvme8n1', 'QEMU NVMe Ctrl');
const mx300 = drive('ata-Crucial_CT525MX300SSD1', { devPath: '/dev/sde', aliases: ['/dev/sde'], model: 'Crucial_CT525MX300SSD1', media: 'ssd', rotational: false, rpm: null });

const special = (name: string, members: string[]) => inClass('special', members.length === 1 ? leaf(members[0]!) : group('mirror', name, members.map((m) => leaf(m))));

const optanePartitioned = pool('tank', [
  ...data,
  inClass('log', group('mirror', 'mirror-2', [leaf('nvme4n1p1'), leaf('nvme5n1p1')])),
  special('mirror-3', ['nvme4n1p2', 'nvme5n1p2']),
  inClass('cache', leaf('nvme4n1p3')), inClass('cache', leaf('nvme5n1p3')),
]);
const nandPartitioned = pool('tank', [
  ...data,
  inClass('log', leaf('nvme0n1p1')),
  special('nvme0n1p2', ['nvme0n1p2']),
  inClass('cache', leaf('nvme0n1p3')),
]);

ruleTester(rule, {
  valid: [
    { name: '000 test-pool: the P1600X (Optane, no volatile cache) as special passes', artifacts: { Pools: [testPool], Drives: testPoolDrivesAll } },
    { name: 'mirrored Intel DC P4510 (capacitor PLP) special passes', artifacts: { Pools: [pool('tank', [...data, special('mirror-2', ['nvme2n1', 'nvme3n1'])])], Drives: [dcA, dcB] } },
    { name: '004: partitioned mirrored Optane for SLOG + special + L2ARC passes', artifacts: { Pools: [optanePartitioned], Drives: [optA, optB], Host: host() } },
    { name: 'a special mirror of two QEMU NVMe (virtual: what survives a power cut is the host storage\'s business, not guessed here)', artifacts: { Pools: [pool('tank', [...data, special('mirror-2', ['nvme7n1', 'nvme8n1'])])], Drives: [qemuA, qemuB] } },
    { name: 'no special or dedup vdev', status: 'not-applicable', artifacts: { Pools: [pool('tank', data)], Drives: [p1600x] } },
    { name: 'special members the inventory cannot match to drives', status: 'not-applicable', artifacts: { Pools: [pool('tank', [...data, special('mirror-2', ['x1', 'x2'])])], Drives: [] } },
  ],
  invalid: [
    {
      name: 'a special mirror of a QEMU NVMe and a consumer QLC NVMe: the finding names the QLC drive only',
      artifacts: { Pools: [pool('tank', [...data, special('mirror-2', ['nvme7n1', 'nvme0n1'])])], Drives: [qemuA, p3a], Host: host() },
      findings: [{
        severity: 'warning', subjectId: 'tank/mirror-2', mentions: ['nvme0n1 (CT1000P3SSD8)'],
        check: (f) => expect(`${f.title} ${JSON.stringify(f.evidence)}`).not.toContain('QEMU'),
      }],
    },
    {
      name: 'mirror of two consumer QLC NVMe as special: ONE finding naming both drives, a warning with 003\'s reason',
      artifacts: { Pools: [pool('tank', [...data, special('mirror-2', ['nvme0n1', 'nvme1n1'])])], Drives: [p3a, p3b], Host: host() },
      findings: [{
        severity: 'warning', subjectId: 'tank/mirror-2',
        mentions: ['nvme0n1 (CT1000P3SSD8)', 'nvme1n1 (CT1000P3SSD8)', 'no power-loss protection', 'should have powerloss protection', 'a mirror does not help'],
        commandIncludes: ['zpool replace tank /dev/disk/by-id/nvme-nvme0n1 /dev/disk/by-id/<plp-ssd-1>'], reversible: 'partly',
      }],
    },
    {
      name: '004 counter-case: one partitioned NAND drive for SLOG + special + L2ARC → warned (the special partition)',
      artifacts: { Pools: [nandPartitioned], Drives: [p3a], Host: host() },
      findings: [{ severity: 'warning', subjectId: 'nvme0n1', mentions: ['special vdev nvme0n1p2', 'nvme0n1p2 (CT1000P3SSD8)'], commandIncludes: ['zpool replace tank nvme0n1p2 '] }],
    },
    {
      name: 'dedup vdev on a drive the inventory reports without PLP',
      artifacts: { Pools: [pool('tank', [...data, inClass('dedup', group('mirror', 'mirror-2', [leaf('nvme6n1'), leaf('nvme3n1')]))])], Drives: [{ ...unknownA, powerLossProtection: 'no' }, dcB] },
      findings: [{ severity: 'warning', subjectId: 'tank/mirror-2', mentions: ['dedup vdev mirror-2', 'the dedup table', 'nvme6n1 (ACME NVME 1TB)'], check: (f) => { if (f.title.includes('nvme3n1')) throw new Error('the PLP member must not be named'); } }],
    },
    {
      name: 'unknown PLP on NAND: a low-confidence suggestion, not a warning',
      artifacts: { Pools: [pool('tank', [...data, special('mirror-2', ['nvme6n1', 'nvme2n1'])])], Drives: [unknownA, dcA] },
      findings: [{ severity: 'suggestion', mentions: ['unknown power-loss protection'], check: (f) => { if (f.confidence !== 'low') throw new Error('expected low confidence'); } }],
    },
    {
      name: 'Crucial MX300 (firmware protects flushed data only) → suggestion',
      artifacts: { Pools: [pool('tank', [...data, special('sde', ['sde'])])], Drives: [mx300] },
      findings: [{ severity: 'suggestion', mentions: ['flushed data only'] }],
    },
  ],
});
