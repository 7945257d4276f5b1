/**
 * Starts the HTTP server: opens the store, decides about the token (required off loopback),
 * wires the services, adds the default host, starts the scheduler and listens.
 * Errors come back as values (`{ok: false, message}`) so `serve` can print one line.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { closeSync, constants, existsSync, openSync, renameSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../store/db.ts';
import { openSecretStore } from '../store/secrets.ts';
import { withCachedValues } from './cached-secrets.ts';
import { runCommand } from '../exec/runner.ts';
import { createApp, normaliseBasePath, type AppHandle } from './app.ts';
import { createLogger, type Logger } from './logger.ts';
import { loadServices, type Services } from './services.ts';
import { ensureToken, isLoopback } from './token.ts';
import { resolveBenchDir, resolveBenchPlaces } from './bench-confinement.ts';
import type { BenchPolicy } from './bench-policy.ts';
import { normaliseOrigin, normalisePublicName } from './origin-policy.ts';
import { resolveAllowList } from './sizes-confinement.ts';
import { announceLines, localUrl } from './announce.ts';
import { addressesFor, capConnections, listenAll, listenUnix } from './listen.ts';
import { ensurePrivateDir } from '../data-dir.ts';
import { networkInterfaces } from 'node:os';
import type { RemoteClients } from '../remote/clients.ts';

export interface ServeOptions {
  host: string;
  port: number;
  dataDir: string;
  basePath?: string;
  /** Built UI; default `ui/dist` of this checkout when it exists. */
  uiDir?: string | null;
  /** Force demo mode (true) or local mode (false); default: demo when `zpool` is not usable. */
  demo?: boolean;
  /** Whether this machine's `zpool` is usable (default: probed); only used when `demo` is not given. */
  zfs?: boolean;
  /**
   * Container mode (`ZFS_ADVISOR_BENCH_DIR` / `--bench-dir`): a local host exists even without
   * ZFS, and benchmarks are path targets confined to this directory. Must exist.
   */
  benchDir?: string | null;
  /** Never add the Demo host (`--no-demo` / `ZFS_ADVISOR_NO_DEMO=1`). */
  noDemo?: boolean;
  /** `--snapshot DIR`: the local host shows this captured snapshot (no benchmarks, no size walks). */
  snapshot?: string | null;
  services?: Services;
  remote?: RemoteClients;
  /** Log sink (default stderr). */
  logSink?: (line: string) => void;
  /** Print lines meant for the person who started the server (URL, token once). */
  announce?: (line: string) => void;
  /**
   * Names clients use to reach this server besides loopback names, this machine's name and the
   * bound address (a reverse proxy that keeps the Host header, a DNS name of the NAS): `--public-name`.
   */
  publicNames?: string[];
  /** Origins (scheme://host[:port]) of trusted front ends that send writes with their own Origin: `--trusted-origin`. */
  trustedOrigins?: string[];
  /** Directories size walks may measure besides mounted ZFS datasets (`--sizes-allow`). */
  sizesAllow?: string[];
  /** The operator's ceiling for benchmark limits (`--bench-max-runtime`, `--bench-max-load`, `--bench-max-pool-write-wait`). */
  benchCeiling?: Partial<BenchPolicy>;
  /** Directories path benchmarks from the API may write in (`--bench-allow`); none: no path benchmarks through the API. */
  benchAllow?: string[];
  /**
   * Ask for a credential on loopback too (the token, or a session from the one-time login link).
   * `serve` sets it unless `--open-loopback`; off loopback the token is always required. Default
   * false here, for callers that embed the server (tests).
   */
  loopbackAuth?: boolean;
  /** Failed token attempts allowed per client per minute (default 20). */
  authFailuresPerMinute?: number;
  /** Run a first assessment of the default host in the background (default true). */
  assessOnStart?: boolean;
  /**
   * `--socket PATH`: also listen on this Unix socket, for local clients (the CLI, Cockpit's bridge)
   * that need no credential there; only root — or `socketGroup` — can connect (listen.ts).
   */
  socket?: string | null;
  /** `--socket-group G`: the operator group that may connect to the socket besides root. */
  socketGroup?: string | null;
  /** Open connections per listener before the oldest idle one is closed (default 512). */
  connectionCap?: number;
  /**
   * Where the one-time login link goes: 'announce' (the terminal that ran serve: announced) or
   * 'file' (0600 `login-link` beside the token, for a service whose output is the journal, which
   * the adm group reads). Default 'announce'.
   */
  loginLink?: 'announce' | 'file';
}

