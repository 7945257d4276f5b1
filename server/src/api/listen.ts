/**
 * Where the server listens, and nothing it serves left to anyone else (issue 35):
 *
 * - TCP: every address of the name given is bound. A host name is resolved and each of its
 *   addresses bound; loopback (127.0.0.1, ::1, `localhost`, 127.x) means BOTH 127.0.0.1 and ::1,
 *   and 0.0.0.0 means [::] too (IPv6 only there, as 0.0.0.0 holds IPv4). Otherwise a local account
 *   could bind the other family's address on the same port (`[::1]:PORT` while we hold
 *   `127.0.0.1:PORT`), and clients that try `localhost` — Cockpit's bridge, browsers, an SSH tunnel —
 *   would talk to it. An address taken by someone else refuses the start with the reason; only an
 *   address family this machine does not have at all (IPv6 off: EADDRNOTAVAIL/EAFNOSUPPORT) is
 *   skipped, since nobody can bind it either — and said in the log.
 * - Unix socket (`--socket PATH`, the service's /run/zfs-advisor/api.sock): the local clients' way
 *   in (the CLI, Cockpit's bridge), no token. Who may connect is decided by the kernel at
 *   connect(2): write permission on the socket and search permission on its directory. So the
 *   directory must be this process's own (privateDirProblem), the socket is made while the
 *   directory is 0700, and only then opened to root (0600) or an operator group the admin names
 *   (0660 and 0750, group set by the server). Node has no API for SO_PEERCRED (getsockopt is not
 *   exposed and there is no native addon here), so the peer's uid is not read back: the file
 *   permissions are the gate, and the attack tests connect as a real unprivileged account.
 * - A connection cap per listener: past it, the oldest connection with no request in progress
 *   (idle keep-alive, or a request still arriving) is closed for the new one, so idle sockets held
 *   by one account cannot keep health, the UI or the owner out; the Unix socket has its own cap,
 *   untouched by TCP clients.
 */
import { createConnection, type Server as NetServer, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { privateDirProblem } from '../data-dir.ts';
import { isLoopback } from './token.ts';

export interface ListenAddress {
  address: string;
  /** IPv6 only ([::] beside 0.0.0.0). */
  ipv6Only?: boolean;
  /** Skipped when this machine has no such address family (never when someone else holds it). */
  optional?: boolean;
}

/** The addresses to bind for `--host` (resolved names included), or why it cannot be served. */
export async function addressesFor(host: string, resolveName: (name: string) => Promise<string[]> = defaultResolve): Promise<{ ok: true; addresses: ListenAddress[] } | { ok: false; message: string }> {
  const h = host.trim().replace(/^\[|\]$/g, '');
  if (h === '' || h === '0.0.0.0') return { ok: true, addresses: [{ address: '0.0.0.0' }, { address: '::', ipv6Only: true, optional: true }] };
  if (h === '::') return { ok: true, addresses: [{ address: '::' }] };
  if (isLoopback(h)) return { ok: true, addresses: loopbackPair(h) };
  if (isIP(h)) return { ok: true, addresses: [{ address: h }] };
  let found: string[];
  try { found = await resolveName(h); } catch (err) {
    return { ok: false, message: `--host ${host}: the name does not resolve (${(err as NodeJS.ErrnoException).code ?? String(err)}); give an address, or a name of this machine` };
  }
  if (found.length === 0) return { ok: false, message: `--host ${host}: the name resolves to no address` };
  const out: ListenAddress[] = [];
  const add = (a: ListenAddress) => { if (!out.some((o) => o.address === a.address)) out.push(a); };
  for (const a of found) {
    if (isLoopback(a)) for (const l of loopbackPair(a)) add(l);
    else add({ address: a });
  }
  return { ok: true, addresses: out };
}

function loopbackPair(h: string): ListenAddress[] {
  const out: ListenAddress[] = [{ address: '127.0.0.1' }, { address: '::1', optional: true }];
  if (h !== 'localhost' && h !== '127.0.0.1' && h !== '::1') out.unshift({ address: h });
  if (h === '::1') { out[0]!.optional = true; out[1]!.optional = false; }
  return out;
}

async function defaultResolve(name: string): Promise<string[]> {
  return (await lookup(name, { all: true, verbatim: true })).map((a) => a.address);
}

function listenOnce(server: NetServer | Server, opts: { port?: number; host?: string; path?: string; ipv6Only?: boolean }): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const onError = (err: NodeJS.ErrnoException) => resolve(err);
    server.once('error', onError);
    server.listen({ ...opts, exclusive: true }, () => { server.off('error', onError); resolve(null); });
  });
}

/**
 * Binds one server per address on the same port (the first picks it when `port` is 0). Returns the
 * bound servers, the port, and the addresses skipped (with why), or the first failure in words.
 */
