/**
 * The per-job numbers a benchmark keeps from fio's final JSON document: IOPS, bandwidth, latency
 * mean and p50/p99/p99.9 per direction, the fsync latency (jobs[].sync.lat_ns) when the fio
 * fallback for sync writes was used, fio's own runtime and CPU time.
 * Tolerant of fio versions: percentiles come from lat_ns when fio printed them there
 * (lat_percentiles=1), otherwise from clat_ns; missing numbers are null, never guessed.
 */
import { z } from 'zod';
import { at, isObject, num, str, type JsonObject } from '../parsers/json-fields.ts';
import { LatencyPercentiles } from '../model/workload.ts';
import { extractJsonObjects, jobRuntimeMs, parseFio, type FioDirection as ParsedDirection } from '../parsers/fio.ts';

export const DirectionResult = z.object({
  iops: z.number(),
  bytesPerSec: z.number(),
  ioBytes: z.number(),
  totalIos: z.number(),
  latency: LatencyPercentiles.nullable(),
  /** Completion latency alone (clat): what a synchronous write waits for once submitted. */
  clat: LatencyPercentiles.nullable().optional(),
});
export type DirectionResult = z.infer<typeof DirectionResult>;

export const FioJobResult = z.object({
  name: z.string(),
  error: z.number(),
  read: DirectionResult,
  write: DirectionResult,
  /** fsync/fdatasync latency; present only when fio issued syncs (fsync=N). */
  sync: LatencyPercentiles.extend({ totalIos: z.number() }).nullable(),
  runtimeMs: z.number().nullable(),
  /** The job's own sync options (fsync=N, fdatasync=N, sync=1), as fio printed them. */
  syncOptions: z.object({ fsync: z.number().nullable(), fdatasync: z.number().nullable(), syncIo: z.boolean() }).optional(),
  usrCpuPct: z.number().nullable(),
  sysCpuPct: z.number().nullable(),
});
export type FioJobResult = z.infer<typeof FioJobResult>;

export const FioResult = z.object({
  fioVersion: z.string().nullable(),
  jobs: z.array(FioJobResult),
});
export type FioResult = z.infer<typeof FioResult>;

function percentile(p: unknown, key: string): number | null {
  return isObject(p) ? num(p[key]) : null;
}

function latencyOf(dir: unknown): z.infer<typeof LatencyPercentiles> | null {
  const lat = at(dir, 'lat_ns');
  const clat = at(dir, 'clat_ns');
  const n = num(at(lat, 'N')) ?? num(at(clat, 'N')) ?? 0;
  if (n === 0) return null;
  const pct = at(lat, 'percentile') ?? at(clat, 'percentile');
  return {
    meanNs: num(at(lat, 'mean')) ?? num(at(clat, 'mean')),
    p50Ns: percentile(pct, '50.000000'),
    p99Ns: percentile(pct, '99.000000'),
    p999Ns: percentile(pct, '99.900000'),
  };
}

function directionOf(job: unknown, dir: 'read' | 'write'): DirectionResult {
  const d = at(job, dir);
  return {
    iops: num(at(d, 'iops')) ?? 0,
    bytesPerSec: num(at(d, 'bw_bytes')) ?? (num(at(d, 'bw')) ?? 0) * 1024,
    ioBytes: num(at(d, 'io_bytes')) ?? 0,
    totalIos: num(at(d, 'total_ios')) ?? 0,
    latency: latencyOf(d),
  };
}

