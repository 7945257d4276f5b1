import { expect } from 'vitest';
import rule from '../../rules/device-multi-role.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { group, host, inClass, leaf } from '../support/builders.ts';
import { documentedHdds, smartDrive, statusPools } from '../fixtures/rules/layout-load.ts';
import type { Drive, Pool, VdevNode } from '../../server/src/model/inventory.ts';

const raidz2 = statusPools('layout-001-12x4tb-raidz2-status.txt');
const hdds = documentedHdds(Array.from({ length: 12 }, (_, i) => `da${i}`), 4e12);
const byId = (d: Drive, id: string): Drive => ({ ...d, byIdPath: `/dev/disk/by-id/${id}` });
// Real smartctl outputs: an Intel 660p (consumer QLC NVMe) and an Optane 900P; a second 900P with another serial.
const nand = byId(smartDrive('health-smartctl-nvme-intel-660p-devname-edited.json'), 'nvme-INTEL_SSDPEKNW010T8_BTNH93710FS91P0B');
const optA = byId(smartDrive('health-smartctl-nvme-intel-optane-900p-ssdped1d280ga.json'), 'nvme-INTEL_SSDPED1D280GA_A');
const optB = { ...byId(optA, 'nvme-INTEL_SSDPED1D280GA_B'), id: 'ms:INTEL_SSDPED1D280GA:B', serial: 'B' };
const nand2: Drive = { ...byId(nand, 'nvme-INTEL_SSDPEKNW010T8_SECOND'), id: 'ms:INTEL_SSDPEKNW010T8:SECOND', serial: 'SECOND', wwn: null, devPath: null, aliases: [] };
// The lab's emulated NVMe (issue 34 item 5: a virtual disk, not "an SSD" the host sees).
const qemuNvme: Drive = { ...nand, id: 'nvme-QEMU_NVMe_Ctrl_NV0003', model: 'QEMU NVMe Ctrl', serial: 'NV0003', wwn: null, devPath: null, aliases: [], byIdPath: '/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0003' };
const part = (d: Drive, n: number) => leaf(`${d.byIdPath}-part${n}`);
const withVdevs = (extra: VdevNode[]): Pool[] => raidz2.map((p) => ({ ...p, vdevs: [...p.vdevs, ...extra] }));

ruleTester(rule, {
  valid: [
    { name: 'partitioned, mirrored Optane 900Ps for SLOG + special (004)', artifacts: {
      Pools: withVdevs([inClass('log', group('mirror', 'mirror-1', [part(optA, 1), part(optB, 1)])), inClass('special', group('mirror', 'mirror-2', [part(optA, 2), part(optB, 2)]))]),
      Drives: [...hdds, optA, optB],
    } },
    { name: 'one NAND SSD as SLOG only', artifacts: { Pools: withVdevs([inClass('log', part(nand, 1))]), Drives: [...hdds, nand] } },
    { name: 'no device resolvable', artifacts: { Pools: raidz2, Drives: [] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: 'consumer 660p partitioned into SLOG + L2ARC for the 001 raidz2',
      artifacts: { Pools: withVdevs([inClass('log', part(nand, 1)), inClass('cache', part(nand, 2))]), Drives: [...hdds, nand] },
      findings: [{
        severity: 'warning', subjectId: nand.id, mentions: ['2 roles', 'SLOG in storage', 'L2ARC in storage', 'over-provisioning'],
        commandIncludes: ['zpool remove storage /dev/disk/by-id/nvme-INTEL_SSDPEKNW010T8_BTNH93710FS91P0B-part1'], reversible: 'partly',
      }],
    },
    {
      name: 'the lab\'s QEMU NVMe partitioned into SLOG + L2ARC: "this virtual disk", not "this SSD"',
      artifacts: { Pools: withVdevs([inClass('log', part(qemuNvme, 1)), inClass('cache', part(qemuNvme, 2))]), Drives: [...hdds, qemuNvme] },
      findings: [{ severity: 'warning', subjectId: qemuNvme.id, mentions: ['This virtual disk is partitioned into 2 roles', 'cannot see'], check: (f) => expect(f.explanation).not.toContain('This SSD') }],
    },
    {
      name: 'single Optane split into SLOG + unmirrored special: the 004 exception does not cover it',
      // An unmirrored special on the shared Optane loses the pool with the device: a warning (003-hd's layout).
      artifacts: { Pools: withVdevs([inClass('log', part(optA, 1)), inClass('special', part(optA, 2))]), Drives: [...hdds, optA], Host: host() },
      findings: [{ severity: 'warning', mentions: ['Optane', 'the pool'], commandIncludes: ['zpool attach storage /dev/disk/by-id/nvme-INTEL_SSDPED1D280GA_A-part2 /dev/disk/by-id/<second-optane-partition>'], check: (f) => expect(f.evidence.find((e) => e.label === 'Optane')?.value).toBe(true) }],
    },
    {
      name: 'single Optane split into an unmirrored SLOG + a mirrored special: only the log rests on it → suggestion',
      artifacts: { Pools: withVdevs([inClass('log', part(optA, 1)), inClass('special', group('mirror', 'mirror-2', [part(optA, 2), part(optB, 2)]))]), Drives: [...hdds, optA, optB] },
      findings: [{ severity: 'suggestion', subjectId: optA.id, mentions: ['those roles'], commandIncludes: ['zpool attach storage /dev/disk/by-id/nvme-INTEL_SSDPED1D280GA_A-part1 <second-optane-partition>'] }],
    },
    {
      name: 'two consumer 660p partitioned alike, log + special mirrored across them: ONE finding naming both drives',
      artifacts: {
        Pools: withVdevs([inClass('log', group('mirror', 'mirror-1', [part(nand, 1), part(nand2, 1)])), inClass('special', group('mirror', 'mirror-2', [part(nand, 2), part(nand2, 2)]))]),
        Drives: [...hdds, nand, nand2],
      },
      findings: [{
        severity: 'warning', mentions: ['2 drives partitioned alike', nand.byIdPath!, nand2.byIdPath!],
        commandIncludes: [`zpool remove storage ${nand.byIdPath}-part1`, `zpool remove storage ${nand2.byIdPath}-part1`],
      }],
    },
  ],
});
