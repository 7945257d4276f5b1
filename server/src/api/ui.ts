/**
 * Serves the built UI (`ui/dist`) under the base path. index.html gets the base path injected at
 * serve time (a `<base href>` and a `<meta name="zfs-advisor-base">`), so the same build works at
 * `/` and behind a reverse proxy at `/zfs-advisor/`. The client-side views (gate.ts UI_VIEW_PATHS)
 * get index.html too, so a bookmark or a reload works; any other path is 404.
 */
import express, { type Request, type Response, type Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UI_VIEW_PATHS } from './gate.ts';

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
  const router = express.Router({ caseSensitive: true, strict: true });
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
  for (const view of UI_VIEW_PATHS) router.get(view, sendIndex);
  router.use('/assets', express.static(join(uiDir, 'assets'), { index: false, fallthrough: true, maxAge: '1h', dotfiles: 'ignore', redirect: false }));
  return router;
}
