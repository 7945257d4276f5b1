import { expect } from 'vitest';
import rule from '../../rules/pool-health.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { drive, host } from '../support/builders.ts';
import { statusPools } from '../fixtures/rules/layout-load.ts';

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
const mirrors = statusPools('layout-jc-linux-wwn-mirrors-status.txt');
const freshlyScrubbed = mirrors.map((p) => ({ ...p, scan: { ...p.scan!, endedAt: daysAgo(3) } }));
// Scrub age is judged at capture time, never against the clock.
const capturedNow = { kind: 'local' as const, capturedAt: new Date().toISOString(), demo: false };
const capturedDayAfterScrub = { kind: 'snapshot' as const, capturedAt: new Date(Date.parse(mirrors[0]!.scan!.endedAt!) + 86_400_000).toISOString(), demo: false };

ruleTester(rule, {
  valid: [
    { name: 'real wwn mirrors scrubbed 3 days ago', artifacts: { Pools: freshlyScrubbed, Capture: capturedNow } },
    { name: 'a 2023 snapshot captured the day after its scrub: not overdue at capture time', artifacts: { Pools: mirrors, Capture: capturedDayAfterScrub } },
    { name: 'no capture time: scrub age is not judged', artifacts: { Pools: mirrors } },
    { name: 'scrub 34 days ago', artifacts: { Pools: mirrors.map((p) => ({ ...p, scan: { ...p.scan!, endedAt: daysAgo(34) } })), Capture: capturedNow } },
    { name: 'no pools', artifacts: { Pools: [] }, status: 'not-applicable' },
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
        { severity: 'suggestion', subjectId: 'test', mentions: ['never been scrubbed'], commandIncludes: ['zpool scrub test'] },
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
  ],
});
