/**
 * The transport inside Cockpit: the same typed client, with requests carried by Cockpit's bridge
 * (`cockpit.http`, an `http-stream2` channel over Cockpit's own WebSocket) to the advisor's server
 * on loopback. Cockpit's login is the authentication: the page has no token of its own.
 *
 * - Where the server listens comes from its config file (`/etc/zfs-advisor/zfs-advisor.conf`,
 *   the unit's EnvironmentFile): port, address, `--base-path`.
 * - Default mode (bound to loopback, no token): the bridge's request arrives from 127.0.0.1 with
 *   `Host: localhost:PORT` and no `Origin`, like any local client; nothing else is needed.
 * - Token mode (the default, loopback included, unless the server runs with --open-loopback): on a
 *   401 the page reads the token file (root-only) through the bridge with `superuser: 'require'`,
 *   so only a Cockpit session with administrative access gets in; a limited session gets a 403
 *   that says how to turn that access on. Before the token is sent, the server must prove it holds
 *   it (an HMAC of a fresh challenge, /api/health?challenge=), so whatever else answers on the
 *   port never receives it.
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
  http(opts: { port: number; address?: string; binary: true }): {
    request(opts: { method: string; path: string; headers: Record<string, string>; body: Uint8Array | string }): CockpitHttpRequest;
  };
  file(path: string, opts?: { superuser?: 'try' | 'require' }): { read(): CockpitPromise<string | null>; close(): void };
  manifests?: Record<string, { config?: unknown } | undefined>;
}

/** `window.cockpit` when the page runs inside Cockpit (index.html loaded ../base1/cockpit.js). */
export function cockpitOf(win: object): Cockpit | null {
  const c = (win as { cockpit?: unknown }).cockpit;
  return c && typeof c === 'object' && typeof (c as Cockpit).http === 'function' && typeof (c as Cockpit).file === 'function' ? (c as Cockpit) : null;
}

/** What the package's manifest (`config`, overridable in ~/.config/cockpit/zfs-advisor.override.json) names. */
export interface CockpitPackageConfig { serverConf: string; tokenFile: string }
export const DEFAULT_PACKAGE_CONFIG: CockpitPackageConfig = {
  serverConf: '/etc/zfs-advisor/zfs-advisor.conf',
  tokenFile: '/var/lib/zfs-advisor/api-token',
};

export function packageConfigOf(ck: Cockpit, name = 'zfs-advisor'): CockpitPackageConfig {
  const raw = ck.manifests?.[name]?.config;
  const out = { ...DEFAULT_PACKAGE_CONFIG };
  if (raw && typeof raw === 'object') {
    for (const key of ['serverConf', 'tokenFile'] as const) {
      const v = (raw as Record<string, unknown>)[key];
      if (typeof v === 'string' && /^\/[^\0]*$/.test(v)) out[key] = v;
    }
  }
  return out;
}

export interface ServerEndpoint {
  /** Address for the bridge to connect to; null = Cockpit's default (localhost). */
  address: string | null;
  port: number;
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
  const port = Number(values.get('ZFS_ADVISOR_PORT') ?? '8077');
  const host = values.get('ZFS_ADVISOR_HOST') ?? '127.0.0.1';
  const extra = values.get('ZFS_ADVISOR_EXTRA_ARGS') ?? '';
  const bp = /(?:^|\s)--base-path(?:=|\s+)(\S+)/.exec(extra)?.[1] ?? '/';
  const basePath = /^\/[A-Za-z0-9._~/-]*$/.test(bp) ? (bp.endsWith('/') ? bp : `${bp}/`) : '/';
  // A wildcard bind is reachable on loopback; a loopback name is Cockpit's default already.
  const local = host === '' || host === '0.0.0.0' || host === '::' || host === 'localhost' || host === '127.0.0.1';
  return { address: local ? null : host, port: Number.isInteger(port) && port > 0 && port < 65536 ? port : 8077, basePath };
}

const NULL_BODY = new Set([101, 204, 205, 304]);

function problemResponse(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'Content-Type': 'application/json' } });
}

