/**
 * The CLI bundle (scripts/build-server.mjs → dist/cli.mjs, what server/bin/zfs-advisor.js runs when
 * fresh) behaves like the sources run through tsx, loads its lazily imported chunks (planner,
 * reports with the external pdfkit, the size walk), and leaves no child process behind.
 * Built into a temporary directory inside the checkout (the externals resolve from node_modules).
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildServer } from '../../scripts/build-server.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'server', 'bin', 'zfs-advisor.js');

interface Ran { code: number | null; out: string; err: string; leftover: string[] }

/** Runs node with `args` in its own session; after it exits, lists processes still in that session. */
function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
    p.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
    p.on('error', reject);
    p.on('close', (code) => {
      const leftover = execFileSync('ps', ['-eo', 'pid=,sid=,comm=']).toString().split('\n')
        .map((l) => l.trim().split(/\s+/)).filter((f) => f[1] === String(p.pid)).map((f) => f.join(' '));
      resolve({ code, out, err, leftover });
    });
  });
}

describe('CLI bundle', () => {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const outdir = mkdtempSync(join(ROOT, 'dist', '.cli-bundle-test-'));
  const work = mkdtempSync(join(tmpdir(), 'zfsa-cli-bundle-'));
  let cli = '';

  beforeAll(async () => {
    cli = ((await buildServer({ outdir })) as { cli: string }).cli;
    mkdirSync(join(work, 'tree', 'sub'), { recursive: true });
    writeFileSync(join(work, 'tree', 'a'), 'x'.repeat(5000));
    writeFileSync(join(work, 'tree', 'sub', 'b'), 'y'.repeat(70_000));
  }, 120_000);

  afterAll(() => {
    rmSync(outdir, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  it('gives the same output as the sources through tsx, and leaves no process behind', async () => {
    const cases = [
      ['--version'],
      ['--help'],
      ['plan', 'layouts', '--help'],
      ['plan', 'layouts', '--disks', '6', '--size', '8T', '--json'],
      ['plan', 'layouts', '--size', 'banana'],
      ['inventory', '--demo', '--json'],
      ['sizes', join(work, 'tree'), '--json'],
      ['completion', 'bash'],
    ];
    for (const args of cases) {
      const bundled = await run([cli, ...args]);
      const tsx = await run([BIN, ...args], { ZFS_ADVISOR_TSX: '1' });
      const norm = (s: string) => s.replace(/"(capturedAt|elapsedMs)": [^,\n]+/g, '"$1": X');
      expect(bundled.code, args.join(' ')).toBe(tsx.code);
      expect(norm(bundled.out), args.join(' ')).toBe(norm(tsx.out));
      expect(bundled.err, args.join(' ')).toBe(tsx.err);
      expect(bundled.leftover, args.join(' ')).toEqual([]);
    }
  }, 240_000);

  it('loads the report chunk with the external pdfkit', async () => {
    const file = join(work, 'r.pdf');
    const r = await run([cli, 'report', '--demo', '--format', 'pdf', '-o', file]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(r.leftover).toEqual([]);
  }, 60_000);
});
