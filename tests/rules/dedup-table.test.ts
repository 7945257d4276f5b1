import { describe, expect, it } from 'vitest';
import rule from '../../rules/dedup-table.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { group, host, inClass, leaf, pool } from '../support/builders.ts';
import { collectPools, derivedFixture as fx } from '../support/expand-dedup-pools.ts';
import type { Pool } from '../../server/src/model/inventory.ts';

const fast = collectPools({ 'zpool-status.json': fx('dedup-D.json'), 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': fx('dedup-fast-zpool-get.txt') });
const fastText = collectPools({ 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': fx('dedup-fast-zpool-get.txt') });
const legacy = collectPools({ 'zpool-status.json': fx('dedup-D.json'), 'zpool-get.txt': fx('dedup-legacy-zpool-get.txt') });
const enabledNotActive = collectPools({ 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': fx('dedup-fast-zpool-get.txt').replace('feature@fast_dedup\tactive', 'feature@fast_dedup\tenabled') });
const quotaSet = collectPools({ 'zpool-status.txt': fx('dedup-D.txt'), 'zpool-get.txt': fx('dedup-fast-zpool-get.txt').replace('dedup_table_quota\tauto\tdefault', 'dedup_table_quota\t1073741824\tlocal') });
const noEntries = collectPools({ 'zpool-status.txt': fx('dedup-D.txt').replace(/ dedup: DDT entries[^]*$/, ' dedup: no DDT entries\n'), 'zpool-get.txt': fx('dedup-legacy-zpool-get.txt') });
const withDedupVdev: Pool[] = fast.map((p) => ({ ...p, vdevs: [...p.vdevs, inClass('dedup', group('mirror', 'mirror-1', [leaf('nvme0n1'), leaf('nvme1n1')]))] }));
const arc = (cMax: number) => ({ counters: { c_max: cMax, size: cMax / 2 } });
const ids = (fs: { title: string }[]) => fs.map((f) => f.title);

ruleTester(rule, {
  valid: [
    { name: 'fast table with a quota, ARC larger than the table', artifacts: { Pools: quotaSet, ArcStats: arc(8 * 2 ** 30) } },
    { name: 'fast table on a pool with a dedup vdev (auto quota bounded by it)', artifacts: { Pools: withDedupVdev } },
    { name: 'no DDT entries', artifacts: { Pools: noEntries } },
    { name: 'no -D output and no dedup: nothing to judge', artifacts: { Pools: [pool('tank', [leaf('sda')])] }, status: 'not-applicable' },
    { name: 'dedupratio 1.5 without -D output: said, not guessed', artifacts: { Pools: [pool('tank', [leaf('sda')], { dedupRatio: 1.5 })] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: 'fast table (JSON), auto quota on a pool with no dedup/special vdev: nothing limits it; ddtprune offered',
      artifacts: { Pools: fast, ArcStats: arc(8 * 2 ** 30) },
      findings: [{
        severity: 'suggestion', subjectId: 'tank', mentions: ['Nothing limits', 'auto', 'neither', 'zpool ddtprune can also remove'],
        commandIncludes: ['zpool set dedup_table_quota=<size> tank', 'zpool ddtprune -d'], reversible: 'partly',
        check: (f) => {
          expect(f.evidence.find((e) => e.label === 'DDT entries')?.value).toBe(8192);
          expect(f.evidence.find((e) => e.label === 'feature@fast_dedup')?.value).toBe('active');
          expect(f.citations.map((c) => c.url)).toContain('https://github.com/openzfs/zfs/blob/zfs-2.4.4/module/zfs/ddt.c#L1137');
        },
      }],
    },
    {
      name: 'the same pool read from text gives the same finding',
      artifacts: { Pools: fastText },
      findings: [{ severity: 'suggestion', mentions: ['Nothing limits'] }],
    },
    {
      name: 'legacy table, fast_dedup disabled: enable it (irreversible), existing table stays legacy; no ddtprune without the feature',
      artifacts: { Pools: legacy, Host: host('2.4.4') },
      findings: [
        { severity: 'suggestion', mentions: ['legacy dedup table', 'keeps its format', 'only a new table'], commandIncludes: ['zpool set feature@fast_dedup=enabled tank'], reversible: 'no' },
        { mentions: ['Nothing limits', 'needs fast dedup enabled'], reversible: 'yes', check: (f) => expect(f.action?.commands.join(' ')).not.toMatch(/ddtprune/) },
      ],
    },
    {
      name: 'fast_dedup enabled but not active (the table predates it): send/receive to convert',
      artifacts: { Pools: enabledNotActive },
      findings: [
        { mentions: ['no table uses it'], commandIncludes: ['zfs send -R tank/'], reversible: 'partly' },
        { mentions: ['Nothing limits'] },
      ],
    },
    {
      name: 'table bigger than the ARC maximum: warning with both sizes',
      artifacts: { Pools: quotaSet, ArcStats: arc(2 * 2 ** 20) },
      findings: [{ severity: 'warning', mentions: ['2.5 MiB vs 2 MiB', 'read from the pool'], commandIncludes: ['zfs set dedup=off'] }],
    },
    {
      name: 'pre-2.3 host (no such properties or feature): legacy by necessity, fast dedup needs 2.3',
      artifacts: { Pools: collectPools({ 'zpool-status.txt': fx('dedup-D.txt') }), Host: host('2.2.6') },
      findings: [{ mentions: ['needs OpenZFS 2.3 or later; this host runs 2.2.6'], check: (f) => expect(f.confidence).toBe('medium') }],
    },
  ],
});

describe('dedup-table on one pool with every problem', () => {
  it('states one finding per reason, in a fixed order: legacy, memory, quota', () => {
    const r = rule.check({ Pools: legacy, ArcStats: arc(2 ** 20), Host: host('2.4.4') });
    expect(r.status).toBe('fired');
    expect(r.status === 'fired' && ids(r.findings)).toEqual([
      'Pool tank deduplicates with a legacy dedup table',
      'The dedup table of tank is larger than the ARC can hold (2.5 MiB vs 1 MiB)',
      'Nothing limits the dedup table of tank',
    ]);
  });
});
