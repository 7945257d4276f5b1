/**
 * The transport inside Cockpit: the same typed client, with requests carried by Cockpit's bridge
 * (`cockpit.http`, an `http-stream2` channel over Cockpit's own WebSocket) to the advisor's
 * server through its Unix socket (`/run/zfs-advisor/api.sock`, `ZFS_ADVISOR_SOCKET` in its config
 * file). Cockpit's login is the authentication: the page has no token and never reads one.
 *
 * - The channel asks for `superuser: 'try'`: a session with administrative access connects as root
 *   through the privileged bridge; a limited session connects as its user, which the socket's
 *   permissions let in only when the admin named that user's group (`ZFS_ADVISOR_SOCKET_GROUP`).
 *   Anyone else gets a 403 that says which of the two to turn on.
 * - Nothing goes over TCP, so no program on a port (a local account's listener on [::1] or
 *   127.0.0.1 while the service is down, say) ever sees a request of the page: the socket lives in
 *   a directory only root can write, so nobody else can put a listener there either.
 * - The base path comes from the config file too (`--base-path` in `ZFS_ADVISOR_EXTRA_ARGS`).
 * Only the few Cockpit calls used here are typed (cockpit.js has no types of its own).
 */
import type { Fetch } from './client.ts';

/** Cockpit's promises pass extra arguments to their callbacks (an HTTP error's body). */
interface CockpitPromise<T> {
  then(ok: (value: T) => void, fail: (err: CockpitProblem, body?: Uint8Array | string | null) => void): unknown;
}
interface CockpitProblem { problem?: string | null; status?: number; message?: string }
interface CockpitHttpRequest extends CockpitPromise<Uint8Array> {
  response(cb: (status: number, headers: Record<string, string>) => void): CockpitHttpRequest;
  stream(cb: (chunk: Uint8Array) => void): CockpitHttpRequest;
  close(problem?: string): void;
}
export interface Cockpit {
  http(opts: { unix: string; superuser?: 'try' | 'require'; binary: true }): {
    request(opts: { method: string; path: string; headers: Record<string, string>; body: Uint8Array | string }): CockpitHttpRequest;
  };
  file(path: string, opts?: { superuser?: 'try' | 'require' }): { read(): CockpitPromise<string | null>; close(): void };
  /** Runs a program as the session's user (no superuser option): here only SOCKET_REFUSED_CHECK, to tell a refused socket from a missing one. */
  spawn?(argv: string[], opts?: { err?: 'ignore' | 'message' | 'out' }): CockpitPromise<string>;
  manifests?: Record<string, { config?: unknown } | undefined>;
}

/** `window.cockpit` when the page runs inside Cockpit (index.html loaded ../base1/cockpit.js). */
export function cockpitOf(win: object): Cockpit | null {
  const c = (win as { cockpit?: unknown }).cockpit;
  return c && typeof c === 'object' && typeof (c as Cockpit).http === 'function' && typeof (c as Cockpit).file === 'function' ? (c as Cockpit) : null;
}

/** What the package's manifest (`config`, overridable in ~/.config/cockpit/zfs-advisor.override.json) names. */
export interface CockpitPackageConfig { serverConf: string }
export const DEFAULT_PACKAGE_CONFIG: CockpitPackageConfig = {
  serverConf: '/etc/zfs-advisor/zfs-advisor.conf',
};

export function packageConfigOf(ck: Cockpit, name = 'zfs-advisor'): CockpitPackageConfig {
  const raw = ck.manifests?.[name]?.config;
  const out = { ...DEFAULT_PACKAGE_CONFIG };
  if (raw && typeof raw === 'object') {
    const v = (raw as Record<string, unknown>).serverConf;
    if (typeof v === 'string' && /^\/[^\0]*$/.test(v)) out.serverConf = v;
  }
  return out;
}

export const DEFAULT_SOCKET = '/run/zfs-advisor/api.sock';

export interface ServerEndpoint {
  /** The server's Unix socket. */
  socket: string;
  /** The operator group that may connect besides root (for the refusal's words), or null. */
  group: string | null;
  /** `--base-path` with a trailing slash, `/` when none. */
  basePath: string;
}

/**
 * Reads the unit's EnvironmentFile the way systemd does for the keys we need (KEY=VALUE lines,
 * `#` comments, optional quotes, the last assignment wins). A missing file gives the defaults.
 */
