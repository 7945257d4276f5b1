import { describe, expect, it } from 'vitest';
import rule from '../../rules/slog-without-sync-writes.ts';
import { runRule } from '../../rules/engine/engine.ts';
import type { AnyRule } from '../../rules/engine/types.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, benchPoolOptaneLog, workload } from '../fixtures/rules/slog-fixtures.ts';
import { dataset } from '../support/builders.ts';
import { asPool, asyncOnlyPair, syncHeavyPair } from '../observe/recorded-pairs.ts';

ruleTester(rule, {
  valid: [
    { name: 'SLOG pool with observed sync commits (constructed)', artifacts: { Pools: [benchPoolOptaneLog], Workload: workload('bench-pool', 120) } },
    { name: 'no log vdev', status: 'not-applicable', artifacts: { Pools: [benchPool], Workload: workload('bench-pool', 0) } },
    { name: 'no log vdev and no workload: not applicable, not "needs Workload"', status: 'not-applicable', artifacts: { Pools: [benchPool] } },
    { name: 'log vdev, recorded sync-heavy pair (start real, end derived): the SLOG is used', artifacts: { Pools: [benchPoolOptaneLog], Workload: asPool(syncHeavyPair(), 'bench-pool') } },
    { name: 'log vdev but no workload observation', status: 'not-applicable', artifacts: { Pools: [benchPoolOptaneLog] } },
  ],
  invalid: [
    {
      name: 'log vdev, recorded async-only pair (start real, end derived): the SLOG saw no sync writes',
      artifacts: { Pools: [benchPoolOptaneLog], Workload: asPool(asyncOnlyPair(), 'bench-pool'), Datasets: [dataset('bench-pool')] },
      findings: [{ severity: 'info', subjectId: 'bench-pool', mentions: ['10 s observation', 'no synchronous writes'], commandIncludes: ['zpool remove bench-pool nvd1'], check: (f) => expect(f.confidence).toBe('low') }],
    },
    {
      name: '000 bench-pool with P1600X log, observation (constructed) shows no sync writes',
      artifacts: { Pools: [benchPoolOptaneLog], Workload: workload('bench-pool', 0), Datasets: [dataset('bench-pool', { sync: 'disabled' })] },
      findings: [{ severity: 'info', subjectId: 'bench-pool', mentions: ['no synchronous writes', 'sync=disabled'], commandIncludes: ['zpool remove bench-pool nvd1'], reversible: 'yes' }],
    },
  ],
});

describe('slog-without-sync-writes without a workload observation', () => {
  it('a pool with a log vdev says it needs `zfs-advisor observe`', () => {
    const res = runRule(rule as AnyRule, { Pools: [benchPoolOptaneLog] });
    expect(res.status).toBe('not-applicable');
    expect(res.message).toContain('bench-pool has a log vdev');
    expect(res.message).toContain('zfs-advisor observe');
  });
});