export interface RunningServer {
  /** A URL this machine can open (loopback when bound to all interfaces). */
  url: string;
  port: number;
  token: string | null;
  tokenCreated: boolean;
  demo: boolean;
  /** Container mode's benchmark directory (resolved), or null. */
  benchDir: string | null;
  /** The Unix socket it listens on, or null. */
  socket: string | null;
  /** The TCP addresses it listens on (all on `port`). */
  addresses: string[];
  handle: AppHandle;
  logger: Logger;
  close(): Promise<void>;
}

const ROOT = dirname(dirname(dirname(dirname(fileURLToPath(import.meta.url)))));
export const DEFAULT_UI_DIR = join(ROOT, 'ui', 'dist');

export { defaultDataDir } from '../data-dir.ts';

/** Whether this machine can list pools (otherwise the demo snapshot is shown, and said so). */
export async function hasLocalZfs(): Promise<boolean> {
  const r = await runCommand('zpool', ['list', '-H', '-o', 'name'], { timeoutMs: 10_000 });
  return r.error === null && r.exitCode === 0;
}

export async function startServer(opts: ServeOptions): Promise<{ ok: true; server: RunningServer } | { ok: false; message: string }> {
  let basePath: string;
  try { basePath = normaliseBasePath(opts.basePath); } catch (err) { return { ok: false, message: (err as Error).message }; }
  const publicNames: string[] = [];
  for (const n of opts.publicNames ?? []) {
    const v = normalisePublicName(n);
    if (v === null) return { ok: false, message: `--public-name "${n}" is not a host name or address` };
    publicNames.push(v);
  }
  const trustedOrigins: string[] = [];
  for (const o of opts.trustedOrigins ?? []) {
    const v = normaliseOrigin(o);
    if (v === null) return { ok: false, message: `--trusted-origin "${o}" is not an origin (scheme://host[:port], nothing after it)` };
    trustedOrigins.push(v);
  }
  const allow = resolveAllowList(opts.sizesAllow ?? []);
  if (!allow.ok) return { ok: false, message: allow.message };
  const benchPlaces = resolveBenchPlaces(opts.benchAllow ?? []);
  if (!benchPlaces.ok) return { ok: false, message: benchPlaces.message };
  let benchDir: string | null = null;
  if (opts.benchDir) {
    const r = resolveBenchDir(opts.benchDir);
    if (!r.ok) return { ok: false, message: r.message };
    benchDir = r.dir;
  }

  const addrs = await addressesFor(opts.host);
  if (!addrs.ok) return { ok: false, message: addrs.message };
  // The token, the store and the login link live here: refused when another account could plant
  // or swap them (issue 35: a planted api-token in a user-writable --data-dir was accepted).
  const privateDir = ensurePrivateDir(opts.dataDir, 'data directory');
  if (!privateDir.ok) return { ok: false, message: privateDir.message };
  const opened = await openStore(opts.dataDir);
  if (!opened.ok) return { ok: false, message: opened.error.message };
  const store = opened.store;
  const secrets = withCachedValues(openSecretStore(opts.dataDir));

  let token: string | null = null;
  let tokenCreated = false;
  const openLoopback = isLoopback(opts.host) && !opts.loopbackAuth;
  if (!openLoopback) {
    try {
      const t = ensureToken(opts.dataDir);
      token = t.token;
      tokenCreated = t.created;
    } catch (err) {
      store.close();
      return { ok: false, message: (err as Error).message };
    }
  }

  const secretValues = () => {
    try { return [...secrets.values(), ...(token ? [token] : [])]; } catch { return token ? [token] : []; }
  };
  const logger = createLogger({ sink: opts.logSink, secrets: secretValues });
  const services = opts.services ?? (await loadServices({ db: store.db }));
  for (const [name, why] of Object.entries(services.missing)) logger.warn('service unavailable', { service: name, why });
  // Demo only when nothing else can be shown: no ZFS here, no benchmark directory, demo allowed.
  let snapshot: string | null = null;
  if (opts.snapshot) {
    if (opts.demo) return { ok: false, message: '--snapshot and --demo contradict each other: give one' };
    snapshot = resolve(opts.snapshot);
    if (!existsSync(join(snapshot, 'meta.json'))) return { ok: false, message: `--snapshot ${opts.snapshot}: no meta.json there; give a directory written by \`zfs-advisor capture\`` };
  }
  // A snapshot stands in for this machine's pools: the local host shows it.
  // Probed even with --demo: the demo is added beside this machine's pools, never instead of them.
  const localZfs = snapshot !== null || (opts.zfs ?? (await hasLocalZfs()));
  const demo = snapshot === null && (opts.demo ?? (!localZfs && benchDir === null && !opts.noDemo));
  if (services.bench) {
    // A benchmark that was running when the process died leaves a dataset or files: remove them now.
    await services.bench.recover().catch((err: unknown) => logger.warn('benchmark recovery failed', { error: err instanceof Error ? err.message : String(err) }));
  }
  const uiDir = opts.uiDir === undefined ? (existsSync(join(DEFAULT_UI_DIR, 'index.html')) ? DEFAULT_UI_DIR : null) : opts.uiDir;

  const handle = createApp({ store, secrets, services, logger, remote: opts.remote, config: { basePath, token, uiDir, demo, localZfs, benchDir, snapshot, noDemo: opts.noDemo ?? false,
    authFailuresPerMinute: opts.authFailuresPerMinute, boundAddress: opts.host, publicNames: [...publicNames, ...addrs.addresses.map((a) => a.address).filter((a) => a !== '0.0.0.0' && a !== '::')], trustedOrigins, sizesAllow: allow.dirs, benchAllow: benchPlaces.dirs, benchCeiling: opts.benchCeiling,
  } });
  const created = handle.ensureDefaultHosts();
  let closing = false;
  handle.scheduler.start();

  const cap = opts.connectionCap ?? 512;
  const makeServer = () => {
    const server: Server = createServer(handle.app);
    server.requestTimeout = 120_000;
    server.headersTimeout = 30_000;
    capConnections(server, cap);
    return server;
  };
  const bound = await listenAll(makeServer, addrs.addresses, opts.port);
  if (!bound.ok) {
    handle.close();
    store.close();
    return { ok: false, message: bound.message };
  }
  const servers: Server[] = [...bound.servers];
  const port = bound.port;
  let socketPath: string | null = null;
  if (opts.socket) {
    const unix = makeServer();
    unix.on('connection', (sock: Socket) => handle.trustLocalConnection(sock));
    const r = await listenUnix(unix, opts.socket, opts.socketGroup ?? null);
    if (!r.ok) {
      for (const s of servers) s.close();
      handle.close();
      store.close();
      return { ok: false, message: r.message };
    }
    servers.push(unix);
    socketPath = opts.socket;
  }
  const url = localUrl(opts.host, port, basePath);
  handle.setLoginBase(url);
  const addresses = bound.servers.map((s) => { const a = s.address(); return typeof a === 'object' && a ? a.address : ''; });
  logger.info('listening', { addresses, port, socket: socketPath, url, demo, benchDir, auth: token !== null });
  for (const why of bound.skipped) logger.info('address not bound', { address: why });

  if (opts.assessOnStart !== false && services.assess && services.loadInventory) {
    for (const h of handle.hostsToAssessAtStart(created)) {
      handle.runAssessment(h.id, 'startup').catch((err: unknown) => {
        // Stopped while it ran (the database is closed under it): the next start assesses the host again.
        if (closing) logger.info('first assessment stopped by the shutdown; the next start runs it again', { host: h.id });
        else logger.warn('first assessment failed', { host: h.id, error: err instanceof Error ? err.message : String(err) });
      });
    }
  }

  const announce = opts.announce ?? (() => {});
  // The one-time login link goes to whoever started the server, never to the log: printed on the
  // terminal, or — when that output is the journal (the service), which the adm group reads —
  // written 0600 beside the token, where `zfs-advisor login-link` also gets a fresh one.
  let loginUrl = token ? `${url}login?code=${handle.newLoginCode()}` : null;
  let loginLinkFile: string | null = null;
  if (loginUrl && opts.loginLink === 'file') {
    loginLinkFile = join(opts.dataDir, 'login-link');
    try { writePrivateFile(loginLinkFile, `${loginUrl}\n`); } catch (err) { logger.warn('could not write the login link file', { file: loginLinkFile, error: (err as Error).message }); loginLinkFile = null; }
    loginUrl = null;
  }
  if (openLoopback && opts.loopbackAuth === false) logger.warn('--open-loopback: every local account can use this server without a credential, and through it run benchmarks as this process\'s user', {});
  for (const line of announceLines({
    host: opts.host, port, basePath, interfaces: networkInterfaces(), tokenFile: token ? join(opts.dataDir, 'api-token') : null,
    newToken: token && tokenCreated && !isLoopback(opts.host) ? token : null, demo, benchDir, localZfs, snapshot, loginUrl, loginLinkFile, socket: socketPath, openLoopback: openLoopback && opts.loopbackAuth === false,
    addresses,
  })) announce(line);

  return {
    ok: true,
    server: {
      url, port, token, tokenCreated, demo, benchDir, handle, logger, socket: socketPath, addresses,
      close: () =>
        new Promise<void>((resolve) => {
          closing = true;
          handle.close();
          let left = servers.length;
          for (const server of servers) {
            server.closeAllConnections();
            server.close(() => {
              if (--left > 0) return;
              store.close();
              resolve();
            });
          }
        }),
    },
  };
}

/** Writes `file` 0600 without following a planted link: a new name, then renamed over. */
function writePrivateFile(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try { writeSync(fd, text); } finally { closeSync(fd); }
  renameSync(tmp, file);
}
