/**
 * fio `--output-format=json` / `json+` results, also when wrapped in other text:
 *  - leading lines fio prints to stdout before the JSON ("job: (g=0): rw=…", "Laying out IO file"),
 *  - `--status-interval` streams: several complete JSON documents one after another (the last one
 *    is the final result, the others are interim reports),
 *  - `--output-format=json,normal`: the human report after the JSON.
 * fio ≥ 3 reports latencies in ns (`clat_ns`, `lat_ns`); fio 2.x in µs (`clat`, `lat`): both are
 * normalised to ns. Percentiles p50/p99/p99.9 come from fio's own percentile table.
 */
import { failed, parsed, type ParseIssue, type ParseOutcome } from './common.ts';
import { arr, at, isObject, num, str, type JsonObject } from './json-fields.ts';

export interface FioDirection {
  iops: number;
  bwBytes: number;
  ioBytes: number;
  totalIos: number;
  runtimeMs: number;
  clatMeanNs: number | null;
  clatP50Ns: number | null;
  clatP99Ns: number | null;
  clatP999Ns: number | null;
  /** Total latency (submission + completion). */
  latMeanNs: number | null;
}

export interface FioJob {
  name: string;
  rw: string | null;
  blockSize: string | null;
  ioengine: string | null;
  iodepth: number | null;
  /** fsync=N / fdatasync=N / sync=1 as given in the job options. */
  fsync: number | null;
  fdatasync: number | null;
  syncIo: boolean;
  read: FioDirection;
  write: FioDirection;
  /** fsync/fdatasync latency (fio ≥ 3.x prints `sync.lat_ns` when the job issues them). */
  sync: { latMeanNs: number | null; latP50Ns: number | null; latP99Ns: number | null; totalIos: number } | null;
  /** Job runtime in ms (job_runtime, else the longer of read/write runtime). */
  runtimeMs: number | null;
  error: number;
}

export interface FioResult {
  fioVersion: string | null;
  /** Unix seconds of the final report. */
  timestamp: number | null;
  jobs: FioJob[];
  /** Status-interval reports before the final one, oldest first (their jobs only). */
  interim: FioJob[][];
}

/**
 * Finds top-level JSON objects in mixed text: every `{` that starts a line and whose braces
 * balance (strings and escapes respected) before the text ends.
 */
export function extractJsonObjects(text: string): { start: number; json: string }[] {
  const out: { start: number; json: string }[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open < 0) break;
    const lineStart = open === 0 || text[open - 1] === '\n' || /^\s*$/.test(text.slice(text.lastIndexOf('\n', open - 1) + 1, open));
    if (!lineStart) { i = open + 1; continue; }
    let depth = 0;
    let inStr = false;
    let end = -1;
    for (let k = open; k < text.length; k++) {
      const c = text[k];
      if (inStr) {
        if (c === '\\') k++;
        else if (c === '"') inStr = false;
        continue;
      }
      if (c === '"') inStr = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) { end = k; break; }
    }
    if (end < 0) break; // unbalanced to the end: truncated document
    out.push({ start: open, json: text.slice(open, end + 1) });
    i = end + 1;
  }
  return out;
}

const pct = (table: unknown, key: string): number | null => num(at(table, key));

function latencyBlock(dir: unknown, ns: string, us: string): { mean: number | null; table: unknown; scale: number } {
  const n = at(dir, ns);
  if (isObject(n)) return { mean: num(n.mean), table: n.percentile, scale: 1 };
  const u = at(dir, us);
  if (isObject(u)) return { mean: num(u.mean) === null ? null : num(u.mean)! * 1000, table: u.percentile, scale: 1000 };
  return { mean: null, table: undefined, scale: 1 };
}

function direction(dir: unknown): FioDirection {
  const clat = latencyBlock(dir, 'clat_ns', 'clat');
  const lat = latencyBlock(dir, 'lat_ns', 'lat');
  const p = (k: string) => {
    const v = pct(clat.table, k);
    return v === null ? null : v * clat.scale;
  };
  // fio 2.x has no bw_bytes/io_kbytes: its `bw` and `io_bytes` are both in KiB.
  const legacy = num(at(dir, 'bw_bytes')) === null;
  const bwBytes = legacy ? (num(at(dir, 'bw')) ?? 0) * 1024 : num(at(dir, 'bw_bytes'))!;
  const ioBytes = (num(at(dir, 'io_bytes')) ?? 0) * (legacy ? 1024 : 1);
  return {
    iops: num(at(dir, 'iops')) ?? 0,
    bwBytes,
    ioBytes,
    totalIos: num(at(dir, 'total_ios')) ?? 0,
    runtimeMs: num(at(dir, 'runtime')) ?? 0,
    clatMeanNs: clat.mean,
    clatP50Ns: p('50.000000'),
    clatP99Ns: p('99.000000'),
    clatP999Ns: p('99.900000'),
    latMeanNs: lat.mean,
  };
}