export async function listenAll(make: () => Server, addresses: ListenAddress[], port: number): Promise<{ ok: true; servers: Server[]; port: number; skipped: string[] } | { ok: false; message: string; code?: string }> {
  const servers: Server[] = [];
  const skipped: string[] = [];
  let p = port;
  const closeAll = () => { for (const s of servers) s.close(); };
  // A required address first, so that port 0 is chosen where it must hold.
  const ordered = [...addresses.filter((a) => !a.optional), ...addresses.filter((a) => a.optional)];
  for (const a of ordered) {
    const s = make();
    const err = await listenOnce(s, { port: p, host: a.address, ipv6Only: a.ipv6Only });
    if (err) {
      if (a.optional && (err.code === 'EADDRNOTAVAIL' || err.code === 'EAFNOSUPPORT')) { skipped.push(`${a.address} (${err.code}: this machine has no such address, so nobody can take it)`); continue; }
      closeAll();
      const shown = a.address.includes(':') ? `[${a.address}]` : a.address;
      const taken = err.code === 'EADDRINUSE' && servers.length > 0
        ? `: another program holds ${shown}:${p} — the server refuses to share its port with it, since clients of one address family would reach that program instead (stop it, or choose another --port)`
        : '';
      return { ok: false, code: err.code, message: `cannot listen on ${shown}:${p}: ${err.code ?? err.message}${taken}` };
    }
    servers.push(s);
    if (p === 0) {
      const addr = s.address();
      p = typeof addr === 'object' && addr ? addr.port : 0;
    }
  }
  return { ok: true, servers, port: p, skipped };
}

/** Group name or number → gid, from /etc/group (Node has no getgrnam; NSS-only groups: give the number). */
export function groupId(group: string, groupFile = '/etc/group'): number | null {
  if (/^\d+$/.test(group)) return Number(group);
  let text = '';
  try { text = readFileSync(groupFile, 'utf8'); } catch { return null; }
  for (const line of text.split('\n')) {
    const [name, , gid] = line.split(':');
    if (name === group && gid !== undefined && /^\d+$/.test(gid)) return Number(gid);
  }
  return null;
}

/** Whether something answers on the Unix socket `path` (a running server), within a second. */
function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection({ path });
    const done = (v: boolean) => { clearTimeout(t); c.destroy(); resolve(v); };
    const t = setTimeout(() => done(false), 1000);
    c.once('connect', () => done(true));
    c.once('error', () => done(false));
  });
}

/**
 * Listens on the Unix socket `path` (see the file comment for the rules), then opens it to root
 * only (mode 0600) or to `group` (0660, its directory 0750 root:group).
 */
export async function listenUnix(server: Server, path: string, group: string | null): Promise<{ ok: true } | { ok: false; message: string }> {
  if (!path.startsWith('/')) return { ok: false, message: `--socket ${path}: give an absolute path` };
  if (Buffer.byteLength(path) > 107) return { ok: false, message: `--socket ${path}: longer than the 107 bytes a Unix socket path may have` };
  let gid: number | null = null;
  if (group) {
    gid = groupId(group);
    if (gid === null) return { ok: false, message: `--socket-group ${group}: no such group in /etc/group (give the group's number if it comes from a directory service)` };
  }
  const dir = dirname(path);
  const me = process.geteuid?.() ?? 0;
  let why = privateDirProblem(dir, me);
  if (why === 'missing') {
    try { mkdirSync(dir, { mode: 0o700 }); } catch (err) { return { ok: false, message: `cannot create the socket directory ${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` }; }
    why = privateDirProblem(dir, me);
  }
  if (why !== null) return { ok: false, message: `refused: the socket directory ${dir} cannot be trusted: ${why}. It must be this server's own (the service's is /run/zfs-advisor, made by systemd's RuntimeDirectory=)` };
  if (lstatSync(dir).uid !== me) return { ok: false, message: `refused: the socket directory ${dir} belongs to uid ${lstatSync(dir).uid}, not to this server's user (uid ${me})` };
  try {
    // Closed while the socket is made: nobody but this user can reach it before its mode is set.
    chmodSync(dir, 0o700);
    let st;
    try { st = lstatSync(path); } catch { st = null; }
    if (st) {
      if (!st.isSocket()) return { ok: false, message: `refused: ${path} exists and is not a socket; remove it` };
      if (await socketAnswers(path)) return { ok: false, message: `refused: another server already answers on ${path}` };
      unlinkSync(path); // left by a server that died
    }
    const err = await listenOnce(server, { path });
    if (err) return { ok: false, message: `cannot listen on ${path}: ${err.code ?? err.message}` };
    if (gid !== null) {
      chownSync(path, me, gid);
      chmodSync(path, 0o660);
      chownSync(dir, me, gid);
      chmodSync(dir, 0o750);
    } else {
      chmodSync(path, 0o600);
    }
  } catch (err) {
    server.close();
    return { ok: false, message: `cannot set up the socket ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
  return { ok: true };
}

/**
 * Caps a listener's open connections at `cap`: a new connection past it closes the oldest one
 * without a request in progress. Returns nothing; counts what it closed on `stats`.
 */
export function capConnections(server: Server, cap: number, stats: { evicted: number } = { evicted: 0 }): { evicted: number } {
  const open = new Map<Socket, { busy: number }>();
  server.on('connection', (sock: Socket) => {
    open.set(sock, { busy: 0 });
    sock.once('close', () => open.delete(sock));
    if (open.size <= cap) return;
    for (const [s, st] of open) {
      if (s === sock || st.busy > 0) continue;
      stats.evicted++;
      s.destroy();
      open.delete(s);
      return;
    }
    // Every other connection is being answered: this one waits its turn by being closed.
    stats.evicted++;
    sock.destroy();
  });
  server.on('request', (req, res) => {
    const st = open.get(req.socket);
    if (!st) return;
    st.busy++;
    // The connection moves to the back: it was just used.
    open.delete(req.socket);
    open.set(req.socket, st);
    res.once('close', () => { st.busy--; });
  });
  return stats;
}
