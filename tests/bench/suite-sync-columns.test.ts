/**
 * Suite tables say what fio did to make writes durable and what the dataset's `sync` property was,
 * as two columns (issue 27): a `sync-write-4k-qd1 × sync=standard` cell is asynchronous writes with
 * one fsync at the end, and a directory has no sync property however the cell is labelled.
 */
import { describe, expect, it } from 'vitest';
import { rowOf, suiteCsv } from '../../server/src/bench/compare.ts';
import { cellLabel } from '../../server/src/bench/suites.ts';
import { suiteText } from '../../server/src/cli/commands/bench-format.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import type { SuiteResult, SuiteRunResult } from '../../server/src/bench/suite-types.ts';

type Cell = Pick<SuiteRunResult, 'profile' | 'sync' | 'targetKind' | 'iodepth'>;

function run(c: Cell, syncMode: BenchmarkSummary['syncMode']): SuiteRunResult {
  const cell = { ...c, io: 'buffered' as const, bs: 4096 };
  const result: BenchmarkSummary = {
    id: 'r1', profile: c.profile, pool: c.targetKind === 'path' ? null : 'tank', target: 'x', startedAt: '2026-11-26T00:00:00Z', status: 'completed',
    syncMode, iodepth: c.iodepth, blockSize: 4096, readIops: 0, writeIops: 100, readBytesPerSec: 0, writeBytesPerSec: 409600,
    writeLatency: null, readLatency: null, wallSeconds: 5, fioRuntimeSeconds: 5, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
    targetKind: c.targetKind, sync: c.sync, io: 'buffered',
  };
  return { ...cell, label: cellLabel(cell), target: 'x', runId: 'r1', result, message: null };
}

describe('suite columns: fio sync and dataset sync are two things', () => {
  it('names what fio did and what the property was, for every mechanism', () => {
    const cases: [Cell, BenchmarkSummary['syncMode'], string, string][] = [
      // The runner turns a sync profile's sync=standard cell into async writes (end_fsync only).
      [{ profile: 'sync-write-4k-qd1', sync: 'standard', targetKind: 'dataset', iodepth: 1 }, 'async', 'end_fsync only', 'sync=standard'],
      [{ profile: 'sync-write-4k-qd1', sync: 'always', targetKind: 'dataset', iodepth: 1 }, 'property', 'plain writes', 'sync=always'],
      [{ profile: 'sync-write-4k-qd1', sync: 'always', targetKind: 'zvol', iodepth: 1 }, 'property', 'plain writes', 'sync=always'],
      [{ profile: 'sync-write-4k-qd1', sync: 'disabled', targetKind: 'dataset', iodepth: 1 }, 'async', 'end_fsync only', 'sync=disabled'],
      [{ profile: 'sync-write-4k-qd1', sync: 'always', targetKind: 'path', iodepth: 1 }, 'fio-fsync', 'fsync per write', 'none (a directory)'],
      [{ profile: 'sync-write-4k-qd16', sync: 'always', targetKind: 'path', iodepth: 16 }, 'fio-sync', 'O_SYNC', 'none (a directory)'],
      [{ profile: 'sync-write-4k-qd1', sync: 'standard', targetKind: 'path', iodepth: 1 }, 'async', 'end_fsync only', 'none (a directory)'],
      // zfs-fuse: a dataset whose sync property cannot be set falls back to fio's own mechanism.
      [{ profile: 'sync-write-4k-qd1', sync: 'always', targetKind: 'dataset', iodepth: 1 }, 'fio-fsync', 'fsync per write', 'not settable'],
      [{ profile: 'rand-read-4k', sync: 'standard', targetKind: 'dataset', iodepth: 16 }, 'async', 'none (reads)', 'sync=standard'],
    ];
    for (const [cell, mode, fio, ds] of cases) {
      expect([rowOf(run(cell, mode)).fioSync, rowOf(run(cell, mode)).datasetSync], `${cellLabel({ ...cell, io: 'buffered', bs: 4096 })} (${mode})`).toEqual([fio, ds]);
    }
  });

  it('the text table and the CSV carry both columns; a run that never ran has neither', () => {
    const runs = [run({ profile: 'sync-write-4k-qd1', sync: 'standard', targetKind: 'dataset', iodepth: 1 }, 'async'),
      { ...run({ profile: 'sync-write-4k-qd1', sync: 'always', targetKind: 'path', iodepth: 1 }, 'fio-fsync'), result: null, runId: null, message: 'refused' }];
    const suite: SuiteResult = { id: 's1', suite: 'slog', title: 'SLOG', on: 'tank', status: 'completed', stopReason: null, startedAt: '2026-11-26T00:00:00Z',
      endedAt: '2026-11-26T00:01:00Z', wallSeconds: 60, runs, skipped: [], notes: [], demo: false, citation: null };
    const text = suiteText(suite);
    expect(text).toMatch(/fio sync\s+dataset sync/);
    expect(text).toMatch(/end_fsync only\s+sync=standard/);
    const csv = suiteCsv(suite).trim().split('\n');
    expect(csv[0]).toContain('sync,fioSync,datasetSync,status');
    expect(csv[1]).toContain(',standard,end_fsync only,sync=standard,completed,');
    expect(rowOf(runs[1]!)).toMatchObject({ fioSync: null, datasetSync: null });
  });
});
