/**
 * Pool latency during a run from `zpool iostat -H -p -l -y POOL 1` (OpenZFS ≥ 0.7).
 * Columns with -l: name, alloc, free, read ops, write ops, read bw, write bw, total_wait read,
 * total_wait write, disk_wait read, disk_wait write, syncq_wait r/w, asyncq_wait r/w, scrub, trim
 * [, rebuild]; with -p the waits are nanoseconds. zfs-fuse has no -l: the sampler then reports
 * "not available" instead of a number it does not have.
 */
import type { CommandResult } from '../exec/runner.ts';
import { realExec, type BenchExec } from './exec.ts';
import type { PoolLatencySample } from './types.ts';

function ns(v: string | undefined): number | null {
  if (v === undefined || v === '-' || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

export function parseIostatLatencyLine(line: string, pool: string, tS: number): PoolLatencySample | null {
  const f = line.split('\t');
  if (f.length < 11 || f[0] !== pool) return null;
  return { tS, readWaitNs: ns(f[7]), writeWaitNs: ns(f[8]), diskReadWaitNs: ns(f[9]), diskWriteWaitNs: ns(f[10]) };
}

export interface LatencySampler {
  samples: PoolLatencySample[];
  /** Resolves when the sampler ends; `available` false when the platform has no `-l`. */
  done: Promise<{ available: boolean; note: string | null }>;
}

export function startLatencySampler(pool: string, t0: number, signal: AbortSignal, timeoutMs: number, onSample: (s: PoolLatencySample) => void, exec: BenchExec = realExec): LatencySampler {
  const samples: PoolLatencySample[] = [];
  if (signal.aborted) return { samples, done: Promise.resolve({ available: false, note: 'pool latency not sampled: the run stopped first' }) };
  const run: Promise<CommandResult> = exec.stream('zpool', ['iostat', '-H', '-p', '-l', '-y', pool, '1'], {
    signal,
    timeoutMs,
    onStdoutLine: (line) => {
      const s = parseIostatLatencyLine(line, pool, (Date.now() - t0) / 1000);
      if (s) { samples.push(s); onSample(s); }
    },
  });
  const done = run.then((r) => {
    if (samples.length > 0) return { available: true, note: null };
    if (r.error?.code === 'aborted' || r.error?.code === 'timeout') {
      return { available: false, note: 'zpool iostat -l gave no sample before the run ended' };
    }
    const why = (r.stderr.trim().split('\n')[0] ?? '') || r.error?.message || `exit ${String(r.exitCode)}`;
    return { available: false, note: `pool latency not available on this platform (zpool iostat -l: ${why})` };
  });
  return { samples, done };
}
