/**
 * How the benchmarks run competitors and the CLI: real processes, and for pipelines the stages
 * connected by real pipes (each stage's stdout file descriptor is the next stage's stdin, exactly
 * as `sh -c 'a | b | c'` does, so the stages overlap). A measuring tool, not app code: it spawns
 * directly (the app's runner refuses shells and unknown programs by design).
 */
import { spawn } from 'node:child_process';

export interface Timed { ms: number; stdout: string; stderr: string }

/** Runs `stages` as one pipeline; wall time from the first spawn to the last stage's exit. */
export function pipeline(stages: string[][], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    let input: import('node:stream').Readable | null = null;
    const procs = stages.map(([program, ...args]) => {
      const p = spawn(program!, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: [input ?? 'ignore', 'pipe', 'pipe'] });
      // The previous stage's stdout is now this stage's stdin (the child holds the fd): close ours.
      input?.destroy();
      input = p.stdout!;
      return p;
    });
    let stdout = '';
    let stderr = '';
    procs.at(-1)!.stdout!.setEncoding('utf8').on('data', (d: string) => { stdout += d; });
    for (const p of procs) p.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    let left = procs.length;
    let failed: string | null = null;
    for (const [i, p] of procs.entries()) {
      p.on('error', (e) => { failed ??= `${stages[i]![0]}: ${e.message}`; });
      // A middle stage's stdout was handed on, so wait for its exit; the last one's output must be read to the end.
      p.on(i === procs.length - 1 ? 'close' : 'exit', (code: number | null, signal: NodeJS.Signals | null) => {
        if (code !== 0) failed ??= `${stages[i]!.join(' ')}: exit ${code ?? signal}: ${stderr.split('\n')[0]}`;
        if (--left === 0) {
          const ms = performance.now() - t;
          if (failed) reject(new Error(failed)); else resolve({ ms, stdout, stderr });
        }
      });
    }
  });
}

/** One process under GNU time: wall time and peak RSS (%M, KiB) of the program. */
export async function timedWithRss(argv: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Timed & { rssMiB: number }> {
  const r = await pipeline([['/usr/bin/time', '-f', 'maxrss=%M', ...argv]], opts);
  const m = /maxrss=(\d+)\s*$/.exec(r.stderr);
  if (!m) throw new Error(`${argv.join(' ')}: no RSS from /usr/bin/time`);
  return { ...r, rssMiB: Number(m[1]) / 1024 };
}
