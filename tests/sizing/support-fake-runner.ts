/**
 * A recorded runner for sizing tests: answers `program args…` from a table of CommandResults and
 * records every call, so tests see exactly which commands the code ran (and nothing else ran).
 */
import type { CommandResult, runCommand } from '../../server/src/exec/runner.ts';

export interface FakeAnswer { stdout?: string; stderr?: string; exitCode?: number | null; error?: CommandResult['error'] }

export function fakeRunner(answer: (program: string, args: string[]) => FakeAnswer | undefined) {
  const calls: { program: string; args: string[]; timeoutMs: number | undefined }[] = [];
  const run: typeof runCommand = async (program, args, opts) => {
    calls.push({ program, args: [...args], timeoutMs: opts?.timeoutMs });
    const a = answer(program, [...args]);
    if (!a) return { program, args: [...args], exitCode: null, signal: null, stdout: '', stderr: '', durationMs: 0, error: { code: 'not-found', message: `${program} is not installed or not on PATH` } };
    return { program, args: [...args], exitCode: a.exitCode === undefined ? 0 : a.exitCode, signal: null, stdout: a.stdout ?? '', stderr: a.stderr ?? '', durationMs: 1500, error: a.error ?? null };
  };
  return { run, calls };
}
