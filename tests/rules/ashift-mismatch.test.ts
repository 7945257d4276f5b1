import { expect } from 'vitest';
import rule from '../../rules/ashift-mismatch.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { documentedHdds, smartDrive, statusPools } from '../fixtures/rules/layout-load.ts';

const names5 = ['da0', 'da1', 'da2', 'da3', 'da4'];
const mirrors = statusPools('layout-jc-linux-wwn-mirrors-status.txt');
const withAshift = (a0: number, a1: number) => mirrors.map((p) => ({ ...p, vdevs: p.vdevs.map((v, i) => ({ ...v, ashift: i === 0 ? a0 : a1 })) }));
// The real Exos X16 smartctl output reports 512 logical / 4096 physical sectors.
const exos = smartDrive('health-smartctl-sce-sata-hdd-seagate-exos-x16-16tb.json', { aliases: ['da0'] });

ruleTester(rule, {
  valid: [
    { name: '001 raidz1 with ashift 12 on 4K drives', artifacts: { Pools: statusPools('layout-001-5x4tb-raidz1-status.txt', { ashift: 12 }), Drives: [exos] } },
    { name: 'mirrors all ashift 12', artifacts: { Pools: withAshift(12, 12) } },
    { name: 'ashift unknown everywhere', artifacts: { Pools: statusPools('layout-001-5x4tb-raidz1-status.txt') }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: '001 raidz1 created with ashift 9 on a 4K-sector Exos',
      artifacts: { Pools: statusPools('layout-001-5x4tb-raidz1-status.txt', { ashift: 9 }), Drives: [exos, ...documentedHdds(names5.slice(1), 4e12)] },
      findings: [{
        severity: 'warning', subjectId: 'storage/raidz1-0', mentions: ['512-byte', '4096-byte', '10 %'], reversible: 'no',
        check: (f) => expect(f.evidence.find((e) => e.label === 'physical sector size')?.value).toBe(4096),
      }],
    },
    {
      name: 'real wwn mirrors with mirror-1 added at ashift 9 on 512-byte drives: mixed ashift only',
      artifacts: { Pools: withAshift(12, 9), Drives: documentedHdds(['wwn-0x5000c500e39e8af6'], 4e12, { physicalSectorSize: 512 }) },
      findings: [{ severity: 'suggestion', subjectId: 'pool1', mentions: ['9 and 12', 'can ever be removed'], commandIncludes: ['zpool add -n -o ashift=12 pool1'] }],
    },
  ],
});
