/**
 * The knowledge pages (`docs/kb/*.md`) as HTML at `<base>/docs/kb` and `<base>/docs/kb/<page>`:
 * what findings link to, section by section. Public static content like the UI shell (gate.ts
 * lists it): the pages hold no data about any host. Rendered once per page, then kept.
 */
import express, { type Request, type Response } from 'express';
import { isKbPage, renderKbIndex, renderKbPage } from '../../kb/pages.ts';

export function docsRoutes() {
  const r = express.Router({ caseSensitive: true, strict: true });
  const cache = new Map<string, string>();
  const send = (res: Response, html: string) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('html').send(html);
  };
  r.get('/docs/kb', (_req: Request, res: Response) => send(res, renderKbIndex()));
  r.get('/docs/kb/:page', (req: Request, res: Response, next) => {
    const page = String(req.params.page);
    if (!isKbPage(page)) { next(); return; }
    let html = cache.get(page);
    if (html === undefined) {
      html = renderKbPage(page);
      cache.set(page, html);
    }
    send(res, html);
  });
  return r;
}
