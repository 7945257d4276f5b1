/**
 * `zfs-advisor serve [--host 127.0.0.1] [--port 8080] [--data-dir DIR] [--base-path /prefix] [--demo]
 *                    [--bench-dir DIR] [--no-demo]`
 * Runs the API + UI until SIGINT/SIGTERM. Binding off loopback requires the bearer token, which
 * is generated on first start and printed once.
 *
 * Container mode: `--bench-dir DIR` (or `ZFS_ADVISOR_BENCH_DIR`, e.g. the dataset mounted at
 * /bench) gives the server a local host even without `zpool`, and confines benchmarks to path
 * targets inside DIR. `--no-demo` (or `ZFS_ADVISOR_NO_DEMO=1`) never adds the Demo host.
 * Flags win over the environment.
 *
 * `--public-name NAME` (repeatable; ZFS_ADVISOR_PUBLIC_NAMES, comma-separated): a name clients use
 * in Host besides loopback, this machine's name and the bound address — a reverse proxy that keeps
 * Host, or the NAS's DNS name. `--trusted-origin URL` (repeatable; ZFS_ADVISOR_TRUSTED_ORIGINS): a
 * front end (reverse proxy, portal) whose pages send writes with their own Origin. See README, Security.
 */
import { parseArgs } from 'node:util';
import type { CliCommand, CliIO } from '../command.ts';
import { EXIT } from '../command.ts';
import { defaultDataDir, startServer } from '../../api/server.ts';

export interface ServeDefaults {
  host: string;
  port: number;
}

const USAGE = 'usage: zfs-advisor serve [--host 127.0.0.1] [--port 8080] [--data-dir DIR] [--base-path /prefix] [--demo] [--bench-dir DIR] [--no-demo]\n'
  + '                          [--public-name NAME]... [--trusted-origin URL]...\n'
  + '  environment: ZFS_ADVISOR_BENCH_DIR (as --bench-dir), ZFS_ADVISOR_NO_DEMO=1 (as --no-demo),\n'
  + '               ZFS_ADVISOR_PUBLIC_NAMES, ZFS_ADVISOR_TRUSTED_ORIGINS (comma-separated)\n';

const listFromEnv = (v: string | undefined): string[] => (v ?? '').split(',').map((x) => x.trim()).filter((x) => x !== '');

/** Container-mode options from the environment (flags, when given, win). */
export function containerOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): { benchDir: string | null; noDemo: boolean } {
  const dir = env.ZFS_ADVISOR_BENCH_DIR?.trim();
  return { benchDir: dir ? dir : null, noDemo: /^(1|true|yes|on)$/i.test(env.ZFS_ADVISOR_NO_DEMO?.trim() ?? '') };
}

export async function runServe(args: string[], io: CliIO, defaults: ServeDefaults = { host: '127.0.0.1', port: 8080 }): Promise<number> {
  let values: { host?: string; port?: string; 'data-dir'?: string; 'base-path'?: string; demo?: boolean; 'bench-dir'?: string; 'no-demo'?: boolean; 'public-name'?: string[]; 'trusted-origin'?: string[]; help?: boolean };
  try {
    values = parseArgs({
      args,
      options: {
        host: { type: 'string' }, port: { type: 'string' }, 'data-dir': { type: 'string' }, 'base-path': { type: 'string' },
        demo: { type: 'boolean' }, 'bench-dir': { type: 'string' }, 'no-demo': { type: 'boolean' }, help: { type: 'boolean', short: 'h' },
        'public-name': { type: 'string', multiple: true }, 'trusted-origin': { type: 'string', multiple: true },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    io.stderr(`zfs-advisor serve: ${(err as Error).message}\n`);
    return EXIT.usage;
  }
  if (values.help) {
    io.stderr(USAGE);
    return EXIT.ok;
  }
  if (values.demo && values['no-demo']) {
    io.stderr('zfs-advisor serve: --demo and --no-demo contradict each other\n');
    return EXIT.usage;
  }
  const fromEnv = containerOptionsFromEnv(process.env);
  const port = values.port === undefined ? defaults.port : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.stderr(`zfs-advisor serve: --port must be 0..65535, got "${values.port}"\n`);
    return EXIT.usage;
  }
  const started = await startServer({
    host: values.host ?? defaults.host,
    port,
    dataDir: values['data-dir'] ?? defaultDataDir(),
    basePath: values['base-path'],
    demo: values.demo ? true : undefined,
    benchDir: values['bench-dir'] ?? fromEnv.benchDir,
    noDemo: values['no-demo'] ?? fromEnv.noDemo,
    publicNames: values['public-name'] ?? listFromEnv(process.env.ZFS_ADVISOR_PUBLIC_NAMES),
    trustedOrigins: values['trusted-origin'] ?? listFromEnv(process.env.ZFS_ADVISOR_TRUSTED_ORIGINS),
    announce: (line) => io.stdout(`${line}\n`),
  });
  if (!started.ok) {
    io.stderr(`zfs-advisor serve: ${started.message}\n`);
    return EXIT.failure;
  }
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

const serve: CliCommand = {
  summary: 'Run the web UI and API (127.0.0.1:8080 by default; a token is required off loopback)',
  run: (args, io) => runServe(args, io),
};
export default serve;