function read(ck: Cockpit, path: string, superuser?: 'require'): Promise<{ text: string | null } | { problem: string }> {
  return new Promise((resolve) => {
    const f = ck.file(path, superuser ? { superuser } : {});
    f.read().then((text) => { f.close(); resolve({ text }); }, (err) => { f.close(); resolve({ problem: err.problem ?? err.message ?? 'unknown' }); });
  });
}

/** One request over the bridge, answered as a fetch `Response` (bodies streamed for 2xx). */
function send(ck: Cockpit, ep: ServerEndpoint, url: string, init: RequestInit | undefined, token: string | null): Promise<Response> {
  return new Promise((resolve, reject) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers: Record<string, string> = { ...(init?.headers as Record<string, string> | undefined) };
    if (token) headers.Authorization = `Bearer ${token}`;
    // A state-changing call always says JSON (the gate's rule for clients without an Origin).
    if (method !== 'GET' && method !== 'HEAD' && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
    const body = typeof init?.body === 'string' ? new TextEncoder().encode(init.body) : '';
    const path = `${ep.basePath.replace(/\/$/, '')}${url.startsWith('/') ? url : `/${url}`}`;
    let status = 0;
    let respHeaders: Record<string, string> = {};
    let settled = false;
    let sink: ReadableStreamDefaultController<Uint8Array> | null = null;
    const req = ck.http({ port: ep.port, ...(ep.address ? { address: ep.address } : {}), binary: true })
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
        } else {
          const where = `${ep.address ?? 'localhost'}:${ep.port}`;
          resolve(problemResponse(502, 'unreachable', `nothing answers on ${where} through Cockpit (${err.problem ?? 'no connection'}): is zfs-advisor.service running? (systemctl status zfs-advisor)`));
        }
      },
    );
  });
}

/** Asks the server for an HMAC of a fresh challenge under `token` (/api/health?challenge=) and checks it. */
async function provesToken(ck: Cockpit, ep: ServerEndpoint, token: string): Promise<boolean> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return false;
  const challenge = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(24)), (b) => b.toString(16).padStart(2, '0')).join('');
  const res = await send(ck, ep, `/api/health?challenge=${challenge}`, undefined, null);
  const proof = res.headers.get('X-ZFS-Advisor-Proof');
  if (!res.ok || !proof) return false;
  const key = await subtle.importKey('raw', new TextEncoder().encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await subtle.sign('HMAC', key, new TextEncoder().encode(`zfs-advisor-proof:${challenge}`)));
  const expected = Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
  return expected === proof.toLowerCase();
}

/**
 * A `Fetch` for `createApiClient` that goes through Cockpit. `url` is the API path the client
 * built for base `/`; the server's own base path is put in front here.
 */
export function createCockpitFetch(ck: Cockpit, config: CockpitPackageConfig = packageConfigOf(ck)): Fetch {
  let endpoint: Promise<ServerEndpoint> | null = null;
  let token: string | null = null;
  return async (url, init) => {
    endpoint ??= read(ck, config.serverConf).then((r) => endpointFromConf('text' in r ? r.text : null));
    const ep = await endpoint;
    const res = await send(ck, ep, url, init, token);
    if (res.status !== 401) return res;
    // The server is in token mode: the token file is root-only, so only administrative access reads it.
    const t = await read(ck, config.tokenFile, 'require');
    const found = 'text' in t && t.text ? t.text.trim() : null;
    if (!found) {
      token = null;
      const why = 'problem' in t ? t.problem : 'the file is empty or missing';
      return problemResponse(403, 'cockpit-admin-needed',
        `This ZFS Advisor server requires its access token, which Cockpit reads from ${config.tokenFile} (root only; ${why}). Turn on administrative access in Cockpit's top bar, then try again.`);
    }
    if (found === token) return res;
    // Before the token goes anywhere: the program on that port must prove it holds it (a user who
    // bound the port while the service was down would otherwise receive it).
    if (!(await provesToken(ck, ep, found))) {
      return problemResponse(502, 'cockpit-not-the-service',
        `The program answering on ${ep.address ?? 'localhost'}:${ep.port} did not prove it is this machine's ZFS Advisor (it does not hold the token in ${config.tokenFile}), so the token was not sent. Is zfs-advisor.service running? (systemctl status zfs-advisor)`);
    }
    token = found;
    return send(ck, ep, url, init, token);
  };
}
