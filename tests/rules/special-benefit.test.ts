import rule from '../../rules/special-benefit.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, da1, da3, testPool, testPoolDrivesAll, workload } from '../fixtures/rules/slog-fixtures.ts';
import { asPool, asyncOnlyPair, syncHeavyPair } from '../observe/recorded-pairs.ts';

// Recorded pairs without arcstats (start real, end derived): only the request sizes speak.
const smallWrites = asPool(syncHeavyPair(false), 'bench-pool');
const bigWrites = asPool(asyncOnlyPair(false), 'bench-pool');

const arc = (metadataMisses: number, dataMisses: number) => ({ counters: { demand_metadata_misses: metadataMisses, demand_data_misses: dataMisses } });
const metaHeavy = { ...workload('bench-pool', 0), arc: { hitRatio: 0.8, metadataHitRatio: 0.7, metadataMissesPerSec: 120, metadataShareOfMisses: 0.55 } };

ruleTester(rule, {
  valid: [
    { name: '000 test-pool already has a special vdev', status: 'not-applicable', artifacts: { Pools: [testPool], Drives: testPoolDrivesAll } },
    { name: 'HDD pool, ARC misses mostly data (media streaming)', artifacts: { Pools: [benchPool], Drives: [da1, da3], ArcStats: arc(200_000, 5_000_000) } },
    { name: 'recorded async-only pair, 128 KiB writes only, no ARC counters: passed', artifacts: { Pools: [benchPool], Drives: [da1, da3], Workload: bigWrites } },
    { name: 'HDD pool without any evidence: cannot judge, not "passed"', status: 'not-applicable', artifacts: { Pools: [benchPool], Drives: [da1, da3] } },
  ],
  invalid: [
    {
      name: 'recorded sync-heavy pair (start real, end derived): 86 % of write I/Os below 32 KiB, medium confidence',
      artifacts: { Pools: [benchPool], Drives: [da1, da3], Workload: smallWrites },
      findings: [{
        subjectId: 'bench-pool', mentions: ['86 % of write I/Os were below 32 KiB (600/s over 10 s)'],
        check: (f) => {
          if (f.confidence !== 'medium') throw new Error(f.confidence);
          if (!f.evidence.some((e) => e.label === 'write I/Os below 32 KiB (observed)' && e.value === 86)) throw new Error('evidence');
          if (f.explanation.includes('Needs a workload observation')) throw new Error('asks for an observation it has');
        },
      }],
    },
    {
      name: 'HDD pool, 60 % of ARC demand misses since boot are metadata',
      artifacts: { Pools: [benchPool], Drives: [da1, da3], ArcStats: arc(3_000_000, 2_000_000) },
      findings: [{ subjectId: 'bench-pool', mentions: ['60 %', '0.32 %', '2-way mirror'], commandIncludes: ['zpool add -n bench-pool special mirror'], reversible: 'partly', check: (f) => { if (f.confidence !== 'medium') throw new Error(f.confidence); } }],
    },
    {
      name: 'observed metadata-heavy workload (constructed)',
      artifacts: { Pools: [benchPool], Drives: [da1, da3], Workload: metaHeavy },
      findings: [{ mentions: ['55 %'], check: (f) => { if (f.confidence !== 'high') throw new Error(f.confidence); } }],
    },
  ],
});
