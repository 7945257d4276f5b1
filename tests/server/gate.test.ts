/**
 * The gate as a hostile client tries it: every route of the OpenAPI document, in every spelling an
 * HTTP stack might treat as the same path (case, doubled slashes, trailing slash, dot segments,
 * percent-encoded letters and slashes, double encoding, backslashes, under a base path), with and
 * without the token. Without it nothing may answer 2xx; with it only the exact spelling reaches a
 * handler. A fast-check property generates further spellings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { canonicalPath, isPublicPath, relativeToBase, UI_VIEW_PATHS } from '../../server/src/api/gate.ts';

const dirs: string[] = [];
const tmp = () => { const d = mkdtempSync(join(tmpdir(), 'zfsa-gate-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

export interface Raw { status: number; body: string; headers: Record<string, string | string[] | undefined> }

/** One request with the target exactly as given (fetch would normalise it first). */
export function raw(port: number, method: string, target: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target, headers: { Connection: 'close', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    // Generous: one of them runs a demo assessment, which takes tens of seconds on a loaded CI machine.
    req.setTimeout(90_000, () => req.destroy(new Error(`timeout: ${method} ${target}`)));
    req.end(body);
  });
}

const enc = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** Spellings of `path` (which starts with '/') that a lenient stack could read as the same path. */
export function spellings(path: string): { name: string; target: string }[] {
  const segs = path.split('/').slice(1);
  const join1 = (xs: string[]) => `/${xs.join('/')}`;
  return [
    { name: 'upper case', target: path.toUpperCase() },
    { name: 'mixed case', target: join1(segs.map((s) => s.charAt(0).toUpperCase() + s.slice(1))) },
    { name: 'leading doubled slash', target: `/${path}` },
    { name: 'inner doubled slash', target: join1(segs).replace('/', '//').replace(/^\/\//, '/').replace(`/${segs[0]}/`, `/${segs[0]}//`) },
    { name: 'trailing slash', target: `${path}/` },
    { name: 'dot segment', target: join1([segs[0]!, '.', ...segs.slice(1)]) },
    { name: 'dot-dot segment', target: join1(['x', '..', ...segs]) },
    { name: 'encoded first letter', target: `/${enc(path[1]!)}${path.slice(2)}` },
    { name: 'encoded upper letter', target: `/${enc(path[1]!.toUpperCase())}${path.slice(2)}` },
    { name: 'encoded slash', target: `/${segs[0]}%2f${segs.slice(1).join('/')}` },
    { name: 'encoded slash (upper)', target: `/${segs[0]}%2F${segs.slice(1).join('/')}` },
    { name: 'double-encoded slash', target: `/${segs[0]}%252f${segs.slice(1).join('/')}` },
    { name: 'encoded dot segment', target: join1(['x', '%2e%2e', ...segs]) },
    { name: 'backslash', target: `/${segs[0]}\\${segs.slice(1).join('/')}` },
  ].filter((s) => s.target !== path);
}

interface Op { method: string; path: string }

/** Every operation of the OpenAPI document with its parameters filled in. */
function operations(doc: { paths: Record<string, Record<string, unknown>> }): Op[] {
  const values: Record<string, string> = { hostId: 'nohost', assessmentId: '999', fingerprint: 'abc', runId: 'none', format: 'json', observationId: '999', sizesId: '999', reportId: '999' };
  return Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => ({ method: m.toUpperCase(), path: p.replace(/\{(\w+)\}/g, (_, n: string) => values[n] ?? 'x') })));
}

function fakeUi(): string {
  const ui = join(tmp(), 'dist');
  mkdirSync(join(ui, 'assets'), { recursive: true });
  writeFileSync(join(ui, 'index.html'), '<!doctype html><html><head><title>t</title></head><body>shell</body></html>');
  writeFileSync(join(ui, 'assets', 'app.js'), 'console.log(1)');
  return ui;
}

