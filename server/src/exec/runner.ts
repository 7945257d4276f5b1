/**
 * The one place where the app runs programs.
 *
 * Why: every command an advisor runs on a NAS is a risk (option injection through a dataset
 * name, a hung `zpool` on a dying pool, a shell interpreting `$()`). So: `execFile`/`spawn`
 * with argument arrays, never a shell; a fixed list of programs; every argument checked;
 * a timeout on everything; stdout and stderr kept apart; the exit code recorded.
 * Failures come back as values (`CommandResult.error`), never as thrown exceptions.
 */
import { execFile, spawn } from 'node:child_process';

/** Programs the app may run. Anything else is refused before a process is created. */
export const ALLOWED_PROGRAMS = [
  'zpool', 'zfs', 'zdb', 'smartctl', 'nvme', 'lsblk', 'blkid', 'wipefs', 'fio', 'diskinfo',
  'sysctl', 'uname', 'hostname', 'nice', 'ionice', 'find', 'awk', 'xargs', 'ls', 'mount', 'findmnt',
  'zfs-fuse', 'losetup', 'truncate', 'umount', 'pvs', 'mdadm', 'camcontrol', 'geom', 'pveversion',
  'node', // the app's own CLI as a child (bench crash-safety tests kill -9 it by pid)
  // packaging tests (tests/packaging): build, lint, install and remove the .deb
  'dpkg', 'dpkg-deb', 'dpkg-query', 'lintian', 'shellcheck', 'systemd-analyze', 'build-deb.sh', 'install.sh',
  'pdftotext', 'pdftoppm', // poppler-utils: report tests check the PDF renders and holds its text
] as const;
export type AllowedProgram = (typeof ALLOWED_PROGRAMS)[number];

export type CommandErrorCode =
  | 'not-found' // the program is not installed
  | 'permission' // EACCES / EPERM
  | 'timeout'
  | 'output-too-large'
  | 'invalid-argument' // refused before running
  | 'aborted'
  | 'spawn-failed';

export interface CommandError {
  code: CommandErrorCode;
  message: string;
}

export interface CommandResult {
  program: string;
  args: string[];
  /** null when the process did not exit normally (killed, never started). */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Set when the command could not run to completion; a non-zero exit alone is not an error. */
  error: CommandError | null;
}

export interface RunOptions {
  timeoutMs?: number;
  /** Upper bound on stdout+stderr kept, in bytes. */
  maxBytes?: number;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  signal?: AbortSignal;
}

