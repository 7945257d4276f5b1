import { expect } from 'vitest';
import rule from '../../rules/mirrors-for-random-io.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { dataset } from '../support/builders.ts';
import { documentedHdds, statusPools } from '../fixtures/rules/layout-load.ts';

const raidz2 = statusPools('layout-001-12x4tb-raidz2-status.txt');
const hdds = documentedHdds(Array.from({ length: 12 }, (_, i) => `da${i}`), 4e12);
const ssds = documentedHdds(Array.from({ length: 12 }, (_, i) => `da${i}`), 4e12, { media: 'ssd', rotational: false, rpm: null });
// The same 12 leaves as VMware virtual disks (rotational, media hdd as Linux reports them): virtual, media unknown here.
const vdisks = documentedHdds(Array.from({ length: 12 }, (_, i) => `da${i}`), 4e12, { model: 'VMware Virtual disk', transport: 'scsi', rpm: null });
const vm = dataset('storage/vm-100-disk-0', { type: 'volume' });
const files = dataset('storage/media');

ruleTester(rule, {
  valid: [
    { name: 'raidz2 of HDDs holding only file datasets', artifacts: { Pools: raidz2, Datasets: [files], Drives: hdds } },
    { name: 'raidz2 of SSDs holding zvols', artifacts: { Pools: raidz2, Datasets: [vm], Drives: ssds } },
    { name: 'mirror pool with zvols', artifacts: { Pools: statusPools('layout-jc-linux-wwn-mirrors-status.txt'), Datasets: [dataset('pool1/vm', { type: 'volume' })] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: '001 12-disk raidz2 of HDDs serving a VM zvol',
      artifacts: { Pools: raidz2, Datasets: [files, vm], Drives: hdds },
      findings: [{
        severity: 'suggestion', subjectId: 'storage', mentions: ['≈80', '≈480', 'trade-off'],
        commandIncludes: ['zfs send storage/vm-100-disk-0@move'],
        check: (f) => expect(f.confidence).toBe('medium'),
      }],
    },
    {
      name: 'raidz2 of VMware virtual disks serving a VM zvol: media "virtual", low confidence, measure it — not "hard disks"',
      artifacts: { Pools: raidz2, Datasets: [files, vm], Drives: vdisks },
      findings: [{
        mentions: ['virtual disks or LUNs', 'zfs-advisor bench mixed-70-30-4k --pool storage'],
        check: (f) => {
          expect(f.confidence).toBe('low');
          expect(f.title).not.toContain('hard disks');
          expect(f.evidence.find((e) => e.label === 'media')?.value).toBe('virtual');
        },
      }],
    },
    {
      name: 'drives unknown: still fires, low confidence',
      artifacts: { Pools: raidz2, Datasets: [vm] },
      findings: [{ mentions: ['could not be identified'], check: (f) => expect(f.confidence).toBe('low') }],
    },
  ],
});
