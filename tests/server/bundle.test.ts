/**
 * The production bundle (scripts/build-server.mjs → dist/server.mjs, what `npm start` runs when
 * fresh) must behave like the tsx-run server: migrations found, demo snapshot and package.json
 * read from the checkout, the lazily loaded chunks (OpenAPI, planner, reports with the external
 * pdfkit) present. Built into a temporary directory inside the checkout (the externals resolve
 * from node_modules there) and run as a child process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStreaming, runCommand } from '../../server/src/exec/runner.ts';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildServer } from '../../scripts/build-server.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('server bundle', () => {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const outdir = mkdtempSync(join(ROOT, 'dist', '.bundle-test-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'zfsa-bundle-'));
  const abort = new AbortController();
  let url = '';
  let exited: Promise<unknown> = Promise.resolve();

  beforeAll(async () => {
    const built = (await buildServer({ outdir })) as { out: string; files: number };
    expect(built.files).toBeGreaterThan(1);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('bundled server did not start within 30 s')), 30_000);
      exited = runStreaming(process.execPath, [built.out, 'serve', '--port', '0', '--data-dir', dataDir, '--demo'], {
        signal: abort.signal,
        timeoutMs: 120_000,
        onStdoutLine: (line) => {
          const m = /running at (http:\/\/\S+)/.exec(line);
          if (m) { url = m[1]!; clearTimeout(t); resolve(); }
        },
      }).then((r) => { clearTimeout(t); if (!url) reject(new Error(`bundled server exited: ${r.stderr.split('\n').slice(0, 3).join(' | ')}`)); return r; });
    });
  }, 60_000);

  afterAll(async () => {
    abort.abort();
    await exited;
    rmSync(outdir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The bundled `serve` asks for a credential on loopback too: the API token from its data directory, as a script sends it. */
  const api = (path: string, init: RequestInit = {}) => fetch(new URL(path, url), {
    ...init, headers: { ...(init.headers as Record<string, string> | undefined), Authorization: `Bearer ${readFileSync(join(dataDir, 'api-token'), 'utf8').trim()}` },
  });

  it('answers health with the version from package.json', async () => {
    const r = await fetch(new URL('api/health', url));
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ status: 'ok', version: VERSION });
  });

  it('runs the startup assessment of the demo snapshot (migrations applied, demo files read)', async () => {
    let body: { assessmentId: number | null; demo: boolean; findings: unknown[] } = { assessmentId: null, demo: false, findings: [] };
    for (let i = 0; i < 100 && body.assessmentId === null; i++) {
      body = (await (await api('api/hosts/demo/findings')).json()) as typeof body;
      if (body.assessmentId === null) await new Promise((r) => setTimeout(r, 200));
    }
    expect(body.assessmentId).toBe(1);
    expect(body.demo).toBe(true);
    expect(body.findings.length).toBeGreaterThan(0);
  });

  it('serves the chunks loaded on first use: OpenAPI document, planner, Markdown and PDF reports', async () => {
    const doc = (await (await api('api/openapi.json')).json()) as { openapi: string };
    expect(doc.openapi).toBe('3.1.0');
    const plan = await api('api/plan/layouts', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ disks: 6, diskBytes: 16e12, media: 'hdd', workload: 'files' }),
    });
    expect(plan.status).toBe(200);
    const md = await api('api/reports/md?host=demo', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(md.status).toBe(200);
    expect(await md.text()).toMatch(/^# /m);
    const pdf = await api('api/reports/pdf?host=demo', { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('other commands are refused with the usage exit code', async () => {
    const r = await runCommand(process.execPath, [join(outdir, 'server.mjs'), 'parse'], { timeoutMs: 30_000 });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toMatch(/usage: node dist\/server\.mjs start\|serve/);
  });
});