export interface StreamOptions extends RunOptions {
  /** Called with each complete stdout line as it arrives. */
  onStdoutLine?: (line: string) => void;
  onStderrLine?: (line: string) => void;
  /**
   * Raw stdout as it arrives, for outputs too large to keep (a million-line `find -printf`): when
   * set, stdout is neither kept in the result nor split into lines, and maxBytes counts stderr only.
   */
  onStdoutChunk?: (chunk: Buffer) => void;
  /** Called once the child exists, e.g. to record its pid in a journal. */
  onSpawn?: (pid: number) => void;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
const MAX_ARG_LENGTH = 4096;

/**
 * Checks one argument. Control characters (including NUL and newlines) are never legitimate in
 * the arguments we build; they are how injected names break parsers downstream.
 */
export function validateArgument(arg: unknown): string | null {
  if (typeof arg !== 'string') return 'argument is not a string';
  if (arg.length > MAX_ARG_LENGTH) return `argument longer than ${MAX_ARG_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(arg)) return 'argument contains a control character';
  return null;
}

/** Resolves the program: a bare allowed name, or an absolute path whose basename is allowed. */
export function validateProgram(program: string): string | null {
  const base = program.includes('/') ? program.slice(program.lastIndexOf('/') + 1) : program;
  if (program.includes('/') && !program.startsWith('/')) return 'program path must be absolute';
  if (!(ALLOWED_PROGRAMS as readonly string[]).includes(base)) return `program "${base}" is not on the allowed list`;
  return validateArgument(program);
}

function refused(program: string, args: string[], message: string): CommandResult {
  return {
    program, args, exitCode: null, signal: null, stdout: '', stderr: '', durationMs: 0,
    error: { code: 'invalid-argument', message },
  };
}

function validateAll(program: string, args: string[]): string | null {
  const p = validateProgram(program);
  if (p) return p;
  for (const [i, a] of args.entries()) {
    const e = validateArgument(a);
    if (e) return `argument ${i + 1}: ${e}`;
  }
  return null;
}

function classify(err: NodeJS.ErrnoException & { killed?: boolean }, timedOut: boolean, aborted: boolean): CommandError {
  if (aborted) return { code: 'aborted', message: 'command was cancelled' };
  if (timedOut) return { code: 'timeout', message: 'command timed out' };
  if (err.code === 'ENOENT') return { code: 'not-found', message: `${err.path ?? 'program'} is not installed or not on PATH` };
  if (err.code === 'EACCES' || err.code === 'EPERM') return { code: 'permission', message: 'permission denied' };
  if (err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return { code: 'output-too-large', message: 'command printed more than the allowed output size' };
  return { code: 'spawn-failed', message: err.message };
}

/** Runs a program to completion and returns everything it printed. Never throws. */
export function runCommand(program: string, args: string[], opts: RunOptions = {}): Promise<CommandResult> {
  const bad = validateAll(program, args);
  if (bad) return Promise.resolve(refused(program, args, bad));
  const started = process.hrtime.bigint();
  const timeout = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; }, timeout);
    execFile(
      program,
      args,
      {
        shell: false,
        timeout,
        killSignal: 'SIGKILL',
        maxBuffer: opts.maxBytes ?? DEFAULT_MAX_BYTES,
        env: opts.env ?? { ...process.env, LC_ALL: 'C', LANG: 'C' },
        cwd: opts.cwd,
        signal: opts.signal,
        encoding: 'utf8',
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        clearTimeout(timer);
        const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        const base = { program, args, stdout: String(stdout ?? ''), stderr: String(stderr ?? ''), durationMs };
        if (!err) {
          resolve({ ...base, exitCode: 0, signal: null, error: null });
          return;
        }
        const e = err as NodeJS.ErrnoException & { code?: string | number; signal?: string; killed?: boolean };
        // A plain non-zero exit: not an error of the runner, the caller interprets the code.
        if (typeof e.code === 'number' && !e.killed) {
          resolve({ ...base, exitCode: e.code, signal: null, error: null });
          return;
        }
        const aborted = opts.signal?.aborted ?? false;
        resolve({
          ...base,
          exitCode: typeof e.code === 'number' ? e.code : null,
          signal: e.signal ?? null,
          error: classify(e, timedOut || (e.killed === true && !aborted), aborted),
        });
      },
    );
  });
}

/**
 * Runs a long program (fio, zpool iostat with an interval) and hands over its output line by
 * line while it runs. Same validation and guarantees as runCommand.
 */
export function runStreaming(program: string, args: string[], opts: StreamOptions = {}): Promise<CommandResult> {
  const bad = validateAll(program, args);
  if (bad) return Promise.resolve(refused(program, args, bad));
  const started = process.hrtime.bigint();
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let outLine = '';
    let errLine = '';
    let tooLarge = false;
    let timedOut = false;
    let settled = false;
    const child = spawn(program, args, {
      shell: false,
      env: opts.env ?? { ...process.env, LC_ALL: 'C', LANG: 'C' },
      cwd: opts.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const kill = () => { try { child.kill('SIGKILL'); } catch { /* already gone */ } };
    const timer = setTimeout(() => { timedOut = true; kill(); }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const onAbort = () => kill();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (child.pid !== undefined) opts.onSpawn?.(child.pid);

    const feed = (chunk: string, which: 'out' | 'err') => {
      if (stdout.length + stderr.length + chunk.length > maxBytes) { tooLarge = true; kill(); return; }
      if (which === 'out') stdout += chunk; else stderr += chunk;
      let buf = (which === 'out' ? outLine : errLine) + chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        (which === 'out' ? opts.onStdoutLine : opts.onStderrLine)?.(line);
      }
      if (which === 'out') outLine = buf; else errLine = buf;
    };
    const onChunk = opts.onStdoutChunk;
    if (onChunk) child.stdout.on('data', (c: Buffer) => onChunk(c));
    else child.stdout.setEncoding('utf8').on('data', (c: string) => feed(c, 'out'));
    child.stderr.setEncoding('utf8').on('data', (c: string) => feed(c, 'err'));

    const finish = (exitCode: number | null, signal: string | null, error: CommandError | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (outLine) opts.onStdoutLine?.(outLine);
      if (errLine) opts.onStderrLine?.(errLine);
      resolve({
        program, args, exitCode, signal, stdout, stderr,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6, error,
      });
    };
    child.on('error', (err) => finish(null, null, classify(err, timedOut, opts.signal?.aborted ?? false)));
    child.on('close', (code, signal) => {
      let error: CommandError | null = null;
      if (opts.signal?.aborted) error = { code: 'aborted', message: 'command was cancelled' };
      else if (timedOut) error = { code: 'timeout', message: 'command timed out' };
      else if (tooLarge) error = { code: 'output-too-large', message: 'command printed more than the allowed output size' };
      finish(code, signal, error);
    });
  });
}

/** One line for a person: what ran and why it did not give us an answer. */
export function describeFailure(r: CommandResult): string | null {
  const cmd = [r.program, ...r.args].join(' ');
  if (r.error) return `${cmd}: ${r.error.message}`;
  if (r.exitCode !== 0) return `${cmd}: exit ${r.exitCode}${r.stderr.trim() ? `: ${r.stderr.trim().split('\n')[0]}` : ''}`;
  return null;
}
