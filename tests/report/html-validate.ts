/**
 * A strict structural validator for the self-contained HTML report, on happy-dom (no scripts
 * run, nothing fetched): doctype, lang, charset, title, one h1, unique ids, fragment links that
 * resolve, SVG charts with role=img and a title, no script/iframe/object/img/link elements, no
 * external URL in any resource attribute or CSS url(), only https citation anchors with rel,
 * rectangular tables, no skipped heading levels, a restrictive CSP. Returns the problems found.
 */
import { Window } from 'happy-dom';

const RESOURCE_ATTRS = ['src', 'srcset', 'data', 'poster', 'background', 'action', 'formaction', 'xlink:href', 'ping', 'manifest', 'codebase'];

export function validate(html: string): string[] {
  const problems: string[] = [];
  if (!html.startsWith('<!DOCTYPE html>\n')) problems.push('missing doctype');
  const window = new Window({ settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true } });
  const document = window.document;
  document.write(html);
  const root = document.documentElement;
  if (root.getAttribute('lang') !== 'en') problems.push('no lang on <html>');
  if (!document.querySelector('head > meta[charset="utf-8"]')) problems.push('no charset');
  if (!document.querySelector('head > title')?.textContent?.trim()) problems.push('empty title');
  if (document.querySelectorAll('h1').length !== 1) problems.push('not exactly one h1');
  for (const tag of ['script', 'iframe', 'object', 'embed', 'img', 'link', 'base', 'form', 'video', 'audio', 'source']) {
    if (document.querySelectorAll(tag).length) problems.push(`<${tag}> present`);
  }
  const ids = new Map<string, number>();
  for (const el of document.querySelectorAll('[id]')) ids.set(el.id, (ids.get(el.id) ?? 0) + 1);
  for (const [id, n] of ids) if (n > 1) problems.push(`duplicate id ${id}`);
  for (const el of document.querySelectorAll('*')) {
    for (const a of RESOURCE_ATTRS) if (el.hasAttribute(a)) problems.push(`<${el.tagName.toLowerCase()} ${a}>`);
    const style = el.getAttribute('style');
    if (style && /url\(/i.test(style)) problems.push('url() in style attribute');
    if (el.tagName === 'A') {
      const href = el.getAttribute('href') ?? '';
      if (href.startsWith('#')) { if (!ids.has(href.slice(1))) problems.push(`dangling link ${href}`); } else if (!/^https:\/\/[^\s]+$/.test(href)) problems.push(`unexpected link ${href}`);
      if (!href.startsWith('#') && el.getAttribute('rel') !== 'noopener noreferrer') problems.push('external link without rel');
    } else if (el.hasAttribute('href')) problems.push(`href on <${el.tagName.toLowerCase()}>`);
  }
  for (const s of document.querySelectorAll('style')) {
    if (/url\(|@import|@font-face/i.test(s.textContent ?? '')) problems.push('external reference in CSS');
  }
  for (const svg of document.querySelectorAll('svg')) {
    if (svg.getAttribute('role') !== 'img' || !svg.querySelector('title')?.textContent) problems.push('svg without role=img and title');
  }
  for (const tbl of document.querySelectorAll('table')) {
    const widths = [...tbl.querySelectorAll('tr')].map((tr) => tr.children.length);
    if (new Set(widths).size > 1) problems.push('table with ragged rows');
  }
  let last = 1;
  for (const h of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const level = Number(h.tagName[1]);
    if (level > last + 1) problems.push(`heading ${h.tagName} after h${last}: ${h.textContent}`);
    last = level;
  }
  const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '';
  if (!csp.includes("default-src 'none'")) problems.push('no restrictive CSP');
  window.close();
  return problems;
}
