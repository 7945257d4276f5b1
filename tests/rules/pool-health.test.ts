import { expect } from 'vitest';
import rule from '../../rules/pool-health.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { dataset, drive, host } from '../support/builders.ts';
import { fixtureText, statusPools } from '../fixtures/rules/layout-load.ts';
import { parseZfsGet } from '../../server/src/parsers/zfs-get.ts';
import type { Dataset } from '../../server/src/model/inventory.ts';

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
const mirrors = statusPools('layout-jc-linux-wwn-mirrors-status.txt');
const freshlyScrubbed = mirrors.map((p) => ({ ...p, scan: { ...p.scan!, endedAt: daysAgo(3) } }));
// Scrub age is judged at capture time, never against the clock.
const capturedNow = { kind: 'local' as const, capturedAt: new Date().toISOString(), demo: false };
const capturedDayAfterScrub = { kind: 'snapshot' as const, capturedAt: new Date(Date.parse(mirrors[0]!.scan!.endedAt!) + 86_400_000).toISOString(), demo: false };

// A never-scrubbed pool is judged by its age. Real zfs-fuse lab outputs: `zpool status` shows
// `scrub: none requested` on all twelve pools, and `zfs get -H -p all` dates each root dataset
// (fmirror: creation 1795327747 = 2026-11-22T06:09:07Z).
const fuseLab = statusPools('../zfs/status/zfs-fuse--zpool_status.txt');
const fmirror = fuseLab.filter((p) => p.name === 'fmirror');
const fuseGet = parseZfsGet(fixtureText('../zfs/get/zfs-fuse--zfs_get_-H_-p_all.txt'));
if (!fuseGet.ok) throw new Error(fuseGet.error.message);
const fuseDatasets: Dataset[] = fuseGet.value.map((d) => dataset(d.name, { properties: d.properties }));
const FMIRROR_CREATED = Date.parse('2026-11-22T06:09:07Z');
const capturedAfter = (days: number) => ({ kind: 'snapshot' as const, capturedAt: new Date(FMIRROR_CREATED + days * 86_400_000).toISOString(), demo: false });

