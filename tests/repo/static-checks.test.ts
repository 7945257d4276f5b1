/**
 * The repository's static checks as tests, so `npm test` fails on a type error, a lint error or
 * a stale rule catalog just as it fails on a broken assertion.
 * (Test code may start processes directly; product code goes through server/src/exec/runner.ts.)
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

async function node(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: root, maxBuffer: 32 * 1024 * 1024 });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('static checks', () => {
  it('typechecks TypeScript and Vue single-file components (vue-tsc --noEmit, strict)', async () => {
    const r = await node(['node_modules/vue-tsc/bin/vue-tsc.js', '-p', 'tsconfig.json', '--noEmit']);
    expect(r.out.trim(), r.out).toBe('');
    expect(r.code).toBe(0);
  }, 300_000);

  it('lints (eslint, no `any`)', async () => {
    const r = await node(['node_modules/eslint/bin/eslint.js', '.', '--max-warnings', '0']);
    expect(r.code, r.out).toBe(0);
  }, 300_000);
});