export function endpointFromConf(text: string | null): ServerEndpoint {
  const values = new Map<string, string>();
  for (const line of (text ?? '').split('\n')) {
    const m = /^\s*([A-Z_][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    values.set(m[1]!, m[2]!.replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1'));
  }
  const extra = values.get('ZFS_ADVISOR_EXTRA_ARGS') ?? '';
  const bp = /(?:^|\s)--base-path(?:=|\s+)(\S+)/.exec(extra)?.[1] ?? '/';
  const basePath = /^\/[A-Za-z0-9._~/-]*$/.test(bp) && !bp.split('/').includes('..') ? (bp.endsWith('/') ? bp : `${bp}/`) : '/';
  const sock = values.get('ZFS_ADVISOR_SOCKET') ?? '';
  const socket = /^\/[A-Za-z0-9._~/@+-]+$/.test(sock) && !sock.split('/').includes('..') ? sock : DEFAULT_SOCKET;
  const g = values.get('ZFS_ADVISOR_SOCKET_GROUP') ?? '';
  return { socket, group: /^[A-Za-z0-9._-]{1,64}$/.test(g) ? g : null, basePath };
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function problemResponse(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'Content-Type': 'application/json' } });
}

function read(ck: Cockpit, path: string): Promise<{ text: string | null } | { problem: string }> {
  return new Promise((resolve) => {
    const f = ck.file(path);
    f.read().then((text) => { f.close(); resolve({ text }); }, (err) => { f.close(); resolve({ problem: err.problem ?? err.message ?? 'unknown' }); });
  });
}

/** Exits 0 when the socket ($1) is there but this user may not reach it (its directory closed to the user, or the socket visible). */
export const SOCKET_REFUSED_CHECK = 'test -S "$1" || { test -d "${1%/*}" && ! test -x "${1%/*}"; }';

/** The session may not connect to the socket: administrative access, or the operator group. */
function adminNeeded(ep: ServerEndpoint): Response {
  const who = ep.group ? `members of the group ${ep.group}` : 'members of the operator group the admin names in ZFS_ADVISOR_SOCKET_GROUP (none is named now)';
  return problemResponse(403, 'cockpit-admin-needed',
    `ZFS Advisor's socket ${ep.socket} lets in root and ${who} only. Turn on administrative access in Cockpit's top bar, or ask the admin to add your account to that group, then try again.`);
}

/** Nothing listens on the socket. */
function unreachable(ep: ServerEndpoint, err: CockpitProblem): Response {
  return problemResponse(502, 'unreachable', `nothing answers on ${ep.socket} through Cockpit (${err.problem ?? 'no connection'}): is zfs-advisor.service running? (systemctl status zfs-advisor)`);
}

/** One request over the bridge, answered as a fetch `Response` (bodies streamed for 2xx). */
function send(ck: Cockpit, ep: ServerEndpoint, url: string, init: RequestInit | undefined): Promise<Response> {
  return new Promise((resolve, reject) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { ...(init?.headers as Record<string, string> | undefined) };
    // A state-changing call always says JSON (the gate's rule for clients without an Origin).
    if (method !== 'GET' && method !== 'HEAD' && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
    const body = typeof init?.body === 'string' ? new TextEncoder().encode(init.body) : '';
    const path = `${ep.basePath.replace(/\/$/, '')}${url.startsWith('/') ? url : `/${url}`}`;
    let status = 0;
    let respHeaders: Record<string, string> = {};
    let settled = false;
    let sink: ReadableStreamDefaultController<Uint8Array> | null = null;
    const req = ck.http({ unix: ep.socket, superuser: 'try', binary: true })
      .request({ method, path, headers, body });
    const stream = new ReadableStream<Uint8Array>({
      start(c) { sink = c; },
      cancel() { req.close('cancelled'); },
    });
    const abort = () => {
      req.close('cancelled');
      if (!settled) { settled = true; reject(new DOMException('canceled', 'AbortError')); }
      try { sink?.error(new DOMException('canceled', 'AbortError')); } catch { /* already closed */ }
    };
    if (init?.signal?.aborted) return abort();
    init?.signal?.addEventListener('abort', abort, { once: true });
    req.response((s, h) => {
      status = s;
      respHeaders = h;
      if (s >= 200 && s <= 299 && !settled) {
        settled = true;
        resolve(new Response(NULL_BODY.has(s) || method === 'HEAD' ? null : stream, { status: s, headers: h }));
      }
    });
    req.stream((chunk) => sink?.enqueue(chunk));
    req.then(
      () => { try { sink?.close(); } catch { /* canceled by the reader */ } },
      (err, errBody) => {
        if (settled) { try { sink?.error(new TypeError(err.problem ?? 'the connection broke off')); } catch { /* closed */ } return; }
        settled = true;
        if (status > 0 || (err.status ?? 0) > 0) {
          const s = status || err.status!;
          // A fresh copy: the bridge's chunk may be a view into a larger (shared) buffer.
          const bytes = typeof errBody === 'string' ? new TextEncoder().encode(errBody) : new Uint8Array(errBody ?? new Uint8Array(0));
          resolve(new Response(NULL_BODY.has(s) ? null : bytes, { status: s, headers: respHeaders }));
        } else if (err.problem === 'access-denied' || err.problem === 'not-authorized') {
          resolve(adminNeeded(ep));
        } else if (err.problem === 'not-found' && ck.spawn) {
          // Cockpit's Python bridge (Debian 13's Cockpit 337) reports a connection the socket's permissions
          // refuse as "not-found", where the C bridge (Debian 12's 287) said "access-denied": the lab's
          // installed-deb test met it. Asked as the session's user: a socket it can see but not use, or a
          // socket directory it may not enter (the service's is 0700 root, or 0750 for the operator group),
          // is a question of access; a socket missing from a directory it can read is a service that is down.
          ck.spawn(['sh', '-c', SOCKET_REFUSED_CHECK, 'sh', ep.socket], { err: 'ignore' }).then(() => resolve(adminNeeded(ep)), () => resolve(unreachable(ep, err)));
        } else {
          resolve(unreachable(ep, err));
        }
      },
    );
  });
}

/**
 * A `Fetch` for `createApiClient` that goes through Cockpit. `url` is the API path the client
 * built for base `/`; the server's own base path is put in front here.
 */
export function createCockpitFetch(ck: Cockpit, config: CockpitPackageConfig = packageConfigOf(ck)): Fetch {
  let endpoint: Promise<ServerEndpoint> | null = null;
  return async (url, init) => {
    endpoint ??= read(ck, config.serverConf).then((r) => endpointFromConf('text' in r ? r.text : null));
    return send(ck, await endpoint, url, init);
  };
}