describe('canonical paths', () => {
  it('reduces every spelling to one form', () => {
    for (const p of ['/API/info', '//api/info', '/%61pi/info', '/api%2finfo', '/api%252Finfo', '/x/../api/info/', '/api/./info', '/api\\info', '/%2e%2e/api/info']) {
      expect(canonicalPath(p), p).toBe('/api/info');
    }
    expect(canonicalPath('/')).toBe('/');
    expect(canonicalPath('/../..')).toBe('/');
    expect(() => canonicalPath('/api/%zz')).toThrow(/percent/);
    expect(() => canonicalPath('/api/%00')).toThrow(/control/);
    expect(relativeToBase('/zfs/api/info', '/ZFS')).toBe('/api/info');
    expect(relativeToBase('/zfs', '/zfs')).toBe('/');
    expect(relativeToBase('/zfsx/api', '/zfs')).toBeNull();
  });

  it('the public list is the health check and the UI shell, GET/HEAD only', () => {
    expect(isPublicPath('GET', '/api/health')).toBe(true);
    expect(isPublicPath('HEAD', '/')).toBe(true);
    expect(isPublicPath('GET', '/assets/app.js')).toBe(true);
    expect(isPublicPath('POST', '/api/health')).toBe(false);
    for (const p of ['/api/info', '/metrics', '/api', '/assets/a/b.js', '/anything']) expect(isPublicPath('GET', p), p).toBe(false);
  });

  it('the UI views the server knows are the views of the UI router', () => {
    const router = readFileSync(join(import.meta.dirname, '../../ui/src/router.ts'), 'utf8');
    const views = [...router.slice(router.indexOf('VIEWS'), router.indexOf('] as const')).matchAll(/path: '([^']+)'/g)].map((m) => m[1]).filter((p) => p !== '/');
    expect([...UI_VIEW_PATHS].sort()).toEqual(views.sort());
  });
});

for (const basePath of ['/', '/zfs']) {
  describe(`every route in every spelling, token required (base path ${basePath})`, () => {
    let s: RunningServer;
    let ops: Op[];
    const base = basePath === '/' ? '' : basePath;
    beforeAll(async () => {
      const r = await startServer({ host: '0.0.0.0', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: fakeUi(), basePath, assessOnStart: false, logSink: () => {}, authFailuresPerMinute: 1_000_000 });
      if (!r.ok) throw new Error(r.message);
      s = r.server;
      const doc = await raw(s.port, 'GET', `${base}/api/openapi.json`, { Authorization: `Bearer ${s.token}` });
      expect(doc.status).toBe(200);
      ops = operations(JSON.parse(doc.body) as { paths: Record<string, Record<string, unknown>> });
      expect(ops.length).toBeGreaterThan(40);
    });
    afterAll(async () => { await s.close(); });

    const json = { 'Content-Type': 'application/json' };

    it('without the token: 401 (never 2xx or 3xx) for any route in any spelling, the base path included', async () => {
      const seen: string[] = [];
      for (const op of ops) {
        const targets = [{ name: 'exact', target: `${base}${op.path}` }, ...spellings(`${base}${op.path}`)];
        if (base) targets.push({ name: 'upper-case base', target: `${base.toUpperCase()}${op.path}` }, ...spellings(op.path).map((x) => ({ name: `base + ${x.name}`, target: `${base}${x.target}` })));
        for (const t of targets) {
          const r = await raw(s.port, op.method, t.target, json, op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}');
          seen.push(`${r.status} ${op.method} ${t.target}`);
          const health = op.path === '/api/health' && op.method === 'GET';
          // The health check is public: its exact spelling answers; a case variant passes the gate
          // and is 404, an encoded or dotted one needs the token.
          if (health && t.name === 'exact') expect(r.status).toBe(200);
          else if (health) expect([401, 404], t.target).toContain(r.status);
          else expect(r.status, `${op.method} ${t.target} (${t.name}) answered ${r.status}: ${r.body.slice(0, 120)}`).toBe(401);
        }
      }
      expect(seen.length).toBeGreaterThan(ops.length * 14);
    }, 120_000);

    it('with the token: the exact spelling reaches its handler, every other spelling is 404 (or 400)', async () => {
      const auth = { ...json, Authorization: `Bearer ${s.token}` };
      for (const op of ops) {
        if (op.path.endsWith('/events')) continue; // streams: reached, shown by their 404 below
        const exact = await raw(s.port, op.method, `${base}${op.path}`, auth, op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}');
        expect(exact.status, `${op.method} ${op.path}`).not.toBe(401);
        expect(exact.body, `${op.method} ${op.path}`).not.toMatch(/no route/);
        for (const t of spellings(`${base}${op.path}`)) {
          const r = await raw(s.port, op.method, t.target, auth, op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}');
          expect([400, 404], `${op.method} ${t.target} (${t.name}) answered ${r.status}`).toContain(r.status);
        }
      }
    }, 120_000);

    it('the UI shell and its assets load without the token, but not through an encoded or dotted spelling', async () => {
      expect((await raw(s.port, 'GET', `${base}/`)).status).toBe(200);
      expect((await raw(s.port, 'GET', `${base}/benchmarks`)).body).toContain('shell');
      expect((await raw(s.port, 'GET', `${base}/assets/app.js`)).body).toBe('console.log(1)');
      for (const t of [`${base}/assets/%2e%2e/api/hosts`, `${base}/assets/..%2f..%2fapi%2fhosts`, `${base}/benchmarks/../api/hosts`, `${base}/api/hosts/..%2f..%2fassets%2fapp.js`, `${base}/api/hosts/%2e%2e%2f%2e%2e%2fassets/inventory`, `${base}/metrics`, `${base}/nothing-here`]) {
        const r = await raw(s.port, 'GET', t);
        // Outside the base path nothing is served (404); inside it, the token is needed.
        expect(r.status, t).toBe(relativeToBase(canonicalPath(t), basePath) === null ? 404 : 401);
      }
      expect((await raw(s.port, 'GET', 'http://127.0.0.1/api/hosts')).status).toBe(400); // absolute form
      if (base) expect((await raw(s.port, 'GET', '/api/health')).status).toBe(404); // outside the base path
    });

    it('property: no generated spelling of a route answers 2xx without the token', async () => {
      const routeArb = fc.constantFrom(...ops.filter((o) => !(o.path === '/api/health' && o.method === 'GET')));
      const segTransform = fc.array(fc.constantFrom('upper', 'encode-one', 'encode-all', 'dot', 'dotdot', 'empty', 'keep'), { minLength: 1, maxLength: 6 });
      await fc.assert(fc.asyncProperty(routeArb, segTransform, fc.boolean(), fc.boolean(), async (op, transforms, encodeSlash, trailing) => {
        const segs = `${base}${op.path}`.split('/').slice(1);
        const out: string[] = [];
        segs.forEach((seg, i) => {
          const t = transforms[i % transforms.length]!;
          if (t === 'dot') out.push('.');
          if (t === 'dotdot') out.push('zz', '..');
          if (t === 'empty') out.push('');
          out.push(t === 'upper' ? seg.toUpperCase() : t === 'encode-one' ? `${enc(seg[0]!)}${seg.slice(1)}` : t === 'encode-all' ? [...seg].map(enc).join('') : seg);
        });
        const target = `/${out.join(encodeSlash ? '%2F' : '/')}${trailing ? '/' : ''}`;
        expect(canonicalPath(target)).toBe(`${base}${op.path}`.toLowerCase());
        const r = await raw(s.port, op.method, target, json, op.method === 'GET' || op.method === 'DELETE' ? undefined : '{}');
        expect(r.status, `${op.method} ${target}`).toBe(401);
      }), { numRuns: 150 });
    }, 120_000);
  });
}

