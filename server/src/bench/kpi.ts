/**
 * The numbers a run is judged by beyond fio's IOPS and bandwidth:
 *   - the latency of the sync operation: fio's `sync` section when the job called fsync/fdatasync
 *     after each write (then the write() itself returns from RAM and its clat says nothing about
 *     durability), the write's completion latency (`clat`) when the write itself was synchronous
 *     (O_SYNC, or sync=always on the dataset);
 *   - load1 and CPU iowait while fio ran (the 002 study judged runs by system load too);
 *   - the ARC's hit share during reads (hits/misses deltas of arcstats).
 * The readers here are pure (text in, numbers out); the sampler reads /proc once a second.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { SyncOpLatency, BenchSystemKpi } from '../model/workload.ts';
import type { FioJobResult } from './fio-result.ts';
import type { SyncMode } from './fio-args.ts';

/** The sync operation's latency, or null when the job made no write durable per operation. */
export function syncOpLatency(job: FioJobResult | null, mode: SyncMode): SyncOpLatency | null {
  if (!job) return null;
  const opts = job.syncOptions;
  const perWriteFsync = mode === 'fio-fsync' || (opts !== undefined && ((opts.fsync ?? 0) > 0 || (opts.fdatasync ?? 0) > 0));
  if (perWriteFsync) {
    if (!job.sync) return null;
    const operation = (opts?.fdatasync ?? 0) > 0 && (opts?.fsync ?? 0) === 0 ? 'fdatasync' : 'fsync';
    return { source: 'sync', operation, meanNs: job.sync.meanNs, p50Ns: job.sync.p50Ns, p99Ns: job.sync.p99Ns, p999Ns: job.sync.p999Ns };
  }
  const synchronousWrite = mode === 'fio-sync' || mode === 'property' || opts?.syncIo === true;
  if (!synchronousWrite) return null;
  const c = job.write.clat ?? job.write.latency;
  if (!c || job.write.totalIos === 0) return null;
  return { source: 'clat', operation: 'write', meanNs: c.meanNs, p50Ns: c.p50Ns, p99Ns: c.p99Ns, p999Ns: c.p999Ns };
}

/**
 * CPU µs fio's threads spent per I/O. fio's usr_cpu/sys_cpu of a grouped job are the threads'
 * summed CPU time over their summed runtime, i.e. per thread, so the whole run's CPU time is
 * that share × threads × wall time, and per I/O share × threads ÷ IOPS.
 */
export function cpuUsPerIo(job: Pick<FioJobResult, 'usrCpuPct' | 'sysCpuPct'> | null, threads: number, iops: number): number | null {
  if (!job || job.usrCpuPct === null || job.sysCpuPct === null || !(iops > 0) || !(threads >= 1)) return null;
  return Math.round((((job.usrCpuPct + job.sysCpuPct) / 100) * threads * 1e7) / iops) / 10;
}

/** CPU time counters of the `cpu` line of /proc/stat (jiffies). */
export interface CpuTimes { total: number; iowait: number; idle: number }

export function parseProcStatCpu(text: string): CpuTimes | null {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  if (f.length < 5 || f.some((n) => !Number.isFinite(n))) return null;
  // user nice system idle iowait irq softirq steal (guest time is already inside user)
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { total, iowait: f[4]!, idle: f[3]! };
}

export function iowaitPct(a: CpuTimes, b: CpuTimes): number | null {
  const dt = b.total - a.total;
  return dt > 0 ? (100 * (b.iowait - a.iowait)) / dt : null;
}

/** Share of all CPUs' time spent running something (neither idle nor waiting for I/O), %. */
export function busyPct(a: CpuTimes, b: CpuTimes): number | null {
  const dt = b.total - a.total;
  return dt > 0 ? (100 * (dt - (b.idle - a.idle) - (b.iowait - a.iowait))) / dt : null;
}

/** hits and misses from Linux SPL arcstats (`name type data` lines). */
export function parseArcHitsMisses(text: string): { hits: number; misses: number } | null {
  let hits: number | null = null;
  let misses: number | null = null;
  for (const l of text.split('\n')) {
    const f = l.trim().split(/\s+/);
    if (f[0] === 'hits') hits = Number(f[2]);
    if (f[0] === 'misses') misses = Number(f[2]);
  }
  return hits !== null && misses !== null && Number.isFinite(hits) && Number.isFinite(misses) ? { hits, misses } : null;
}

export function arcHitPct(a: { hits: number; misses: number } | null, b: { hits: number; misses: number } | null): number | null {
  if (!a || !b) return null;
  const h = b.hits - a.hits;
  const m = b.misses - a.misses;
  return h + m > 0 ? (100 * h) / (h + m) : null;
}

export interface SystemSample { tS: number; load1: number; iowaitPct: number | null; busyPct?: number | null }

/** Sources of the sampler, injectable in tests (a rising load, no /proc). */
export interface SystemSources {
  readLoad: () => number;
  readProcStat?: () => string | null;
  readArcstats?: () => string | null;
  cpus?: () => number;
}

const readOr = (path: string) => () => { try { return readFileSync(path, 'utf8'); } catch { return null; } };
export const PROC_STAT = readOr('/proc/stat');
export const ARCSTATS = readOr('/proc/spl/kstat/zfs/arcstats');

/**
 * Samples load1 and iowait every second until stopped; `onSample` may stop the run (load guard).
 * `stop()` returns the series and the aggregates; the ARC hit share is measured over the same window.
 */
export function startSystemSampler(src: SystemSources, t0: number, onSample: (s: SystemSample) => void, everyMs = 1000) {
  const stat = src.readProcStat ?? PROC_STAT;
  const arc = src.readArcstats ?? ARCSTATS;
  const samples: SystemSample[] = [];
  let prev = parse(stat());
  const arc0 = parseArc(arc());
  const timer = setInterval(() => {
    const cur = parse(stat());
    const s: SystemSample = { tS: (Date.now() - t0) / 1000, load1: src.readLoad(), iowaitPct: prev && cur ? round1(iowaitPct(prev, cur)) : null, busyPct: prev && cur ? round1(busyPct(prev, cur)) : null };
    prev = cur;
    samples.push(s);
    onSample(s);
  }, everyMs);
  return {
    samples,
    stop(measuresReads: boolean): { samples: SystemSample[]; kpi: BenchSystemKpi } {
      clearInterval(timer);
      const loads = samples.map((s) => s.load1);
      const io = samples.map((s) => s.iowaitPct).filter((x): x is number => x !== null);
      const busy = samples.map((s) => s.busyPct ?? null).filter((x): x is number => x !== null);
      const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
      return {
        samples,
        kpi: {
          load1Max: loads.length ? Math.max(...loads) : null,
          load1Mean: round2(mean(loads)),
          iowaitPctMean: round1(mean(io)),
          cpuBusyPctMean: round1(mean(busy)),
          cpus: (src.cpus ?? availableParallelism)(),
          arcHitPct: measuresReads ? round1(arcHitPct(arc0, parseArc(arc()))) : null,
        },
      };
    },
  };
}

function parse(t: string | null): CpuTimes | null { return t ? parseProcStatCpu(t) : null; }
function parseArc(t: string | null) { return t ? parseArcHitsMisses(t) : null; }
const round1 = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
const round2 = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);
