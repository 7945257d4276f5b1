import { expect } from 'vitest';
import rule from '../../rules/drive-health.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { drive, group, leaf, pool } from '../support/builders.ts';
import { smartDrive } from '../fixtures/rules/layout-load.ts';

// Real smartctl outputs (PROVENANCE.md).
const hitachi = smartDrive('health-smartctl-usb-jmicron-hitachi-hdd-failing.json', { byIdPath: '/dev/disk/by-id/usb-Hitachi_HDS721050DLE630', aliases: ['sdc'] });
const pm1725a = smartDrive('health-smartctl-sce-nvme-samsung-pm1725a-FAILED-volatile-backup.json');
const p4500 = smartDrive('health-smartctl-sce-nvme-intel-p4500-75pct-used.json');
const exos = smartDrive('health-smartctl-sce-sata-hdd-seagate-exos-x16-16tb.json');
const tank = pool('tank', [group('mirror', 'mirror-0', [leaf('sdb'), leaf('sdc')])]);

ruleTester(rule, {
  valid: [
    { name: 'healthy Exos X16 and a P4500 at 75 % wear', artifacts: { Drives: [exos, p4500] } },
    {
      // QEMU emulates SMART for its NVMe (the lab's drives): wear and temperature of a virtual disk are
      // the hypervisor's figures, not a drive's, so no limit of ours applies (issue 34 item 5).
      name: 'virtual disks with emulated wear and temperature: the lab\'s QEMU NVMe at 75 °C and 90 % wear, a virtio disk at 55 °C',
      artifacts: { Drives: [
        drive('nvme-QEMU_NVMe_Ctrl_NV0001', { model: 'QEMU NVMe Ctrl', media: 'nvme', transport: 'nvme', rotational: false, rpm: null, temperatureC: 75, wearPct: 90 }),
        drive('virtio-ZD0001', { model: null, devPath: '/dev/vdb', media: 'hdd', transport: 'virtual', rotational: true, rpm: null, temperatureC: 55 }),
      ] },
    },
    { name: 'no SMART data at all', artifacts: { Drives: [drive('x', { smartPassed: null, wearPct: null, temperatureC: null, mediaErrors: null })] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: 'a virtual disk whose SMART self-assessment FAILED is still reported (the target said so), and a real NVMe at 75 °C still warns',
      artifacts: { Drives: [
        drive('scsi-VMware_Virtual_disk', { model: 'VMware Virtual disk', media: 'hdd', transport: 'scsi', rotational: true, rpm: null, smartPassed: false, temperatureC: 55 }),
        drive('nvme-Samsung_SSD_970_EVO_500GB', { model: 'Samsung SSD 970 EVO 500GB', media: 'nvme', transport: 'nvme', rotational: false, rpm: null, temperatureC: 75 }),
      ] },
      findings: [
        { severity: 'critical', subjectId: 'scsi-VMware_Virtual_disk', check: (f) => expect(f.explanation).not.toMatch(/°C/) },
        { severity: 'warning', subjectId: 'nvme-Samsung_SSD_970_EVO_500GB', mentions: ['75 °C', 'NVMe drives'] },
      ],
    },
    {
      name: 'failing USB Hitachi: SMART FAILED, 1975 reallocated, 8 pending; in pool tank',
      artifacts: { Drives: [hitachi, exos], Pools: [tank] },
      findings: [{
        severity: 'critical', subjectId: hitachi.id, mentions: ['FAILED', '1,975 reallocated sectors', '8 pending', 'pool tank'],
        commandIncludes: ['smartctl -t long /dev/disk/by-id/usb-Hitachi_HDS721050DLE630', 'zpool replace tank sdc'],
        check: (f) => expect(f.subject.pool).toBe('tank'),
      }],
    },
    {
      name: 'Samsung PM1725a whose SMART self-assessment failed',
      artifacts: { Drives: [pm1725a] },
      findings: [{ severity: 'critical', mentions: ['FAILED', 'not part of any pool'] }],
    },
    {
      name: 'worn SSD (85 %) and a hot HDD (55 °C)',
      artifacts: { Drives: [drive('ssd-1', { media: 'ssd', rotational: false, rpm: null, wearPct: 85 }), drive('hdd-1', { temperatureC: 55 })] },
      findings: [
        { severity: 'warning', subjectId: 'ssd-1', mentions: ['85 % of its rated write endurance'] },
        { severity: 'warning', subjectId: 'hdd-1', mentions: ['55 °C', 'heuristic'] },
      ],
    },
  ],
});