describe('Host and Origin rules in every mode (DNS rebinding, cross-site writes)', () => {
  let s: RunningServer;
  let ops: Op[];
  beforeAll(async () => {
    const r = await startServer({
      host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {},
      publicNames: ['NAS.example.'], trustedOrigins: ['https://portal.example:443/'],
    });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
    expect(s.token).toBeNull(); // loopback: no token, so these rules are all that stands in the way
    ops = operations(JSON.parse((await raw(s.port, 'GET', '/api/openapi.json')).body) as { paths: Record<string, Record<string, unknown>> });
  });
  afterAll(async () => { await s.close(); });

  it('a foreign Host is refused (421); loopback names, the bound address and --public-name are served', async () => {
    for (const host of ['rebind.attacker.example', `rebind.attacker.example:${0}`, '192.168.1.5', 'nas.example.attacker.example', 'localhost.attacker.example']) {
      const r = await raw(s.port, 'GET', '/api/hosts', { Host: host });
      expect(r.status, host).toBe(421);
      expect(r.body).not.toContain('"kind"');
    }
    expect((await raw(s.port, 'GET', '/api/health', { Host: 'rebind.attacker.example' })).status).toBe(421);
    for (const host of [`127.0.0.1:${s.port}`, `localhost:${s.port}`, 'LOCALHOST.', 'app.localhost', `[::1]:${s.port}`, 'nas.example', `NAS.example:${s.port}`]) {
      expect((await raw(s.port, 'GET', '/api/hosts', { Host: host })).status, host).toBe(200);
    }
  });

  it('every state-changing route refuses a foreign Origin (403), whatever the content type, and nothing changes', async () => {
    const writes = ops.filter((o) => o.method !== 'GET');
    expect(writes.length).toBeGreaterThan(15);
    const demo = (await raw(s.port, 'GET', '/api/hosts/demo')).body;
    for (const op of writes) {
      const target = op.path.replace('/nohost', '/demo');
      for (const [origin, type] of [['https://evil.example', 'text/plain'], ['https://evil.example', 'application/json'], ['null', 'application/json'], [`http://127.0.0.1:${s.port + 1}`, 'application/json'], [`http://localhost:${s.port}`, 'application/json']] as const) {
        const r = await raw(s.port, op.method, target, { Origin: origin, 'Content-Type': type }, '{}');
        expect(r.status, `${op.method} ${target} from ${origin} (${type})`).toBe(403);
        expect(r.body).toContain('forbidden');
      }
      // No Origin (not a browser): the body must be declared JSON; a browser's cross-site fetch metadata is refused too.
      expect((await raw(s.port, op.method, target, { 'Content-Type': 'text/plain' }, '{}')).status, `${op.method} ${target} text/plain`).toBe(403);
      expect((await raw(s.port, op.method, target, {})).status, `${op.method} ${target} no type`).toBe(403);
      expect((await raw(s.port, op.method, target, { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' }, '{}')).status).toBe(403);
    }
    expect((await raw(s.port, 'GET', '/api/hosts/demo')).body).toBe(demo); // not deleted, not renamed
    expect(JSON.parse((await raw(s.port, 'GET', '/api/hosts/demo/assessments')).body)).toEqual([]); // none started
  });

  it('same origin, a --trusted-origin, and a JSON request without Origin are let through', async () => {
    const sameOrigin = await raw(s.port, 'POST', '/api/hosts/demo/assessments', { Origin: `http://127.0.0.1:${s.port}`, 'Content-Type': 'text/plain' });
    expect(sameOrigin.status).toBe(201);
    const trusted = await raw(s.port, 'PATCH', '/api/settings', { Origin: 'https://portal.example', 'Content-Type': 'application/json' }, '{}');
    expect(trusted.status).toBe(200);
    // Behind a TLS proxy that keeps Host: the proxy says https (X-Forwarded-Proto), and the origin's scheme must match.
    const viaName = await raw(s.port, 'PATCH', '/api/settings', { Host: 'nas.example', Origin: 'https://nas.example', 'X-Forwarded-Proto': 'https', 'Content-Type': 'application/json' }, '{}');
    expect(viaName.status).toBe(200);
    const otherScheme = await raw(s.port, 'PATCH', '/api/settings', { Host: 'nas.example', Origin: 'https://nas.example', 'Content-Type': 'application/json' }, '{}');
    expect(otherScheme.status).toBe(403);
    const script = await raw(s.port, 'PATCH', '/api/settings', { 'Content-Type': 'application/json; charset=utf-8' }, '{}');
    expect(script.status).toBe(200);
    // Reads are not writes: a GET carries no Origin rule (CORS keeps its answer from a foreign page).
    expect((await raw(s.port, 'GET', '/api/settings', { Origin: 'https://evil.example' })).headers['access-control-allow-origin']).toBeUndefined();
  }, 180_000);

  it('bound to all interfaces: an IP literal Host passes (rebinding needs a name), a foreign name does not', async () => {
    const r = await startServer({ host: '0.0.0.0', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {} });
    if (!r.ok) throw new Error(r.message);
    try {
      expect((await raw(r.server.port, 'GET', '/api/health', { Host: `10.1.2.3:${r.server.port}` })).status).toBe(200);
      expect((await raw(r.server.port, 'GET', '/api/hosts', { Host: '10.1.2.3' })).status).toBe(401);
      expect((await raw(r.server.port, 'GET', '/api/health', { Host: 'rebind.attacker.example' })).status).toBe(421);
    } finally {
      await r.server.close();
    }
  });

  it('refuses malformed --public-name and --trusted-origin at start', async () => {
    const bad1 = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {}, publicNames: ['nas example'] });
    expect(bad1).toMatchObject({ ok: false, message: expect.stringContaining('--public-name') });
    const bad2 = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp(), 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {}, trustedOrigins: ['https://portal.example/path'] });
    expect(bad2).toMatchObject({ ok: false, message: expect.stringContaining('--trusted-origin') });
  });
});
