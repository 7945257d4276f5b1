import { expect } from 'vitest';
import rule from '../../rules/slog-on-2.4-special.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, da1, da3, testPool, testPoolDrivesAll } from '../fixtures/rules/slog-fixtures.ts';
import { drive, group, host, inClass, leaf, pool } from '../support/builders.ts';

// The lab's pools: virtio data disks and a special mirror of two QEMU NVMe (issue 34 item 5: virtual, latency unknown).
const qemu = (n: number) => drive(`nvme-QEMU_NVMe_Ctrl_NV000${n}`, { model: 'QEMU NVMe Ctrl', serial: `NV000${n}`, media: 'nvme', transport: 'nvme', rotational: false, rpm: null });
const zd = (n: number) => drive(`virtio-ZD000${n}`, { model: null, devPath: `/dev/vd${'bc'[n - 1]}`, media: 'hdd', transport: 'virtual', rotational: true, rpm: null });
const labPool = pool('tank', [
  group('mirror', 'mirror-0', [leaf('vdb', { driveId: zd(1).id }), leaf('vdc', { driveId: zd(2).id })]),
  inClass('special', group('mirror', 'mirror-1', [leaf('nvme0n1', { driveId: qemu(1).id }), leaf('nvme1n1', { driveId: qemu(2).id })])),
]);

ruleTester(rule, {
  valid: [
    { name: '000 test-pool on OpenZFS 2.1.6 (engine gate)', status: 'not-applicable', artifacts: { Pools: [testPool], Host: host('2.1.6'), Drives: testPoolDrivesAll } },
    { name: 'no special vdev on 2.4', status: 'not-applicable', artifacts: { Pools: [benchPool], Host: host('2.4.0'), Drives: [da1, da3] } },
  ],
  invalid: [
    {
      name: 'the lab\'s special mirror of QEMU NVMe on 2.4: the ZIL\'s latency there is unknown — measure it, not "consumer-grade"',
      artifacts: { Pools: [labPool], Host: host('2.4.0'), Drives: [zd(1), zd(2), qemu(1), qemu(2)] },
      findings: [{
        severity: 'info', subjectId: 'tank', mentions: ['are virtual disks or LUNs', 'unknown until measured'],
        commandIncludes: ['zfs-advisor bench sync-write-4k-qd1 --pool tank'],
        check: (f) => {
          expect(f.explanation).not.toMatch(/consumer-grade|not a PLP\/Optane/);
          expect(f.evidence.find((e) => e.label === 'special latency class')?.value).toBe('virtual disk or LUN (latency unknown: measure it)');
        },
      }],
    },
    {
      name: '000 test-pool (P1600X special, no log) on OpenZFS 2.4.0',
      artifacts: { Pools: [testPool], Host: host('2.4.0'), Drives: testPoolDrivesAll },
      findings: [{ severity: 'info', subjectId: 'test-pool', mentions: ['zil_special_is_slog', 'P1600X'] }],
    },
  ],
});
