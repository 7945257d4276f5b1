/**
 * The one small Markdown subset finding text and the knowledge pages are written in, and its
 * renderers. Inline: `code`, [text](url), **strong**. Blocks (knowledge pages): # headings,
 * paragraphs, "- " lists, ``` fences. Everything else is text, and all text is HTML-escaped:
 * findings carry pool, dataset and device names that a hostile host chooses. Pure (the UI
 * bundles it too).
 */

export type InlineToken =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; text: string }
  | { kind: 'link'; text: string; href: string };

const INLINE = /(`+)([\s\S]*?[^`])\1(?!`)|\[([^[\]\n]+)\]\(([^()\s]+)\)|\*\*([^*\n]+)\*\*/g;

/** Links only to http(s), anchors and knowledge pages (`docs/kb/x.md#a`, `x.md#a`): never javascript: and friends. */
export function safeHref(href: string): string | null {
  if (/^https?:\/\/[^\s<>"']+$/i.test(href)) return href;
  if (/^#[\w-]+$/.test(href)) return href;
  if (/^(?:docs\/kb\/)?[a-z0-9-]+\.md(?:#[\w-]+)?$/.test(href)) return href;
  return null;
}

export function parseInline(text: string): InlineToken[] {
  const out: InlineToken[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    if (m[1] !== undefined) {
      // CommonMark: one leading and trailing space is stripped when both are present.
      const body = m[2]!;
      out.push({ kind: 'code', text: /^ .* $/s.test(body) && body.trim() !== '' ? body.slice(1, -1) : body });
    } else if (m[3] !== undefined) {
      const href = safeHref(m[4]!);
      out.push(href ? { kind: 'link', text: m[3], href } : { kind: 'text', text: m[0] });
    } else out.push({ kind: 'strong', text: m[5]! });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Inline Markdown as HTML; `resolve` maps a link target (e.g. a docs path for the served app). */
export function inlineHtml(text: string, resolve: (href: string) => string = (h) => h): string {
  return parseInline(text).map((t) => {
    switch (t.kind) {
      case 'text': return escapeHtml(t.text);
      case 'code': return `<code>${escapeHtml(t.text)}</code>`;
      case 'strong': return `<strong>${escapeHtml(t.text)}</strong>`;
      case 'link': return `<a href="${escapeHtml(resolve(t.href))}" rel="noopener noreferrer">${escapeHtml(t.text)}</a>`;
    }
  }).join('');
}

/** Inline Markdown as plain text for terminals and PDFs: no backticks, links as "text (url)". */
export function inlinePlain(text: string, resolve: (href: string) => string = (h) => h): string {
  return parseInline(text).map((t) => (t.kind === 'link' ? (t.text === t.href ? t.text : `${t.text} (${resolve(t.href)})`) : t.text)).join('');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function slugify(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

export interface Heading { level: number; text: string; id: string }

/** Headings with their anchors, duplicates numbered as GitHub does (-1, -2…). */
export function headingsOf(markdown: string): Heading[] {
  const seen = new Map<string, number>();
  const out: Heading[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^(#{1,4})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slugify(parseInline(m[2]!).map((t) => t.text).join(''));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.push({ level: m[1]!.length, text: m[2]!, id: n === 0 ? base : `${base}-${n}` });
  }
  return out;
}

/** A knowledge page as HTML body content: headings carry their anchors, so findings can link to a paragraph. */
export function blockHtml(markdown: string, resolve: (href: string) => string = (h) => h): string {
  const heads = headingsOf(markdown);
  const out: string[] = [];
  let para: string[] = [];
  let list: string[] = [];
  let code: string[] | null = null;
  let h = 0;
  const flush = () => {
    if (para.length) out.push(`<p>${inlineHtml(para.join(' '), resolve)}</p>`);
    if (list.length) out.push(`<ul>${list.map((li) => `<li>${inlineHtml(li, resolve)}</li>`).join('')}</ul>`);
    para = [];
    list = [];
  };
  for (const line of markdown.split('\n')) {
    if (code) {
      if (line.startsWith('```')) { out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`); code = null; } else code.push(line);
      continue;
    }
    if (line.startsWith('```')) { flush(); code = []; continue; }
    const head = /^(#{1,4})\s+(.+?)\s*#*\s*$/.exec(line);
    if (head) {
      flush();
      const hd = heads[h++]!;
      out.push(`<h${hd.level} id="${escapeHtml(hd.id)}"><a class="anchor" href="#${escapeHtml(hd.id)}">${inlineHtml(hd.text, resolve)}</a></h${hd.level}>`);
    } else if (/^\s*[-*]\s+/.test(line)) {
      if (para.length) { out.push(`<p>${inlineHtml(para.join(' '), resolve)}</p>`); para = []; }
      list.push(line.replace(/^\s*[-*]\s+/, ''));
    } else if (line.trim() === '') flush();
    else if (list.length && /^\s+/.test(line)) list[list.length - 1] += ` ${line.trim()}`;
    else { if (list.length) flush(); para.push(line.trim()); }
  }
  if (code) out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
  flush();
  return out.join('\n');
}

/**
 * Model text (inline Markdown, line by line) as a terminal shows it: no backticks, no bracket
 * syntax; a link reads "text <address>", or just the address when the text is the address.
 */
export function terminalText(text: string, resolve: (href: string) => string = (h) => h): string {
  return text.split('\n').map((line) => parseInline(line).map((t) => {
    if (t.kind !== 'link') return t.text;
    const href = resolve(t.href);
    return t.text === t.href || t.text === href ? href : `${t.text} <${href}>`;
  }).join('')).join('\n');
}
