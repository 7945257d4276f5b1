/**
 * The base path the server serves the page under. The server injects
 * `<meta name="zfs-advisor-base" content="/prefix/">` (and a matching `<base href>`) into index.html,
 * so one build works at `/` and behind a reverse proxy. Without the tag (Vite dev server) it is `/`.
 */
export function basePathFrom(doc: Pick<Document, 'querySelector'>): string {
  const raw = doc.querySelector('meta[name="zfs-advisor-base"]')?.getAttribute('content') ?? '/';
  // Only a plain absolute path is accepted; anything else falls back to the root.
  if (!/^\/[A-Za-z0-9._~/-]*$/.test(raw)) return '/';
  return raw.endsWith('/') ? raw : `${raw}/`;
}

/** An API path (`/api/hosts`) as a URL under the base path (`/prefix/api/hosts`). */
export function apiUrl(base: string, path: string, query?: Record<string, string | undefined>): string {
  const b = base.endsWith('/') ? base.slice(0, -1) : base;
  const p = path.startsWith('/') ? path : `/${path}`;
  const q = query ? Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined) : [];
  const qs = q.length ? `?${new URLSearchParams(q).toString()}` : '';
  return `${b}${p}${qs}`;
}

/** Fills `:param`s of a contract path (the server's `routePath`, without importing zod into the bundle). */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}
