/**
 * `zfs-advisor serve` and `start` (options: defs/serve.ts, defs/start.ts). Runs the API + UI until
 * SIGINT/SIGTERM. Binding off loopback requires the bearer token, which is generated on first
 * start and printed once.
 *
 * Container mode: `--bench-dir DIR` (or `ZFS_ADVISOR_BENCH_DIR`, e.g. the dataset mounted at
 * /bench) gives the server a local host even without `zpool`, and confines benchmarks to path
 * targets inside DIR. `--no-demo` (or `ZFS_ADVISOR_NO_DEMO=1`) never adds the Demo host.
 * Flags win over the environment.
 */
import { EXIT, type CliIO, type Handler } from '../command.ts';
import type { options } from '../defs/serve.ts';
import { refusal, usageError } from '../framework/errors.ts';
import { fstatSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDataDir, startServer } from '../../api/server.ts';

/**
 * Whether this process's standard output is the journal (systemd sets JOURNAL_STREAM to the
 * device:inode of the stream it connected): then the login link is not printed there.
 */
export function stdoutIsJournal(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const m = /^(\d+):(\d+)$/.exec(env.JOURNAL_STREAM ?? '');
  if (!m) return false;
  try {
    const st = fstatSync(1, { bigint: true });
    return st.dev === BigInt(m[1]!) && st.ino === BigInt(m[2]!);
  } catch { return false; }
}

export interface ServeDefaults {
  host: string;
  port: number;
}

/** A comma-separated list from the environment (ZFS_ADVISOR_PUBLIC_NAMES, ZFS_ADVISOR_TRUSTED_ORIGINS). */
const listFromEnv = (v: string | undefined): string[] => (v ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '');

/** Container-mode options from the environment (flags, when given, win). */
export function containerOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): { benchDir: string | null; noDemo: boolean } {
  const dir = env.ZFS_ADVISOR_BENCH_DIR?.trim();
  return { benchDir: dir ? dir : null, noDemo: /^(1|true|yes|on)$/i.test(env.ZFS_ADVISOR_NO_DEMO?.trim() ?? '') };
}

/** A listen failure in words: which address, what to do (EADDRINUSE names the port and --port). */
export function listenFailure(message: string, host: string, port: number): Error {
  if (/refuses to share/.test(message)) return refusal(message.replace(/^cannot listen on /, 'cannot listen on '), `stop that program, or choose another port with --port, e.g. --port ${port === 65535 ? 8081 : port + 1}`);
  if (/EADDRINUSE/.test(message)) return refusal(`port ${port} on ${host} is already in use by another program`, `stop that program, or choose another port with --port, e.g. --port ${port === 65535 ? 8081 : port + 1}`);
  if (/EACCES/.test(message)) return refusal(`not allowed to listen on port ${port}${port < 1024 ? ' (ports below 1024 need root)' : ''}`, 'choose a port from 1024 up with --port, e.g. --port 8080');
  if (/EADDRNOTAVAIL|ENOTFOUND/.test(message)) return refusal(`${host} is not an address of this machine`, 'give one of its addresses with --host, or 0.0.0.0 for all');
  return refusal(message, 'check --host, --port and --data-dir');
}

type ServeValues = Parameters<Handler<typeof options>>[0]['values'];

async function serve(o: ServeValues, io: CliIO, defaults: ServeDefaults, command: 'serve' | 'start'): Promise<number> {
  if (o.demo && o['no-demo']) throw usageError('--demo and --no-demo contradict each other', 'give one');
  const fromEnv = containerOptionsFromEnv(process.env);
  const port = o.port ?? defaults.port;
  const host = o.host ?? defaults.host;
  // `start` (what `npm start` runs) and demo runs never use the service's data directory.
  const dataDir = o['data-dir'] ?? defaultDataDir(undefined, command === 'start' ? '`start` (a try-out run)' : o.demo ? 'a demo run' : undefined);
  const envSocket = process.env.ZFS_ADVISOR_SOCKET?.trim();
  // `start` gives this user's own clients (`npm run cockpit`, login-link) a socket in its data directory.
  const socket = o.socket ?? (envSocket ? envSocket : command === 'start' ? join(dataDir, 'api.sock') : null);
  const started = await startServer({
    host,
    port,
    dataDir,
    socket,
    socketGroup: o['socket-group'] ?? (process.env.ZFS_ADVISOR_SOCKET_GROUP?.trim() || null),
    loginLink: stdoutIsJournal() ? 'file' : 'announce',
    basePath: o['base-path'],
    demo: o.demo ? true : undefined,
    benchDir: o['bench-dir'] ?? fromEnv.benchDir,
    noDemo: o['no-demo'] ?? fromEnv.noDemo,
    snapshot: o.snapshot ?? null,
    publicNames: o['public-name'] ?? listFromEnv(process.env.ZFS_ADVISOR_PUBLIC_NAMES),
    trustedOrigins: o['trusted-origin'] ?? listFromEnv(process.env.ZFS_ADVISOR_TRUSTED_ORIGINS),
    sizesAllow: o['sizes-allow'] ?? listFromEnv(process.env.ZFS_ADVISOR_SIZES_ALLOW),
    loopbackAuth: !o['open-loopback'],
    benchAllow: o['bench-allow'] ?? listFromEnv(process.env.ZFS_ADVISOR_BENCH_ALLOW),
    benchCeiling: { maxRuntimeSeconds: o['bench-max-runtime'], maxLoad1: o['bench-max-load'], maxPoolWriteWaitMs: o['bench-max-pool-write-wait'] },
    announce: (line) => io.stdout(`${line}\n`),
  });
  if (!started.ok) throw /cannot listen/.test(started.message) ? listenFailure(started.message, host, port) : refusal(started.message, 'check the options named in the message');
  const server = started.server;
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.logger.info('shutting down');
      void server.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return EXIT.ok;
}

export const run: Handler<typeof options> = ({ values }, io) => serve(values, io, { host: '127.0.0.1', port: 8080 }, 'serve');

/** `start`: serve with the defaults; the port from $ZFS_ADVISOR_PORT when --port is not given. */
export const runStart: Handler<typeof options> = ({ values }, io) => {
  const envPort = process.env.ZFS_ADVISOR_PORT;
  const port = envPort === undefined ? 8080 : Number(envPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usageError(`ZFS_ADVISOR_PORT "${envPort}" is not a TCP port from 0 to 65535`, 'set it to a port number, e.g. 8080, or unset it');
  return serve(values, io, { host: '127.0.0.1', port }, 'start');
};
