/**
 * Starts the real server (`zfs-advisor serve`) on a temporary data directory and a free port,
 * through the project's command runner, and waits for `/api/health`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStreaming } from '../../../server/src/exec/runner.ts';

export interface ServerHandle {
  url: string;
  dataDir: string;
  log(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  demo?: boolean;
  basePath?: string;
  /** Bind address (default 127.0.0.1); off loopback the server requires its token. */
  host?: string;
  env?: Record<string, string>;
  /** More `serve` options, as the operator gives them (e.g. `--bench-allow DIR`, `--bench-max-load N`). */
  args?: string[];
}

export async function startServer(opts: StartOptions = {}): Promise<ServerHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zfsa-e2e-'));
  const port = await freePort();
  const args = ['server/bin/zfs-advisor.js', 'serve', '--port', String(port), '--data-dir', dataDir];
  if (opts.demo) args.push('--demo');
  if (opts.basePath) args.push('--base-path', opts.basePath);
  if (opts.host) args.push('--host', opts.host);
  args.push(...(opts.args ?? []));
  let out = '';
  let pid: number | null = null;
  const controller = new AbortController();
  const proc = runStreaming('node', args, {
    cwd: join(import.meta.dirname, '..', '..', '..'),
    signal: controller.signal,
    timeoutMs: 30 * 60_000,
    env: { ...process.env, ...(opts.env ?? {}) },
    onSpawn: (p) => { pid = p; },
    onStdoutLine: (l) => { out += `${l}\n`; },
    onStderrLine: (l) => { out += `${l}\n`; },
  });
  const base = `http://127.0.0.1:${port}${opts.basePath ? `${opts.basePath.replace(/\/$/, '')}/` : '/'}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const r = await fetch(`${base}api/health`);
      if (r.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) {
      controller.abort();
      throw new Error(`server did not start within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  // The first assessment runs in a worker thread after start: wait for it, as a user does before
  // the pages have data (until then a page's inventory request is a 404 the browser logs).
  // A server that wants a token answers 401 here: its tests sign in first and wait themselves.
  for (;;) {
    const r = await fetch(`${base}api/hosts`).catch(() => null);
    const hosts = r?.ok ? ((await r.json()) as { lastAssessment: unknown }[]) : [];
    if (hosts.every((h) => h.lastAssessment !== null) || out.includes('first assessment failed')) break;
    if (Date.now() > deadline) {
      controller.abort();
      throw new Error(`the first assessment did not finish within 60 s:\n${out}`);
    }
    await new Promise((r2) => setTimeout(r2, 250));
  }
  return {
    url: base,
    dataDir,
    log: () => out,
    async stop() {
      // SIGTERM first so the server cancels benchmarks and closes the store; SIGKILL after 10 s.
      if (pid !== null) { try { process.kill(pid, 'SIGTERM'); } catch { /* already gone */ } }
      const killer = setTimeout(() => controller.abort(), 10_000);
      await proc.catch(() => undefined);
      clearTimeout(killer);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
