/**
 * The demo host's example suites: reference 000's PUBLISHED fio results (TrueNAS, OpenZFS 2.1.6,
 * fio 3.33, 2 × 4 TB WD Red mirror; randwrite 4k posixaio, sync=always on the dataset), before and
 * after an Intel Optane P1600X SLOG was added. Every number below is copied from the fio output
 * printed in the document (line numbers in `quote`); nothing is derived except MiB/s from fio's
 * own BW figure. Shown only on the demo host and always labelled as demo data.
 */
import type { BenchmarkSummary } from '../model/workload.ts';
import type { Citation } from '../model/finding.ts';
import { doc } from '../../../rules/lib/citations.ts';
import { cellLabel } from './suites.ts';
import type { SuiteResult, SuiteRunResult } from './suite-types.ts';

const DOC = '000_a5b8e6cc27024805.txt';
const KiB = 1024;
const MiB = 1024 * 1024;

interface Published {
  id: string;
  sync: 'always' | 'disabled';
  iodepth: number;
  iops: number;
  bwBytes: number;
  clatMeanUs: number;
  clatP50Us: number;
  clatP99Us: number;
  runtimeS: number;
  quote: string;
}

const BEFORE: Published[] = [
  {
    id: 'ref000-hdd-qd16-sync', sync: 'always', iodepth: 16, iops: 894, bwBytes: 3578 * KiB, clatMeanUs: 17_850, clatP50Us: 12_000, clatP99Us: 73_000, runtimeS: 30.035,
    quote: 'line 297: "write: IOPS=894, BW=3578KiB/s (3664kB/s)(105MiB/30035msec)"; line 299: "clat (msec): min=11, max=139, avg=17.85"; lines 303 and 305: 50.00th=[12], 99.00th=[73] (msec)',
  },
  {
    id: 'ref000-hdd-qd16-nosync', sync: 'disabled', iodepth: 16, iops: 48_300, bwBytes: 189 * MiB, clatMeanUs: 319.71, clatP50Us: 400, clatP99Us: 1004, runtimeS: 30.001,
    quote: 'line 330: "write: IOPS=48.3k, BW=189MiB/s (198MB/s)(5658MiB/30001msec)"; line 332: "clat (usec): min=10, max=1486, avg=319.71"; lines 336 and 338: 50.00th=[400], 99.00th=[1004] (usec)',
  },
];

const AFTER: Published[] = [
  {
    id: 'ref000-p1600x-qd16-sync', sync: 'always', iodepth: 16, iops: 39_200, bwBytes: 153 * MiB, clatMeanUs: 387.96, clatP50Us: 322, clatP99Us: 1385, runtimeS: 30.001,
    quote: 'line 540: "write: IOPS=39.2k, BW=153MiB/s (160MB/s)(4591MiB/30001msec)"; line 542: "clat (usec): min=26, max=72627, avg=387.96"; lines 546 and 548: 50.00th=[322], 99.00th=[1385] (usec)',
  },
  {
    id: 'ref000-p1600x-qd1-sync', sync: 'always', iodepth: 1, iops: 13_700, bwBytes: 53.5 * MiB, clatMeanUs: 70.64, clatP50Us: 63, clatP99Us: 123, runtimeS: 5.001,
    quote: 'P1600X queue depth = 1: "write: IOPS=13.7k, BW=53.5MiB/s (56.1MB/s)(268MiB/5001msec)"; "clat (usec): min=45, max=34906, avg=70.64"; 50.00th=[63], 99.00th=[123] (usec)',
  },
];

export const DEMO_CITATION: Citation = doc('000',
  `fio randwrite 4k posixaio on bench-pool (2 × WD Red mirror), sync=always and sync=disabled; then with the P1600X as log vdev (project copy: ${DOC})`);

function summaryOf(p: Published, startedAt: string, fingerprint: string): BenchmarkSummary {
  const lat = { meanNs: p.clatMeanUs * 1000, p50Ns: p.clatP50Us * 1000, p99Ns: p.clatP99Us * 1000, p999Ns: null };
  return {
    id: p.id, profile: p.iodepth === 1 ? 'sync-write-4k-qd1' : 'sync-write-4k-qd16', pool: 'bench-pool', target: 'bench-pool (published, reference 000)',
    startedAt, status: 'completed', syncMode: p.sync === 'always' ? 'property' : 'async', iodepth: p.iodepth, blockSize: 4096,
    readIops: 0, writeIops: p.iops, readBytesPerSec: 0, writeBytesPerSec: p.bwBytes,
    writeLatency: lat, readLatency: null, wallSeconds: null, fioRuntimeSeconds: p.runtimeS, wallTimeMismatch: false,
    topologyFingerprint: fingerprint,
    notes: [`demo data: published in ${DOC}, ${p.quote}; wall time, load and iowait were not published`],
    targetKind: 'dataset', zfsTarget: true, sync: p.sync, io: 'buffered', suiteId: null,
    syncOpLatency: p.sync === 'always' ? { source: 'clat', operation: 'write', ...lat } : null,
    system: null,
    syncText: p.sync === 'always'
      ? 'sync=always on the dataset: every write waited for the ZIL (the SLOG, or the pool without one); the headline latency is the write\'s completion latency (fio clat).'
      : 'sync=disabled on the dataset: even requested flushes return at once, so these numbers are a ceiling — and a crash loses the last seconds of writes.',
  };
}

function suite(id: string, title: string, on: string, startedAt: string, runs: Published[], fingerprint: string): SuiteResult {
  const out: SuiteRunResult[] = runs.map((p) => {
    const cell = { profile: p.iodepth === 1 ? 'sync-write-4k-qd1' as const : 'sync-write-4k-qd16' as const, sync: p.sync, io: 'buffered' as const, iodepth: p.iodepth, bs: 4096, targetKind: 'dataset' as const };
    return { ...cell, label: cellLabel(cell), target: 'bench-pool', runId: p.id, result: summaryOf(p, startedAt, fingerprint), message: null };
  });
  return {
    id, suite: 'slog', title, on, status: 'completed', stopReason: null, startedAt, endedAt: startedAt, wallSeconds: 0,
    runs: out, skipped: [], demo: true, citation: DEMO_CITATION,
    notes: [`Demo data: reference 000's published results (${DOC}), not a measurement of this machine.`],
  };
}

/** Before: the bare HDD mirror (sync vs async at QD16). After: the same pool with an Optane P1600X SLOG. */
export function demoSuites(): { before: SuiteResult; after: SuiteResult } {
  return {
    before: suite('demo-ref000-before', 'Reference 000: 2 × WD Red mirror, no SLOG (demo data)', 'pool bench-pool (published)', '2023-01-30T11:13:18.000Z', BEFORE, 'ref000-mirror'),
    after: suite('demo-ref000-after', 'Reference 000: the same mirror + Intel Optane P1600X SLOG (demo data)', 'pool bench-pool (published)', '2023-01-30T12:03:22.000Z', AFTER, 'ref000-mirror-slog'),
  };
}
