/**
 * Reading and rendering the knowledge pages from `docs/kb/` (beside `server/`, in the
 * repository, the .deb and the image). Rendered with the same small Markdown subset as
 * finding text; every heading gets the anchor findings link to.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blockHtml, escapeHtml, headingsOf } from '../text/markdown.ts';
import { KB_PAGES, KB_PAGE_IDS, parseKbUrl, type KbPageId } from './catalog.ts';

export const KB_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'kb');

export function isKbPage(id: string): id is KbPageId {
  return (KB_PAGE_IDS as string[]).includes(id);
}

export function readKbMarkdown(id: KbPageId, dir: string = KB_DIR): string {
  return readFileSync(join(dir, `${id}.md`), 'utf8');
}

/** Anchors of a page's headings (what a citation's `#…` must name). */
export function kbAnchors(id: KbPageId, dir: string = KB_DIR): string[] {
  return headingsOf(readKbMarkdown(id, dir)).map((h) => h.id);
}

/** Links between pages (`slog.md#x`, `docs/kb/slog.md#x`) point at the served pages. */
function resolveServed(href: string): string {
  const local = /^(?:\.\/)?([a-z-]+)\.md(#[\w-]+)?$/.exec(href);
  if (local && local[1]! in KB_PAGES) return `${local[1]}${local[2] ?? ''}`;
  const k = parseKbUrl(href);
  return k ? `${k.page}${k.anchor ? `#${k.anchor}` : ''}` : href;
}

const STYLE = 'body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}'
  + 'code{font:0.9em ui-monospace,monospace;background:#f1f3f5;padding:0 .2em;border-radius:3px}pre{background:#f1f3f5;padding:.6rem;overflow:auto}'
  + 'h1 a.anchor,h2 a.anchor,h3 a.anchor{color:inherit;text-decoration:none}:target{background:#fff5cc}nav{font-size:.9em}';

/** A whole page, self-contained (no scripts, inline style), for `/docs/kb/<id>`. */
export function renderKbPage(id: KbPageId, dir: string = KB_DIR): string {
  const body = blockHtml(readKbMarkdown(id, dir), resolveServed);
  const nav = KB_PAGE_IDS.map((p) => (p === id ? `<strong>${escapeHtml(KB_PAGES[p].title)}</strong>` : `<a href="${p}">${escapeHtml(KB_PAGES[p].title)}</a>`)).join(' · ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<title>${escapeHtml(KB_PAGES[id].title)} · ZFS Advisor</title><style>${STYLE}</style></head>`
    + `<body><nav>ZFS Advisor knowledge base: ${nav}</nav>\n${body}\n</body></html>\n`;
}

/** The index of all pages. */
export function renderKbIndex(): string {
  const items = KB_PAGE_IDS.map((p) => `<li><a href="kb/${p}">${escapeHtml(KB_PAGES[p].title)}</a></li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Knowledge base · ZFS Advisor</title><style>${STYLE}</style></head>`
    + `<body><h1>ZFS Advisor knowledge base</h1><p>What the advisor's findings rest on, in our words, with the primary sources.</p><ul>${items}</ul></body></html>\n`;
}
