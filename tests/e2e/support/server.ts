/**
 * Starts the real server (`zfs-advisor serve`) on a temporary data directory and a free port,
 * through the project's command runner, and waits for `/api/health`.
 *
 * `serve` asks every client for a credential, on loopback too: the handle reads the one-time
 * login link `serve` prints (`signIn(page)` opens it, as a user would, and checks that the code
 * left the address bar) and the API token from the data directory (`fetch` sends it, as scripts do).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runStreaming } from '../../../server/src/exec/runner.ts';

export interface ServerHandle {
  url: string;
  dataDir: string;
  /** The one-time login link `serve` printed (null with --open-loopback). */
  loginUrl: string | null;
  /** The API token (null with --open-loopback). */
  token: string | null;
  /** fetch relative to the server's URL, with the API token as a script would send it. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Opens the one-time login link in `page` (once per server) and waits for the redirect to the UI. */
  signIn(page: Page): Promise<void>;
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
      if (r.ok && /one-time link|no token is needed|--open-loopback/.test(out)) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) {
      controller.abort();
      throw new Error(`server did not start within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const loginUrl = /Sign in from a browser with this one-time link: (\S+)/.exec(out)?.[1] ?? null;
  const tokenFile = join(dataDir, 'api-token');
  const token = existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : null;
  const authed = (path: string, init: RequestInit = {}) => fetch(new URL(path.replace(/^\//, ''), base), {
    ...init, headers: { ...(init.headers as Record<string, string> | undefined), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  // The first assessment runs in a worker thread after start: wait for it, as a user does before
  // the pages have data (until then a page's inventory request is a 404 the browser logs).
  // A server that wants a token answers 401 here: its tests sign in first and wait themselves.
  for (;;) {
    const r = await authed('api/hosts').catch(() => null);
    const hosts = r?.ok ? ((await r.json()) as { lastAssessment: unknown }[]) : [];
    if (hosts.every((h) => h.lastAssessment !== null) || out.includes('first assessment failed')) break;
    if (Date.now() > deadline) {
      controller.abort();
      throw new Error(`the first assessment did not finish within 60 s:\n${out}`);
    }
    await new Promise((r2) => setTimeout(r2, 250));
  }
  let used = false;
  return {
    url: base,
    dataDir,
    loginUrl,
    token,
    fetch: authed,
    async signIn(page) {
      if (!loginUrl) throw new Error(`serve printed no login link:\n${out}`);
      if (used) throw new Error('the login link is one-time and was used already');
      used = true;
      await page.goto(loginUrl);
      if (page.url() !== base) throw new Error(`the login link led to ${page.url()}, not ${base}`);
    },
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
