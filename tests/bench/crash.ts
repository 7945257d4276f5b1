/**
 * Crash-safety driver shared by the directory and zfs-fuse tests: start `zfs-advisor bench` as a
 * child process, kill -9 it when it reports a given phase, then start the CLI again (which
 * recovers) and return what it says about the run.
 */
import { join } from 'node:path';
import { runCommand, runStreaming } from '../../server/src/exec/runner.ts';

const CLI = join(import.meta.dirname, '..', '..', 'server', 'bin', 'zfs-advisor.js');

export interface CrashOutcome {
  killedInPhase: string | null;
  exitSignal: string | null;
  history: { id: string; status: string; message: string | null }[];
}

export async function benchAndKill(benchArgs: string[], dataDir: string, killAtPhase: string): Promise<CrashOutcome> {
  let pid: number | null = null;
  let killedInPhase: string | null = null;
  const r = await runStreaming(process.execPath, [CLI, 'bench', ...benchArgs, '--data-dir', dataDir, '--json', '--max-load', '1000'], {
    timeoutMs: 90_000,
    onSpawn: (p) => { pid = p; },
    onStderrLine: (line) => {
      if (killedInPhase !== null || pid === null) return;
      let phase: string | null = null;
      try { phase = (JSON.parse(line) as { progress?: { phase?: string } }).progress?.phase ?? null; } catch { return; }
      if (phase === killAtPhase) {
        killedInPhase = phase;
        process.kill(pid, 'SIGKILL');
      }
    },
  });
  // Start again: any bench invocation recovers first; --history then shows the result.
  const h = await runCommand(process.execPath, [CLI, 'bench', '--history', '--data-dir', dataDir, '--json'], { timeoutMs: 60_000 });
  if (h.exitCode !== 0) throw new Error(`bench --history failed: ${h.stderr}`);
  const history = (JSON.parse(h.stdout) as { id: string; status: string; message: string | null }[]);
  return { killedInPhase, exitSignal: r.signal, history };
}