function job(j: unknown, globalOpts: unknown): FioJob {
  const opt = (k: string) => str(at(j, 'job options', k)) ?? str(at(globalOpts, k));
  const syncBlock = at(j, 'sync');
  const syncLat = at(syncBlock, 'lat_ns');
  const read = direction(at(j, 'read'));
  const write = direction(at(j, 'write'));
  const syncIos = num(at(syncBlock, 'total_ios')) ?? 0;
  const depth = opt('iodepth');
  return {
    name: str(at(j, 'jobname')) ?? '(unnamed)',
    rw: opt('rw') ?? opt('readwrite'),
    blockSize: opt('bs') ?? opt('blocksize'),
    ioengine: opt('ioengine'),
    iodepth: depth === null ? null : num(depth),
    fsync: num(opt('fsync')),
    fdatasync: num(opt('fdatasync')),
    syncIo: ['1', 'sync', 'dsync'].includes(opt('sync') ?? ''),
    read,
    write,
    sync: isObject(syncBlock) && syncIos > 0
      ? { latMeanNs: num(at(syncLat, 'mean')), latP50Ns: pct(at(syncLat, 'percentile'), '50.000000'), latP99Ns: pct(at(syncLat, 'percentile'), '99.000000'), totalIos: syncIos }
      : null,
    runtimeMs: jobRuntimeMs(j, globalOpts),
    error: num(at(j, 'error')) ?? 0,
  };
}

const isFioDoc = (d: unknown): d is JsonObject => isObject(d) && Array.isArray(d.jobs);

/**
 * A job's runtime in ms. Several threads reported as one entry (numjobs > 1 with group_reporting,
 * set for the job or in the job file's [global] section) have a job_runtime that is their sum; the
 * directions' runtime is the entry's wall clock, and the fallback where job_runtime is missing.
 */
export function jobRuntimeMs(job: unknown, globalOpts?: unknown): number | null {
  const opt = (k: string) => str(at(job, 'job options', k)) ?? str(at(globalOpts, k));
  const g = opt('group_reporting');
  const grouped = Number(opt('numjobs') ?? 1) > 1 && g !== null && g !== '0';
  const wall = Math.max(num(at(job, 'read', 'runtime')) ?? 0, num(at(job, 'write', 'runtime')) ?? 0) || null;
  return (grouped ? null : num(at(job, 'job_runtime'))) ?? wall;
}

export function parseFio(text: string): ParseOutcome<FioResult> {
  const docs: JsonObject[] = [];
  const issues: ParseIssue[] = [];
  for (const { start, json } of extractJsonObjects(text)) {
    try {
      const d = JSON.parse(json) as unknown;
      if (isFioDoc(d)) docs.push(d);
    } catch (err) {
      issues.push({ line: text.slice(0, start).split('\n').length, message: `unreadable JSON document: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` });
    }
  }
  if (docs.length === 0) {
    const firstBrace = text.indexOf('{');
    return failed(
      firstBrace < 0 ? 'no fio JSON document in input' : 'fio JSON document is truncated or invalid',
      firstBrace < 0 ? null : text.slice(0, firstBrace).split('\n').length,
      issues,
    );
  }
  const toJobs = (d: JsonObject) => arr(d.jobs).map((j) => job(j, d['global options']));
  const last = docs[docs.length - 1]!;
  return parsed({
    fioVersion: str(last['fio version']),
    timestamp: num(last.timestamp),
    jobs: toJobs(last),
    interim: docs.slice(0, -1).map(toJobs),
  }, issues);
}

/** What `zfs-advisor parse fio FILE` prints (the documented contract). */
export function toFioContract(r: FioResult): { jobs: { name: string; read: { iops: number; bwBytes: number; clatMeanNs: number | null; clatP99Ns: number | null }; write: { iops: number; bwBytes: number; clatMeanNs: number | null; clatP99Ns: number | null }; sync: { latMeanNs: number | null } | null }[] } {
  const d = (x: FioDirection) => ({ iops: x.iops, bwBytes: x.bwBytes, clatMeanNs: x.clatMeanNs, clatP99Ns: x.clatP99Ns });
  return { jobs: r.jobs.map((j) => ({ name: j.name, read: d(j.read), write: d(j.write), sync: j.sync ? { latMeanNs: j.sync.latMeanNs } : null })) };
}
