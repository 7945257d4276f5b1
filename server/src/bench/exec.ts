/**
 * The commands a benchmark runs, behind one small seam: the real runner (server/src/exec/runner.ts)
 * in production, a recording fake in tests of paths this machine cannot run for real (zvols need
 * OpenZFS; zfs-fuse has none). The fake still hands fio to the real runner, so the fio command
 * lines under test are the ones a real run executes.
 */
import { runCommand, runStreaming } from '../exec/runner.ts';

export interface BenchExec {
  run: typeof runCommand;
  stream: typeof runStreaming;
  /** Where OpenZFS puts zvol device links (/dev/zvol/POOL/NAME on Linux and FreeBSD). */
  zvolDevDir: string;
}

export const realExec: BenchExec = { run: runCommand, stream: runStreaming, zvolDevDir: '/dev/zvol' };
