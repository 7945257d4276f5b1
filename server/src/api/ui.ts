/**
 * Serves the built UI (`ui/dist`) under the base path. index.html gets the base path injected at
 * serve time (a `<base href>` and a `<meta name="zfs-advisor-base">`), so the same build works at
 * `/` and behind a reverse proxy at `/zfs-advisor/`. Unknown non-API paths get index.html (the
 * router is client-side).
 */
import express, { type Request, type Response, type Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function injectBasePath(html: string, basePath: string): string {
  const base = basePath.endsWith('/') ? basePath : `${basePath}/`;
  const tags = `<base href="${escapeAttr(base)}"><meta name="zfs-advisor-base" content="${escapeAttr(base)}">`;
  const withoutOldBase = html.replace(/<base\s[^>]*>/i, '');
  return /<head[^>]*>/i.test(withoutOldBase) ? withoutOldBase.replace(/<head[^>]*>/i, (m) => `${m}${tags}`) : `${tags}${withoutOldBase}`;
}

export function uiRouter(uiDir: string | null, basePath: string): Router {
  const router = express.Router();
  const index = uiDir ? join(uiDir, 'index.html') : null;
  if (!uiDir || !index || !existsSync(index)) {
    router.get('/', (_req: Request, res: Response) => {
      res.type('text/plain').send('ZFS Advisor API is running. The UI is not built: run `npm run build:ui`. API: api/openapi.json\n');
    });
    return router;
  }
  // Read once: the build does not change under a running server.
  const page = injectBasePath(readFileSync(index, 'utf8'), basePath);
  const sendIndex = (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page);
  };
  router.get('/', sendIndex);
  router.get('/index.html', sendIndex);
  router.use(express.static(uiDir, { index: false, fallthrough: true, maxAge: '1h', dotfiles: 'ignore' }));
  router.get(/^\/(?!api\/|metrics$).*/, sendIndex);
  return router;
}
