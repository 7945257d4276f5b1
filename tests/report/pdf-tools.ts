/** poppler-utils through the runner: text of a PDF, and its pages rendered to PNG. */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../server/src/exec/runner.ts';

async function toolPresent(program: 'pdftotext' | 'pdftoppm'): Promise<boolean> {
  const r = await runCommand(program, ['-v'], { timeoutMs: 10_000 });
  return r.error?.code !== 'not-found';
}

/** True when poppler-utils is installed; under CI=true a missing tool is an error, not a skip. */
export async function popplerAvailable(): Promise<boolean> {
  const ok = (await toolPresent('pdftotext')) && (await toolPresent('pdftoppm'));
  if (!ok && process.env.CI === 'true') throw new Error('poppler-utils (pdftotext, pdftoppm) is required under CI=true');
  return ok;
}

export function writeTemp(name: string, body: Buffer): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-report-'));
  const file = join(dir, name);
  writeFileSync(file, body);
  return { dir, file };
}

export async function pdfText(file: string): Promise<string> {
  const r = await runCommand('pdftotext', ['-enc', 'UTF-8', file, '-'], { timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 });
  if (r.error || r.exitCode !== 0) throw new Error(`pdftotext failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** Renders every page; returns the PNG paths in page order. */
export async function pdfPages(file: string, dir: string, dpi = 50): Promise<string[]> {
  const r = await runCommand('pdftoppm', ['-png', '-r', String(dpi), file, join(dir, 'page')], { timeoutMs: 120_000 });
  if (r.error || r.exitCode !== 0) throw new Error(`pdftoppm failed: ${r.error?.message ?? r.stderr}`);
  return readdirSync(dir).filter((f) => /^page-\d+\.png$/.test(f)).sort().map((f) => join(dir, f));
}
