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

  it('--for PLACE writes a forum post and says its length and links; --links and --no-links need --for', async () => {
    const file = join(dir, 'post.md');
    const r = await cli('--demo', '--for', 'truenas-forum', '-o', file, '--generated-at', '2025-01-01T12:00:00Z');
    expect(r.code).toBe(0);
    const body = readFileSync(file, 'utf8');
    expect(r.out).toBe(`Wrote truenas-forum post to ${file} (${body.length} characters, 2 links).\n`);
    expect(body).toContain('## Sources');
    const bb = await cli('--demo', '--for', 'proxmox-forum', '--no-links');
    expect(bb.code).toBe(0);
    expect(bb.out).toMatch(/^\[SIZE=6\]\[B\]ZFS Advisor report: Demo data: /);
    expect(bb.out).not.toContain('[URL=');
    const five = await cli('--demo', '--for', 'truenas-forum', '--links', '5');
    expect(five.out).toContain('The first 5 addresses are links');
    for (const [args, err] of [
      [['--demo', '--for', 'reddit', '--format', 'html'], 'zfs-advisor report: --for reddit writes a post from the Markdown report, not --format html — leave out --format\n'],
      [['--demo', '--links', '3'], 'zfs-advisor report: --links sets the links of a forum post — add --for PLACE, e.g. --for truenas-forum\n'],
      [['--demo', '--no-links'], 'zfs-advisor report: --no-links sets the links of a forum post — add --for PLACE, e.g. --for truenas-forum\n'],
      [['--demo', '--for', 'github', '--links', '2', '--no-links'], 'zfs-advisor report: --links and --no-links exclude each other — give one\n'],
      [['--demo', '--for', 'discord'], 'zfs-advisor report: --for "discord" is not one of the choices — give one of truenas-forum, proxmox-forum, reddit, github, e.g. --for truenas-forum\n'],
    ] as const) {
      const bad = await cli(...args);
      expect(bad.code, args.join(' ')).toBe(64);
      expect(bad.err).toBe(err);
    }
  });
});
