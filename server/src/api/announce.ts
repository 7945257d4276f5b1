/**
 * What `serve` prints for the person who started it: where the server really listens (the bound
 * address — "all interfaces" for 0.0.0.0/::, with URLs that can actually be opened), whether the
 * token is required and where it is, the token itself once, and the mode (demo, container).
 * Pure: the caller passes the machine's interfaces, so the wording is testable.
 */
import type { NetworkInterfaceInfo } from 'node:os';

export interface AnnounceInput {
  /** The address given to listen() ('0.0.0.0', '::', '127.0.0.1', '192.168.1.10', …). */
  host: string;
  port: number;
  /** '/' or '/prefix'. */
  basePath: string;
  interfaces: Record<string, NetworkInterfaceInfo[] | undefined>;
  /** Where the token is stored when one is required, else null (loopback: no token). */
  tokenFile: string | null;
  /** The token when it was created by this start (printed once), else null. */
  newToken: string | null;
  demo: boolean;
  benchDir: string | null;
  localZfs: boolean;
  /** The one-time login link (when a credential is required), else null. */
  loginUrl?: string | null;
  /** `serve --open-loopback`: said loudly. */
  openLoopback?: boolean;
  /** `serve --snapshot DIR`: the captured snapshot the local host shows. */
  snapshot?: string | null;
  /** Where the login link was written instead of being printed (the service: its output is the journal). */
  loginLinkFile?: string | null;
  /** The Unix socket local clients use, or null. */
  socket?: string | null;
  /** The TCP addresses really bound (loopback: 127.0.0.1 and ::1). */
  addresses?: string[];
}

export function isAllInterfaces(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

function urlFor(address: string, port: number, basePath: string): string {
  const h = address.includes(':') ? `[${address}]` : address;
  return `http://${h}:${port}${basePath === '/' ? '/' : `${basePath}/`}`;
}

/** A URL this machine can open: loopback when bound to all interfaces, else the bound address. */
export function localUrl(host: string, port: number, basePath: string): string {
  if (host === '::') return urlFor('::1', port, basePath);
  if (isAllInterfaces(host)) return urlFor('127.0.0.1', port, basePath);
  return urlFor(host, port, basePath);
}

/** Non-loopback addresses other machines may use (IPv4 first; link-local IPv6 left out). */
export function externalAddresses(interfaces: AnnounceInput['interfaces'], ipv6: boolean): string[] {
  const all = Object.values(interfaces).flatMap((list) => list ?? []).filter((i) => !i.internal);
  const v4 = all.filter((i) => i.family === 'IPv4').map((i) => i.address);
  const v6 = ipv6 ? all.filter((i) => i.family === 'IPv6' && !i.address.toLowerCase().startsWith('fe80:')).map((i) => i.address) : [];
  return [...new Set([...v4, ...v6])];
}

export function announceLines(i: AnnounceInput): string[] {
  const lines: string[] = [];
  // "running at <URL>" stays first and unchanged in form: scripts and packaging tests read the URL
  // from it. The URL is one this machine can open; the rest says what was really bound.
  if (isAllInterfaces(i.host)) {
    const external = externalAddresses(i.interfaces, i.host === '::').slice(0, 3).map((a) => urlFor(a, i.port, i.basePath));
    const others = external.length > 0 ? `from other machines: ${external.join(' or ')}` : 'this machine has no address but loopback';
    lines.push(`ZFS Advisor is running at ${localUrl(i.host, i.port, i.basePath)} (listening on all interfaces, ${i.host || '0.0.0.0'} port ${i.port}; ${others})`);
  } else {
    const on = i.addresses && i.addresses.length > 0 ? i.addresses.map((a) => (a.includes(':') ? `[${a}]` : a)).join(' and ') : i.host;
    lines.push(`ZFS Advisor is running at ${urlFor(i.host, i.port, i.basePath)} (listening on ${on} port ${i.port})`);
  }
  if (i.socket) lines.push(`Local clients (zfs-advisor login-link, Cockpit) connect through ${i.socket}, without a token (only this server's user, or the group named with --socket-group, can connect).`);
  if (i.loginUrl) lines.push(`Sign in from a browser with this one-time link: ${i.loginUrl}`);
  else if (i.loginLinkFile) lines.push(`The one-time login link for a browser is in ${i.loginLinkFile} (mode 0600, not in the journal); \`zfs-advisor login-link\` prints a new one.`);
  if (i.tokenFile) {
    lines.push(`A credential is required on every request except /api/health: the session the link above sets, or the API token (Authorization: Bearer …; the web UI asks for it). The token is stored 0600 in ${i.tokenFile}.`);
    if (i.newToken) lines.push(`API token (shown once): ${i.newToken}`);
  } else if (i.openLoopback) {
    lines.push('WARNING --open-loopback: no credential is asked for; EVERY local account on this machine can use this server (and run benchmarks through it as this user).');
  } else {
    lines.push('Bound to loopback: only this machine can connect, and no token is needed.');
  }
  if (i.snapshot) lines.push(`Showing the captured snapshot ${i.snapshot} as the local host; benchmarks and size walks are off (they would measure this machine).`);
  else if (i.demo && i.localZfs) lines.push('Showing the bundled DEMO snapshot as a host of its own (labelled as demo everywhere); this machine\'s pools stay the host "This machine" (add it on the Hosts page if it is not there).');
  else if (i.demo) lines.push('This machine has no usable ZFS: showing the bundled DEMO snapshot (labelled as demo everywhere).');
  if (i.benchDir && !i.localZfs) lines.push(`Container mode: no zpool here; the local host runs benchmarks only in ${i.benchDir} (path targets).`);
  else if (i.benchDir) lines.push(`Benchmarks are confined to ${i.benchDir} (path targets only).`);
  if (!i.localZfs && !i.demo && !i.benchDir && !i.snapshot) lines.push('This machine has no usable ZFS and the demo is off: add a TrueNAS or Proxmox VE host to see pools.');
  return lines;
}
