/**
 * `zfs-advisor report`: the CLI contract (exit codes, one-line errors, -o FILE) on the demo and
 * fixture snapshots, through main() with captured IO.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { ReportDocument } from '../../server/src/report/document.ts';
import { FIXTURES, REDACTION_SNAPSHOT } from './support.ts';

const dir = mkdtempSync(join(tmpdir(), 'zfsa-report-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIO = { stdout: (s) => { out += s; }, stderr: (s) => { err += s; }, stdin: async () => '', isTTY: false };
  const code = await main(['report', ...args], io);
  return { code, out, err };
}

describe('zfs-advisor report', () => {
  it('prints Markdown for the demo to stdout', async () => {
    const r = await cli('--demo', '--format', 'md', '--generated-at', '2025-01-01T12:00:00Z');
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^# ZFS Advisor report: Demo data: /);
    expect(r.out).toContain('Generated 2025-01-01 12:00 UTC by ZFS Advisor');
    expect(r.out).toContain('> **Demo data.**');
  });

  it('writes a PDF with -o and says on stdout what it wrote', async () => {
    const file = join(dir, 'r.pdf');
    const r = await cli('--demo', '--format', 'pdf', '-o', file);
    expect(r.code).toBe(0);
    const body = readFileSync(file);
    expect(r.out).toBe(`Wrote pdf report to ${file} (${body.length} bytes, application/pdf).\n`);
    expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('takes benchmarks from a history file and redacts names from a snapshot', async () => {
    const r = await cli('--snapshot', REDACTION_SNAPSHOT, '--format', 'json', '--redact-names', '--benchmarks', join(FIXTURES, 'bench-history.json'));
    expect(r.code).toBe(0);
    const doc = ReportDocument.parse(JSON.parse(r.out));
    expect(doc.redaction).toMatchObject({ applied: true, names: true });
    expect(doc.benchmarks.map((b) => b.summary.id)).toEqual(['fixture-nosync', 'fixture-fsync1']);
    expect(r.out).not.toContain('pve-garage');
  });

  it('refuses bad usage with exit 64 and unreadable input with exit 2, one line each', async () => {
    for (const args of [['--demo', '--format'], ['--demo', '--format', 'docx'], ['--demo', '--format', 'pdf'], ['--demo', '--snapshot', dir, '--format', 'md'], ['--demo', '--format', 'md', '--bogus']]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(64);
      expect(r.err).toMatch(/^zfs-advisor report: [^\n]+ — [^\n]+\n$/);
    }
    const missing = await cli('--snapshot', join(dir, 'nope'), '--format', 'md');
    expect(missing.code).toBe(2);
    expect(missing.err).toBe(`zfs-advisor report: ${join(dir, 'nope')}: no such snapshot directory — give a directory written by \`zfs-advisor capture\`\n`);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"not": "an array"}');
    const badBench = await cli('--demo', '--format', 'md', '--benchmarks', bad);
    expect(badBench.code).toBe(2);
    expect(badBench.err).toBe(`zfs-advisor report: ${bad}: expected a JSON array of benchmark results (bench --history --json) — give the JSON that \`zfs-advisor bench --history --json\` prints\n`);
  });
});
