import rule from '../../rules/qlc-or-cache-only-ssd-in-role.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { drive, group, inClass, leaf, pool } from '../support/builders.ts';
import { documentedHdds, smartDrive, statusPools } from '../fixtures/rules/layout-load.ts';
import type { Drive, Pool, VdevNode } from '../../server/src/model/inventory.ts';

const raidz2 = statusPools('layout-001-12x4tb-raidz2-status.txt');
const hdds = documentedHdds(Array.from({ length: 12 }, (_, i) => `da${i}`), 4e12);
const byId = (d: Drive, id: string): Drive => ({ ...d, byIdPath: `/dev/disk/by-id/${id}` });
// Real smartctl: Intel 660p (QLC, zfs-facts E8) and Optane 900P.
const qlc = byId(smartDrive('health-smartctl-nvme-intel-660p-devname-edited.json'), 'nvme-INTEL_SSDPEKNW010T8_BTNH93710FS91P0B');
const optane = byId(smartDrive('health-smartctl-nvme-intel-optane-900p-ssdped1d280ga.json'), 'nvme-INTEL_SSDPED1D280GA_A');
const qlc2: Drive = { ...qlc, id: `${qlc.id}-2`, serial: 'SECOND', wwn: null, devPath: null, aliases: [], byIdPath: '/dev/disk/by-id/nvme-INTEL_SSDPEKNW010T8_SECOND' };
const withVdevs = (extra: VdevNode[]): Pool[] => raidz2.map((p) => ({ ...p, vdevs: [...p.vdevs, ...extra] }));
const h10 = drive('nvme-INTEL_HBRPEKNX0202AH_1', { model: 'INTEL HBRPEKNX0202AH', media: 'nvme', transport: 'nvme', rotational: false, rpm: null });

ruleTester(rule, {
  valid: [
    { name: 'Optane 900P as SLOG', artifacts: { Pools: withVdevs([inClass('log', leaf(optane.byIdPath!))]), Drives: [...hdds, optane] } },
    { name: '660p as L2ARC only (reads)', artifacts: { Pools: withVdevs([inClass('cache', leaf(qlc.byIdPath!))]), Drives: [...hdds, qlc] } },
    { name: 'nothing resolvable', artifacts: { Pools: raidz2, Drives: [] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: 'Intel 660p (QLC) as SLOG of the 001 raidz2',
      artifacts: { Pools: withVdevs([inClass('log', leaf(qlc.byIdPath!))]), Drives: [...hdds, qlc] },
      findings: [{ severity: 'warning', subjectId: qlc.id, mentions: ['Intel SSD 660p', 'QLC', 'SLOG'], commandIncludes: ['zpool remove storage /dev/disk/by-id/nvme-INTEL_SSDPEKNW010T8_BTNH93710FS91P0B'], reversible: 'partly' }],
    },
    {
      name: 'Optane H10 (Optane cache + QLC) as special: warning; 660p as flash data vdev: suggestion',
      artifacts: {
        Pools: [...withVdevs([inClass('special', group('mirror', 'mirror-1', [leaf(h10.byIdPath!), leaf('/dev/disk/by-id/nvme-other')]))]), pool('flash', [leaf(qlc.byIdPath!)])],
        Drives: [...hdds, h10, qlc],
      },
      findings: [
        { severity: 'warning', subjectId: h10.id, mentions: ['H10', 'special'], commandIncludes: ['zpool replace storage /dev/disk/by-id/nvme-INTEL_HBRPEKNX0202AH_1'] },
        { severity: 'suggestion', subjectId: qlc.id, mentions: ['as data in flash'] },
      ],
    },
    {
      name: 'a special mirror of two Intel 660p: ONE finding for the vdev naming both members, both replace commands',
      artifacts: {
        Pools: withVdevs([inClass('special', group('mirror', 'mirror-1', [leaf(qlc.byIdPath!), leaf(qlc2.byIdPath!)]))]),
        Drives: [...hdds, qlc, qlc2],
      },
      findings: [{
        severity: 'warning', subjectId: 'storage/mirror-1', mentions: ['2 drives of mirror-1', 'mirroring them does not help'],
        commandIncludes: ['zpool replace storage /dev/disk/by-id/nvme-INTEL_SSDPEKNW010T8_BTNH93710FS91P0B', 'zpool replace storage /dev/disk/by-id/nvme-INTEL_SSDPEKNW010T8_SECOND'],
      }],
    },
  ],
});
