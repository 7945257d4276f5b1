/**
 * Runs the system tools the packaging and Cockpit tests need (useradd, cockpit-ws, debootstrap,
 * buildah, podman, chroot…). These are test machinery, not programs the app may run, so they do
 * not go through the app's runner and its allow-list (server/src/exec/runner.ts): execFile with
 * an argv array, never a shell, a timeout on everything, failures as values.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';

export interface ToolResult { code: number | null; stdout: string; stderr: string; error: string | null }

export function tool(cmd: string, args: string[], opts: { timeoutMs?: number; input?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<ToolResult> {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { timeout: opts.timeoutMs ?? 120_000, maxBuffer: 256 * 1024 * 1024, env: opts.env ?? process.env, cwd: opts.cwd, killSignal: 'SIGKILL' },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as NodeJS.ErrnoException & { code?: unknown }).code === 'number' ? (err as unknown as { code: number }).code : null) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr), error: err && code === null ? err.message : null });
      });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** Like `tool` but throws with the command's stderr when it fails: for set-up steps. */
export async function mustTool(cmd: string, args: string[], opts: Parameters<typeof tool>[2] = {}): Promise<string> {
  const r = await tool(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.code ?? r.error}):\n${r.stderr.slice(-4000)}`);
  return r.stdout;
}

/** A long-running tool (a server): its output collected, stopped with SIGTERM then SIGKILL by its pid. */
export interface Background { child: ChildProcess; output(): string; stop(): Promise<void> }

export function background(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Background {
  const child = spawn(cmd, args, { env: opts.env ?? process.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr?.on('data', (d: Buffer) => { out += d.toString(); });
  const ended = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await ended;
      clearTimeout(t);
    },
  };
}