export function fioResultOf(doc: JsonObject): FioResult | null {
  const jobs = at(doc, 'jobs');
  if (!Array.isArray(jobs) || jobs.length === 0) return null;
  return {
    fioVersion: str(at(doc, 'fio version')),
    jobs: jobs.map((job): FioJobResult => {
      const syncN = num(at(job, 'sync', 'total_ios')) ?? num(at(job, 'sync', 'lat_ns', 'N')) ?? 0;
      const syncPct = at(job, 'sync', 'lat_ns', 'percentile');
      return {
        name: str(at(job, 'jobname')) ?? 'job',
        error: num(at(job, 'error')) ?? 0,
        read: directionOf(job, 'read'),
        write: directionOf(job, 'write'),
        sync: syncN > 0
          ? {
            totalIos: syncN,
            meanNs: num(at(job, 'sync', 'lat_ns', 'mean')),
            p50Ns: percentile(syncPct, '50.000000'),
            p99Ns: percentile(syncPct, '99.000000'),
            p999Ns: percentile(syncPct, '99.900000'),
          }
          : null,
        runtimeMs: jobRuntimeMs(job, at(doc, 'global options')),
        usrCpuPct: num(at(job, 'usr_cpu')),
        sysCpuPct: num(at(job, 'sys_cpu')),
      };
    }),
  };
}

/** Sums jobs (fio without group_reporting prints one entry per job) for the summary. */
export function totals(r: FioResult): { readIops: number; writeIops: number; readBps: number; writeBps: number; runtimeS: number | null } {
  let readIops = 0; let writeIops = 0; let readBps = 0; let writeBps = 0; let runtime: number | null = null;
  for (const j of r.jobs) {
    readIops += j.read.iops; writeIops += j.write.iops;
    readBps += j.read.bytesPerSec; writeBps += j.write.bytesPerSec;
    if (j.runtimeMs !== null) runtime = Math.max(runtime ?? 0, j.runtimeMs);
  }
  return { readIops, writeIops, readBps, writeBps, runtimeS: runtime === null ? null : runtime / 1000 };
}

/**
 * The final result from fio's whole stdout through the project's fio parser (parsers/fio.ts:
 * the last JSON document wins, interim status reports are skipped), plus the two things it does
 * not keep — CPU time and the fsync p99.9 — read from the same last document.
 */
export function fioResultFromText(text: string): FioResult | null {
  const p = parseFio(text);
  if (!p.ok || p.value.jobs.length === 0) return null;
  const objects = extractJsonObjects(text);
  let own: FioResult | null = null;
  for (let i = objects.length - 1; i >= 0 && !own; i--) {
    try {
      const d: unknown = JSON.parse(objects[i]!.json);
      if (isObject(d)) own = fioResultOf(d);
    } catch { /* the parser already reported it */ }
  }
  const dir = (x: ParsedDirection): DirectionResult => ({
    iops: x.iops, bytesPerSec: x.bwBytes, ioBytes: x.ioBytes, totalIos: x.totalIos,
    latency: x.totalIos > 0 ? { meanNs: x.latMeanNs ?? x.clatMeanNs, p50Ns: x.clatP50Ns, p99Ns: x.clatP99Ns, p999Ns: x.clatP999Ns } : null,
    clat: x.totalIos > 0 ? { meanNs: x.clatMeanNs, p50Ns: x.clatP50Ns, p99Ns: x.clatP99Ns, p999Ns: x.clatP999Ns } : null,
  });
  return {
    fioVersion: p.value.fioVersion,
    jobs: p.value.jobs.map((j, i): FioJobResult => {
      const mine = own?.jobs[i] ?? null;
      return {
        name: j.name, error: j.error, read: dir(j.read), write: dir(j.write),
        sync: j.sync ? { totalIos: j.sync.totalIos, meanNs: j.sync.latMeanNs, p50Ns: j.sync.latP50Ns, p99Ns: j.sync.latP99Ns, p999Ns: mine?.sync?.p999Ns ?? null } : null,
        runtimeMs: j.runtimeMs, syncOptions: { fsync: j.fsync, fdatasync: j.fdatasync, syncIo: j.syncIo }, usrCpuPct: mine?.usrCpuPct ?? null, sysCpuPct: mine?.sysCpuPct ?? null,
      };
    }),
  };
}
