import { DEFAULT_PARAMS } from '../../server/src/forecast/model.ts';
import rule from '../../rules/slog-benefit.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { artifacts000, benchDataset, benchPoolOptaneLog, da1, da3, host000, p1600x, workload } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, drive, group, leaf, pool } from '../support/builders.ts';
import { expect } from 'vitest';
import { asPool, asyncOnlyPair, syncHeavyPair } from '../observe/recorded-pairs.ts';

// Recorded OpenZFS 2.x counter pairs (start real, end derived: tests/observe/recorded-pairs.ts), on the 000 pool.
const recordedSync = asPool(syncHeavyPair(), 'bench-pool');
const recordedAsync = asPool(asyncOnlyPair(), 'bench-pool');

const ssd = (id: string) => drive(id, { model: 'SAMSUNG MZ7LM960HMJP', media: 'ssd', rotational: false, rpm: null }); // PM863
const flashPool = pool('flash', [group('mirror', 'mirror-0', [leaf('sda', { driveId: 'a' }), leaf('sdb', { driveId: 'b' })])]);

ruleTester(rule, {
  valid: [
    { name: '000 bench-pool after adding the P1600X SLOG', status: 'not-applicable', artifacts: { Pools: [benchPoolOptaneLog], Drives: [da1, da3, p1600x], Datasets: [benchDataset] } },
    { name: 'observed workload (constructed) with no sync writes', artifacts: artifacts000({ Workload: workload('bench-pool', 0), Datasets: [dataset('bench-pool')] }) },
    { name: 'recorded async-only pair (start real, end derived): no sync writes, no SLOG advice', artifacts: artifacts000({ Workload: recordedAsync, Datasets: [dataset('bench-pool')] }) },
    { name: 'HDD pool with no evidence at all: no guessing', artifacts: artifacts000({ Datasets: [dataset('bench-pool')] }) },
    { name: 'PLP SATA flash pool is not a slow pool', status: 'not-applicable', artifacts: { Pools: [flashPool], Drives: [ssd('a'), ssd('b')], Datasets: [dataset('flash', { sync: 'always' })] } },
  ],
  invalid: [
    {
      name: 'issue 34: a measured probe (125 IOPS at QD1) gives the per-write time as 8.0 ms, never the class "~12 ms per flush" beside it',
      artifacts: artifacts000({
        Benchmarks: [{
          id: 'p125', profile: 'sync-write-4k-qd1', pool: 'bench-pool', target: 'bench-pool/zfs-advisor-bench', startedAt: '2026-01-01T00:00:00Z', status: 'completed',
          syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 125, readBytesPerSec: 0, writeBytesPerSec: 125 * 4096,
          writeLatency: null, readLatency: null, wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
        }],
      }),
      findings: [{
        subjectId: 'bench-pool', mentions: ['measured 125 sync writes/s at QD1: 8.0 ms each'],
        check: (f) => { expect(f.explanation).not.toContain('ms per flush'); },
      }],
    },
    {
      name: 'recorded sync-heavy pair (start real, end derived): quotes the observed p99 and rate, "now" from the observed latency',
      artifacts: artifacts000({ Workload: recordedSync }),
      findings: [{
        subjectId: 'bench-pool', mentions: ['p99 8.39 ms', '600 sync writes/s', 'from the observed latency'],
        check: (f) => {
          expect(f.confidence).toBe('high');
          const ev = Object.fromEntries(f.evidence.map((e) => [e.label, e.value]));
          expect(ev['observed sync-write latency p99 (data vdevs)']).toBe(8.39);
          expect(ev['observed sync-write latency p50 (data vdevs)']).toBe(6.31);
          expect(ev['observed sync writes']).toBe(600);
          // QD1 now = 1 / (the fitted per-commit overhead + 6310 µs observed p50 × the mirror's
          // wait-for-the-slower-of-2 factor 1 + 0.15 ln 2) (server/src/forecast/model.ts).
          expect(ev['expected QD1 sync IOPS now']).toBe(Math.round(1e6 / (DEFAULT_PARAMS.overheadUs.typical + 6310 * (1 + 0.15 * Math.log(2)))));
          expect(f.explanation).not.toContain('Needs a workload observation');
        },
      }],
    },
    {
      name: '000 bench-pool (2×WD Red mirror, sync=always) with the unused P1600X in the box',
      artifacts: artifacts000(),
      findings: [{
        severity: 'suggestion', subjectId: 'bench-pool', mentions: ['no log vdev', 'sync=always', 'P1600X', 'Needs a workload observation'],
        // 000 is TrueNAS CORE (FreeBSD): the device's own /dev node, never a Linux by-id path.
        commandIncludes: ['zpool add -n bench-pool log /dev/nvd1'], reversible: 'yes',
        check: (f) => {
          expect(f.confidence).toBe('low');
          const now = f.evidence.find((e) => e.label === 'expected QD16 sync IOPS now → with SLOG')!.value as string;
          // 000 measured 894 IOPS at QD16 on exactly this pool (the model says ~810, range 432–2,911:
          // tests/forecast/calibration.test.ts) and 39.2k with the P1600X as SLOG, which the forecast uses.
          const [before, after] = now.split(' → ').map((x) => Number(x.replace(/,/g, '')));
          // Group commit (16 writers share each round): the typical within 50 % of the measured 894.
          expect(Math.abs(before! - 894) / 894).toBeLessThan(0.5);
          expect(after).toBe(39_200);
        },
      }],
    },
    {
      name: 'observed sync commits (constructed workload) with "now" only modelled: medium confidence (forecast/confidence.ts), no "needs observation"',
      artifacts: artifacts000({ Workload: workload('bench-pool', 250), Drives: [da1, da3], Host: host000 }),
      findings: [{ subjectId: 'bench-pool', mentions: ['250'], commandIncludes: ['<new-optane-1>'], check: (f) => { expect(f.confidence).toBe('medium'); expect(f.explanation).toContain('Confidence medium: "now" is a model estimate, sync writes observed'); expect(f.explanation).not.toContain('Needs a workload observation'); } }],
    },
  ],
});
