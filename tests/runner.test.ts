import { describe, expect, it } from 'vitest';
import { describeFailure, runCommand, runStreaming, validateArgument, validateProgram } from '../server/src/exec/runner.ts';

describe('command runner', () => {
  it('refuses programs that are not on the list, relative paths and control characters', async () => {
    expect(validateProgram('rm')).toMatch(/not on the allowed list/);
    expect(validateProgram('./zpool')).toMatch(/absolute/);
    expect(validateProgram('/usr/sbin/zpool')).toBeNull();
    expect(validateArgument('tank/data\n-f')).toMatch(/control character/);
    const r = await runCommand('sh', ['-c', 'echo hi']);
    expect(r.error?.code).toBe('invalid-argument');
    expect(r.stdout).toBe('');
  });

  it('records a missing program as not-found instead of throwing', async () => {
    const r = await runCommand('/nonexistent/zpool', ['list']);
    expect(r.error?.code).toBe('not-found');
    expect(describeFailure(r)).toMatch(/not installed/);
  });

  it('keeps stdout, stderr and the exit code apart and never uses a shell', async () => {
    const r = await runCommand('ls', ['/definitely-missing-dir', '$(id)']);
    expect(r.error).toBeNull();
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('$(id)'); // passed literally: no shell expanded it
  });

  it('times out a hung command', async () => {
    const r = await runStreaming('find', ['/', '-name', 'x'], { timeoutMs: 50 });
    expect(r.error?.code).toBe('timeout');
  });

  it('streams lines as they arrive', async () => {
    const lines: string[] = [];
    const r = await runStreaming('ls', ['-1', '/'], { onStdoutLine: (l) => lines.push(l) });
    expect(r.exitCode).toBe(0);
    expect(lines).toContain('usr');
  });
});
