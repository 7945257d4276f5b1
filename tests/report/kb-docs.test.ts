/**
 * The knowledge pages are served by the app at <base>/docs/kb/<page>, without the token (public
 * static text, like the UI shell), every heading carrying the anchor findings link to; and they
 * are the files the packages ship (docs/kb beside server/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { KB_PAGE_IDS } from '../../server/src/kb/catalog.ts';
import { kbAnchors } from '../../server/src/kb/pages.ts';
import { ALL_RULES } from '../../rules/index.ts';

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

for (const basePath of ['/', '/zfs-advisor']) {
  describe(`knowledge pages served (base path ${basePath})`, () => {
    let s: RunningServer;
    const base = basePath === '/' ? '' : basePath;
    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-kb-'));
      dirs.push(dir);
      // 0.0.0.0 makes the server require its token for everything but the public list.
      const r = await startServer({ host: '0.0.0.0', port: 0, dataDir: join(dir, 'data'), demo: true, uiDir: null, basePath, assessOnStart: false, logSink: () => {} });
      if (!r.ok) throw new Error(r.message);
      s = r.server;
    });
    afterAll(async () => { await s.close(); });
    const get = (path: string) => fetch(`http://127.0.0.1:${s.port}${base}${path}`, { headers: { Host: `127.0.0.1:${s.port}` } });

    it('every page, without a token, with the anchor of every section a rule cites', async () => {
      const index = await get('/docs/kb');
      expect(index.status).toBe(200);
      const indexHtml = await index.text();
      for (const p of KB_PAGE_IDS) {
        expect(indexHtml).toContain(`href="kb/${p}"`);
        const res = await get(`/docs/kb/${p}`);
        expect(res.status, p).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        const html = await res.text();
        for (const a of kbAnchors(p)) expect(html, `${p}#${a}`).toContain(`id="${a}"`);
        expect(html).not.toMatch(/<script/i);
        expect(html).not.toContain('`');
      }
      for (const r of ALL_RULES) {
        for (const c of r.meta.citations) {
          const m = c.url ? /^docs\/kb\/([a-z-]+)\.md#([\w-]+)$/.exec(c.url) : null;
          if (!m) continue;
          expect(await (await get(`/docs/kb/${m[1]}`)).text(), `${r.meta.id} → ${c.url}`).toContain(`id="${m[2]}"`);
        }
      }
    });

    it('unknown pages are 404 and the API still needs the token', async () => {
      expect((await get('/docs/kb/no-such-page')).status).toBe(404);
      expect((await get('/docs/kb/..%2f..%2fpackage.json')).status).not.toBe(200);
      expect((await get('/docs/kb/slog.md')).status).not.toBe(200);
      expect((await get('/api/findings')).status).toBe(401);
    });
  });
}

describe('knowledge pages ship with the packages', () => {
  it('the .deb build and the image copy docs/kb', () => {
    const deb = readFileSync(join(import.meta.dirname, '../../plugin/debian/build-deb.sh'), 'utf8');
    const docker = readFileSync(join(import.meta.dirname, '../../plugin/docker/Dockerfile'), 'utf8');
    expect(deb).toMatch(/docs\/kb/);
    expect(docker).toMatch(/COPY --from=build \/app\/docs\/kb \.\/docs\/kb/);
  });
});