ruleTester(rule, {
  valid: [
    { name: 'real wwn mirrors scrubbed 3 days ago', artifacts: { Pools: freshlyScrubbed, Capture: capturedNow } },
    { name: 'a 2023 snapshot captured the day after its scrub: not overdue at capture time', artifacts: { Pools: mirrors, Capture: capturedDayAfterScrub } },
    { name: 'no capture time: scrub age is not judged', artifacts: { Pools: mirrors } },
    { name: 'scrub 34 days ago', artifacts: { Pools: mirrors.map((p) => ({ ...p, scan: { ...p.scan!, endedAt: daysAgo(34) } })), Capture: capturedNow } },
    { name: 'no pools', artifacts: { Pools: [] }, status: 'not-applicable' },
    { name: 'zfs-fuse pool "none requested" captured 10 minutes after creation: new, not unscrubbed', artifacts: { Pools: fmirror, Datasets: fuseDatasets, Capture: capturedAfter(10 / 1440) } },
    { name: 'zfs-fuse pools created 35 days before capture: not yet due', artifacts: { Pools: fuseLab, Datasets: fuseDatasets, Capture: capturedAfter(35) } },
  ],
  invalid: [
    {
      name: 'msgdoc 3C: pool FAULTED, single disk sdb FAULTED',
      artifacts: { Pools: statusPools('health-msgdoc-3C-faulted-insufficient-replicas-status.txt'), Host: host() },
      findings: [
        { severity: 'critical', subjectId: 'test', mentions: ['FAULTED', 'insufficient'], check: (f) => expect(f.citations.some((c) => c.url === 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-3C')).toBe(true) },
        { severity: 'critical', subjectId: 'test/sdb', mentions: ['sdb FAULTED'], commandIncludes: ['zpool replace test sdb /dev/disk/by-id/<new-disk>'] },
      ],
    },
    {
      name: 'msgdoc K4: UNAVAIL log device is a warning, not a pool loss',
      artifacts: { Pools: statusPools('health-msgdoc-K4-logs-row-with-state-unavail-status.txt') },
      findings: [{ severity: 'warning', subjectId: 'test/c5t3d0', mentions: ['log', 'UNAVAIL', 'pool\'s own ZIL'] }],
    },
    {
      name: 'msgdoc 8A: checksum errors on sda, a permanent error in a file, never scrubbed',
      artifacts: { Pools: statusPools('health-msgdoc-8A-permanent-errors-file-status.txt'), Drives: [drive('ata-X', { aliases: ['sda'], byIdPath: '/dev/disk/by-id/ata-X' })] },
      findings: [
        { severity: 'warning', subjectId: 'test/sda', mentions: ['0 read, 0 write, 2 checksum'], commandIncludes: ['smartctl -a /dev/disk/by-id/ata-X', 'zpool clear test'] },
        { severity: 'critical', subjectId: 'test', mentions: ['permanent data errors in 1 file'], check: (f) => expect(f.evidence[1]!.value).toBe('/export/example/foo') },
        { severity: 'suggestion', subjectId: 'test', mentions: ['never been scrubbed', 'may simply be new'], commandIncludes: ['zpool scrub test'], check: (f) => expect(f.confidence).toBe('medium') },
      ],
    },
    {
      name: 'FreeBSD raidz2 with one FAULTED member: can still lose one more',
      artifacts: { Pools: statusPools('health-fbsd-usb-raidz2-faulted-persistent-status.txt') },
      findings: [{ severity: 'warning', subjectId: 'upool/raidz2-0', mentions: ['gpt/usb0 FAULTED', 'lose 1 more'] }],
    },
    {
      name: 'TrueNAS raidz1 with an OFFLINE member: no redundancy left, online it',
      artifacts: { Pools: statusPools('health-truenas-scale-raidz1-offline-partition-names-status.txt') },
      findings: [{ severity: 'critical', subjectId: 'pool1/raidz1-0', mentions: ['sda2 OFFLINE', 'no redundancy left'], commandIncludes: ['zpool online pool1 sda2'], reversible: 'yes' }],
    },
    {
      name: 'FreeBSD zroot resilvering: info with progress',
      artifacts: { Pools: statusPools('health-fbsd-zroot-resilvering-online-status.txt') },
      findings: [{ severity: 'info', subjectId: 'zroot', mentions: ['resilvering', '10.98 % done'] }],
    },
    {
      name: 'real wwn mirrors last scrubbed on 2023-02-12: overdue',
      artifacts: { Pools: mirrors, Capture: capturedNow },
      findings: [{ severity: 'suggestion', subjectId: 'pool1', mentions: ['last scrubbed'], check: (f) => expect(Number(f.evidence[1]!.value)).toBeGreaterThan(900) }],
    },
    {
      name: 'zfs-fuse pool created 60 days before capture and never scrubbed: overdue, high confidence',
      artifacts: { Pools: fmirror, Datasets: fuseDatasets, Capture: capturedAfter(60) },
      findings: [{
        severity: 'suggestion', subjectId: 'fmirror', mentions: ['never been scrubbed in its 60 days', 'created 60 days before this capture'], commandIncludes: ['zpool scrub fmirror'],
        check: (f) => {
          expect(f.confidence).toBe('high');
          expect(f.evidence.find((e) => e.label === 'pool created')?.value).toBe('2026-11-22T06:09:07.000Z');
        },
      }],
    },
    {
      name: 'same pool without its datasets: creation unknown → medium, "may simply be new"',
      artifacts: { Pools: fmirror, Capture: capturedAfter(60) },
      findings: [{ severity: 'suggestion', subjectId: 'fmirror', mentions: ['never been scrubbed', 'may simply be new'], check: (f) => expect(f.confidence).toBe('medium') }],
    },
    {
      name: 'creation printed as a date by plain `zfs get` is read too',
      artifacts: { Pools: fmirror, Datasets: [dataset('fmirror', { properties: { creation: { value: 'Sun Nov 22  6:09 2026', source: '-' } } })], Capture: capturedAfter(40) },
      findings: [{ severity: 'suggestion', subjectId: 'fmirror', mentions: ['never been scrubbed in its 40 days'], check: (f) => expect(f.confidence).toBe('high') }],
    },
  ],
});
