import { expect } from 'vitest';
import rule from '../../rules/raidz-expansion.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { group, host, leaf, pool } from '../support/builders.ts';
import { collectPools, derivedFixture as fx } from '../support/expand-dedup-pools.ts';

const inProgress = collectPools({ 'zpool-status.json': fx('raidz-expand-in-progress.json'), 'zpool-status.txt': fx('raidz-expand-in-progress.txt') });
const inProgressText = collectPools({ 'zpool-status.txt': fx('raidz-expand-in-progress.txt') });
const finished = collectPools({ 'zpool-status.json': fx('raidz-expand-finished.json'), 'zpool-status.txt': fx('raidz-expand-finished.txt') });
const paused = collectPools({ 'zpool-status.txt': fx('raidz-expand-in-progress.txt').replace(', 00:02:30 to go', ', paused for resilver or clear') });
const plainRaidz = [pool('tank', [group('raidz1', 'raidz1-0', [leaf('sda'), leaf('sdb'), leaf('sdc')])])];

ruleTester(rule, {
  valid: [
    { name: 'a raidz pool without an expansion line', artifacts: { Pools: plainRaidz }, status: 'not-applicable' },
    { name: 'no pools', artifacts: { Pools: [] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: 'expansion in progress (JSON): progress, no second expansion, old blocks keep 2 data + 1 parity, new 3 + 1',
      artifacts: { Pools: inProgress, Host: host('2.4.4') },
      findings: [{
        severity: 'info', subjectId: 'tank/raidz1-0',
        mentions: ['in progress (40 % copied)', 'No second expansion', 'at most 2 data + 1 parity', '3 data + 1 parity', 'zfs rewrite -r', '1.2 GiB of 3 GiB'],
        commandIncludes: ['zpool wait -t raidz_expand tank'], reversible: 'yes',
        check: (f) => {
          expect(f.evidence.find((e) => e.label === 'to copy')?.value).toBe(3221225472);
          expect(f.evidence.find((e) => e.label === 'width now')?.value).toBe(4);
          expect(f.citations.map((c) => c.url)).toContain('https://github.com/openzfs/zfs/blob/zfs-2.4.4/module/zfs/spa.c#L8251');
        },
      }],
    },
    {
      name: 'the same state read from the text output gives the same finding',
      artifacts: { Pools: inProgressText, Host: host('2.3.9') },
      findings: [{ severity: 'info', subjectId: 'tank/raidz1-0', mentions: ['in progress (40 % copied)', 'No second expansion'] }],
    },
    {
      name: 'paused for a resilver: warning, restore the group first',
      artifacts: { Pools: paused },
      findings: [{ severity: 'warning', mentions: ['paused', 'replace or clear the disk'], check: (f) => expect(f.action?.summary).toMatch(/Do not attach another disk/) }],
    },
    {
      name: 'finished on 2.4.4: zfs rewrite offered; on 2.3.2 (no zfs rewrite) send/receive instead',
      artifacts: { Pools: finished, Host: host('2.4.4') },
      findings: [{ severity: 'info', mentions: ['was expanded', 'slightly less space'], commandIncludes: ['zfs rewrite -r'], reversible: 'partly' }],
    },
    {
      name: 'finished, OpenZFS 2.3.2: no zfs rewrite yet',
      artifacts: { Pools: finished, Host: host('2.3.2') },
      findings: [{ mentions: ['2.3.4 and later; this host runs 2.3.2'], commandIncludes: ['zfs send -R tank/'] }],
    },
  ],
});
