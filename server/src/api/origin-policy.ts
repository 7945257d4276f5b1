/**
 * Who may send a request at all, before any token: the Host and Origin rules the gate applies
 * in every mode (loopback without a token included).
 *
 * - Host (DNS rebinding): a page on evil.example whose name is made to resolve to 127.0.0.1 talks
 *   to this server with `Host: evil.example`. So a name in Host must be one this server answers
 *   to: a loopback name (`localhost`, `*.localhost`), this machine's host name, the bound address,
 *   or a configured public name (`--public-name`, for a reverse proxy or the TrueNAS portal).
 *   An IP literal is accepted when the server is bound to all interfaces or to that address:
 *   rebinding needs a *name*, and a page whose origin is the IP itself is same-origin anyway.
 *   Anything else is 421 Misdirected Request.
 * - Origin (cross-site writes): a state-changing method (anything but GET/HEAD/OPTIONS) from a
 *   browser carries Origin; it must be this server's own origin — the scheme the request came
 *   over (https when over TLS or through a proxy that says `X-Forwarded-Proto: https`), the host
 *   and port of Host — or a configured `--trusted-origin`. Without Origin (a non-browser client: curl, scripts) the body
 *   must be declared JSON — a type no cross-site form can send without a CORS preflight, which
 *   this server never grants. Everything else is 403.
 */
import { hostname } from 'node:os';
import { isIP } from 'node:net';

export interface OriginPolicyConfig {
  /** The address the server listens on ('0.0.0.0', '::', '127.0.0.1', a name or an address). */
  boundAddress: string;
  /** Extra names (or addresses) clients may use in Host, lower case, no port. */
  publicNames: readonly string[];
  /** Extra origins (scheme://host[:port]) allowed to send state-changing requests. */
  trustedOrigins: readonly string[];
}

export type PolicyVerdict = { ok: true } | { ok: false; status: 421 | 403 | 400; message: string };

const WILDCARDS = new Set(['0.0.0.0', '::', '', '*']);
const STATE_SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `Host` → { name (lower case, no brackets, no trailing dot), authority (name[:port] as sent, lower case) }. */
export function parseHostHeader(value: string | undefined): { name: string; authority: string } | null {
  if (!value) return null;
  const v = value.trim().toLowerCase();
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(v);
  if (!m) return null;
  const name = m[1]!.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (name === '') return null;
  return { name, authority: v.replace(/\.(?=:|$)/, '') };
}

function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '::1') return true;
  return isIP(name) === 4 && name.startsWith('127.');
}

/** Normalises a configured origin (`https://NAS.example:443/` → `https://nas.example`); null when it is not one. */
export function normaliseOrigin(value: string): string | null {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (u.pathname !== '/' || u.search || u.hash || u.username || u.password) return null;
    return u.origin;
  } catch {
    return null;
  }
}

/** Normalises a configured public name: lower case, no port, no trailing dot; null when it is not a host name or address. */
export function normalisePublicName(value: string): string | null {
  const p = parseHostHeader(value);
  return p ? p.name : null;
}

export function createOriginPolicy(cfg: OriginPolicyConfig) {
  const bound = cfg.boundAddress.trim().toLowerCase().replace(/^\[|\]$/g, '');
  const wildcard = WILDCARDS.has(bound);
  const me = hostname().toLowerCase();
  const names = new Set<string>([...cfg.publicNames.map((n) => n.toLowerCase())]);
  if (!WILDCARDS.has(bound)) names.add(bound);
  // This machine's own name: a rebinding page cannot make a browser send it (that needs control
  // of the victim's own resolver, which is game over anyway).
  if (!isLoopbackName(bound)) for (const n of [me, me.split('.')[0]!, `${me.split('.')[0]}.local`]) names.add(n);
  const trusted = new Set(cfg.trustedOrigins);

  const hostAllowed = (name: string): boolean =>
    isLoopbackName(name) || names.has(name) || (wildcard && isIP(name) !== 0);

  return {
    check(method: string, headers: Record<string, string | string[] | undefined>, scheme: 'http' | 'https' = 'http'): PolicyVerdict {
      const host = parseHostHeader(typeof headers.host === 'string' ? headers.host : undefined);
      if (!host) return { ok: false, status: 400, message: 'the Host header is missing or malformed' };
      if (!hostAllowed(host.name)) {
        return { ok: false, status: 421, message: `this server does not answer to the name "${host.name}"; if that is how clients reach it (a reverse proxy, the TrueNAS portal), start it with --public-name ${host.name}` };
      }
      if (STATE_SAFE.has(method)) return { ok: true };
      const origin = typeof headers.origin === 'string' ? headers.origin.trim() : undefined;
      if (origin !== undefined) {
        const o = origin === 'null' ? null : normaliseOrigin(origin);
        if (o !== null && (trusted.has(o) || o === normaliseOrigin(`${scheme}://${host.authority}`))) return { ok: true };
        return { ok: false, status: 403, message: `cross-site request refused: Origin ${origin} is not this server's origin (${scheme}://${host.authority}); if it is a trusted front end (a reverse proxy or portal), start the server with --trusted-origin ${o ?? origin}, or have a TLS proxy send X-Forwarded-Proto: https` };
      }
      const site = headers['sec-fetch-site'];
      if (site === 'cross-site' || site === 'same-site') return { ok: false, status: 403, message: 'cross-site request refused (Sec-Fetch-Site)' };
      const type = typeof headers['content-type'] === 'string' ? headers['content-type'].split(';')[0]!.trim().toLowerCase() : '';
      if (type !== 'application/json') {
        return { ok: false, status: 403, message: `a ${method} without an Origin header must declare a JSON body (Content-Type: application/json), even when it sends none; this is what keeps other web sites from sending it` };
      }
      return { ok: true };
    },
  };
}
