/**
 * Forum exports (`report --for PLACE`): the same report — the same walk over the document, the
 * same sentences (markdown.ts `reportSections`) — in the syntax and within the rules of the place
 * NAS owners ask in.
 *
 * - `truenas-forum` (Discourse): Markdown with tables. A new member may post at most 2 links:
 *   `newuser_max_links: 2` in discourse/discourse config/site_settings.yml (commit
 *   00011e9cd999c967003ea3f629b3386565dec332, section `posting`), counted as every `<a href>` of
 *   the cooked post (app/models/post_analyzer.rb `raw_links`, commit 00a46253ae0eec937d5eeb11cfaca575056e37fd),
 *   so the same address twice counts twice. Discourse autolinks bare addresses
 *   (`enable_markdown_linkify: true`), also without a scheme for the TLDs of
 *   `markdown_linkify_tlds` (same file); `max_post_length: 32000`.
 * - `proxmox-forum` (XenForo): BBCode; it renders no Markdown tables, so tables are preformatted
 *   text in [CODE] blocks (whether this forum's XenForo has a [TABLE] BB code could not be
 *   checked here, and [CODE] works on every version). No length limit is assumed: XenForo's is
 *   a per-site option whose default we could not read.
 * - `reddit`: Markdown (new reddit) with tables and fenced code, for a post: a self post holds
 *   40,000 characters (praw-dev/prawtools#32, "reddit's MAX_BODY_SIZE for self posts is now
 *   40,000"); a comment holds only 10,000 ("this is too long (max: 10000)", Elucidation/schmeckle_bot#4).
 * - `github`: GitHub-flavoured Markdown with <details> around long evidence; an issue body holds
 *   65,536 characters ("body is too long (maximum is 65536 characters)", googleapis/release-please#1034).
 *
 * Links: every address is gathered once, numbered in one list at the end (`[n]` in the text
 * points at it); at most `links` of them are clickable, the rest are written as code (copyable,
 * never linked); `addresses: false` leaves the list out. Addresses in prose are written as code
 * too, so the place cannot autolink them. Every command is in a code block of commands only.
 * A place with a length limit gets the parts that do not fit left out, in `CUT_ORDER`, and a
 * line at the top saying what was left out and how to get the whole report.
 */
import type { ReportDocument } from './document.ts';
import {
  CUT_ORDER, footerLines, markdownMarkup, mdCode, mdInline, mdTable, plainOf, reportSections,
  type BlockKind, type Markup,
} from './markdown.ts';
import { int, plural, reportHref } from './format.ts';
import { parseInline } from '../text/markdown.ts';

import { FORUM_TARGETS, type ForumTarget } from './forum-targets.ts';

export { FORUM_TARGETS, type ForumTarget };

export interface ForumPlace {
  /** How the report names the place. */
  name: string;
  syntax: 'markdown' | 'bbcode';
  /** Characters one post may hold; null: no limit assumed. */
  maxChars: number | null;
  /** Clickable links when the user sets none (the place's limit for a new member); null: no limit. */
  defaultLinks: number | null;
  /** Long evidence inside <details>. */
  details: boolean;
}

export const FORUM_PLACES: Record<ForumTarget, ForumPlace> = {
  'truenas-forum': { name: 'the TrueNAS forum (Discourse)', syntax: 'markdown', maxChars: 32000, defaultLinks: 2, details: false },
  'proxmox-forum': { name: 'the Proxmox forum (XenForo)', syntax: 'bbcode', maxChars: null, defaultLinks: null, details: false },
  reddit: { name: 'a reddit post', syntax: 'markdown', maxChars: 40000, defaultLinks: null, details: false },
  github: { name: 'a GitHub issue', syntax: 'markdown', maxChars: 65536, details: true, defaultLinks: null },
};

export interface ForumOptions {
  target: ForumTarget;
  /** At most this many clickable links (the rest written as code); undefined: the place's default. null: no limit. */
  links?: number | null;
  /** false: no addresses at all (citations by name only, no list of sources). */
  addresses?: boolean;
  /** Where the raw outputs were written (`--appendix`), named in the post. */
  appendixFile?: string | null;
}

/** Discourse's `markdown_linkify_tlds` (site_settings.yml, see above): bare names with these endings become links. */
const LINKIFY_TLDS = 'com|net|org|io|onion|co|tv|ru|cn|us|uk|me|de|fr|fi|gov';
/** Anything a forum would turn into a link by itself: a scheme address, www., or a host name ending in a linkified TLD. */
export const BARE_ADDRESS = new RegExp(
  `(?:\\b(?:https?|ftp)://|\\bwww\\.)[^\\s<>()\\[\\]\`]+|\\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+(?:${LINKIFY_TLDS})\\b(?:/[^\\s<>()\\[\\]\`]*)?`, 'gi',
);

/** Splits text into what may be written as is and the addresses in it. */
function splitAddresses(s: string): { text: string; address: boolean }[] {
  const out: { text: string; address: boolean }[] = [];
  let last = 0;
  for (const m of s.matchAll(BARE_ADDRESS)) {
    // Trailing sentence punctuation is not part of the address.
    const addr = m[0].replace(/[.,;:!?'"]+$/, '');
    if (m.index > last) out.push({ text: s.slice(last, m.index), address: false });
    out.push({ text: addr, address: true });
    last = m.index + addr.length;
  }
  if (last < s.length) out.push({ text: s.slice(last), address: false });
  return out;
}

/**
 * A reference to an address, resolved to its number once the kept parts are known. Written
 * between two private-use characters, which renderForum first removes from the document's text.
 */
const REF_MARK = '\uE000';
const refToken = (url: string): string => `${REF_MARK}ref:${url}${REF_MARK}`;
const REF_RE = /\uE000ref:([^\uE000]*)\uE000/g;

interface Gathered { url: string; title: string }

/** The syntax of a Markdown place: addresses in prose as code, links as numbered references. */
function forumMarkdown(place: ForumPlace, titles: Map<string, string>, addresses: boolean): Markup {
  const esc = (s: string): string => s.replace(/[\\`*_[\]<>|#~]/g, (c) => `\\${c}`);
  const prose = (s: string): string => splitAddresses(s).map((p) => (p.address ? mdCode(p.text) : esc(p.text))).join('');
  const ref = (text: string, url: string): string => {
    if (!addresses) return text;
    if (!titles.has(url)) titles.set(url, text);
    return `${text} ${refToken(url)}`;
  };
  const link = (text: string, href: string): string => ref(prose(text), reportHref(href));
  const text = (s: string): string => mdInline(s, prose, link);
  return markdownMarkup({
    text,
    plain: prose,
    table: (head, rows) => mdTable(head, rows, text),
    citations: (label, cites) => [`**${label}:** ${cites.map((c) => (c.url ? ref(prose(c.text), reportHref(c.url)) : prose(c.text))).join('; ')}`],
    // Folded when longer than a header and four rows: short evidence stays in sight.
    collapsible: (summary, lines) => (place.details && lines.length > 6
      ? ['<details>', `<summary>${summary.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!)}</summary>`, '', ...lines, '', '</details>']
      : lines),
  });
}

/** A closing tag inside text that must stay text (a hostile name, an output) gets a zero-width space, so it closes nothing. */
const ZWSP = '\u200b';
const bbBody = (s: string): string => s.replace(/\[\/(i?code)\]/gi, `[/$1${ZWSP}]`);
const bbCode = (s: string): string => `[ICODE]${bbBody(s)}[/ICODE]`;

/**
 * Text as text: wrapped in [PLAIN] when it has brackets (BB code) or what XenForo's Markdown
 * conversion would format (backticks, **, __, ~~, or * and _ opening a word); a lone `~` or an
 * identifier's `_` stay as they are.
 */
function bbPlainPiece(s: string): string {
  return /[[\]`]|\*\*|__|~~|(?:^|\s)[*_]\S/.test(s) ? `[PLAIN]${s.replace(/\[\/plain\]/gi, `[/PLAIN${ZWSP}]`)}[/PLAIN]` : s;
}

/** A table as preformatted text: columns padded to their widest cell (plain words). */
export function textTable(head: string[], rows: string[][]): string {
  const all = [head, ...rows].map((r) => r.map((c) => plainOf(c).trim()));
  const widths = head.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? '')].length)));
  const line = (r: string[]): string => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat(widths[i]! - [...c].length))).join('  ').trimEnd();
  return [line(all[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)].join('\n');
}

/** The syntax of XenForo: BB code, tables as preformatted text, links as numbered references. */
function forumBbcode(titles: Map<string, string>, addresses: boolean): Markup {
  const plain = (s: string): string => splitAddresses(s).map((p) => (p.address ? bbCode(p.text) : bbPlainPiece(p.text))).join('');
  const ref = (text: string, url: string): string => {
    if (!addresses) return text;
    if (!titles.has(url)) titles.set(url, text);
    return `${text} ${refToken(url)}`;
  };
  const text = (s: string): string => parseInline(s.replace(/\r?\n/g, ' ')).map((t) => {
    switch (t.kind) {
      case 'text': return plain(t.text);
      case 'code': return bbCode(t.text);
      case 'strong': return `[B]${plain(t.text)}[/B]`;
      case 'link': return ref(plain(t.text), reportHref(t.href));
    }
  }).join('');
  const block = (body: string, _kind: BlockKind): string[] => ['[CODE]', bbBody(body.replace(/\s+$/, '')) || '(no output)', '[/CODE]'];
  const sizes = { 1: 6, 2: 5, 3: 4 } as const;
  return {
    text, plain, code: bbCode,
    strong: (s) => `[B]${s}[/B]`,
    em: (s) => `[I]${s}[/I]`,
    heading: (level, s) => (level === 4 ? `[B]${s}[/B]` : `[SIZE=${sizes[level]}][B]${s}[/B][/SIZE]`),
    table: (head, rows) => block(textTable(head, rows), 'output'),
    block,
    list: (items, ordered = false) => [ordered ? '[LIST=1]' : '[LIST]', ...items.map((s) => `[*]${s}`), '[/LIST]'],
    quote: (s) => [`[QUOTE]${s}[/QUOTE]`],
    lineBreak: '\n',
    rule: () => [],
    citations: (label, cites) => [`[B]${label}:[/B] ${cites.map((c) => (c.url ? ref(plain(c.text), reportHref(c.url)) : plain(c.text))).join('; ')}`],
    collapsible: (_summary, lines) => lines,
  };
}

/** Numbers the references of the kept text in order of first use; the first `links` become links in the list. */
function resolveReferences(body: string, mark: (n: number) => string): { body: string; order: string[] } {
  const order: string[] = [];
  const index = new Map<string, number>();
  const out = body.replace(REF_RE, (_m, url: string) => {
    if (!index.has(url)) { order.push(url); index.set(url, order.length); }
    return mark(index.get(url)!);
  });
  return { body: out, order };
}

function sourcesLines(m: Markup, syntax: ForumPlace['syntax'], gathered: Gathered[], links: number | null, placeName: string, capped: boolean): string[] {
  if (gathered.length === 0) return [];
  const clickable = links === null ? gathered.length : Math.min(links, gathered.length);
  const item = (g: Gathered, i: number): string => {
    if (i < clickable) return syntax === 'bbcode' ? `[URL=${g.url}]${g.title}[/URL]` : `[${g.title}](${g.url.replace(/[()\s]/g, encodeURIComponent)})`;
    return `${g.title}: ${m.code(g.url)}`;
  };
  const out = [m.heading(2, 'Sources'), ''];
  if (clickable < gathered.length) {
    const which = clickable === 0 ? 'No address is a link, each is written as code to copy'
      : `The first ${clickable === 1 ? 'address is a link' : `${clickable} addresses are links`}, the others are written as code to copy`;
    out.push(`${which}${capped ? `: a new member of ${m.plain(placeName)} may post ${plural(links ?? 0, 'link')}` : ''} (${m.code('--links N')} sets how many).`, '');
  }
  out.push(...m.list(gathered.map(item), true), '');
  return out;
}

export interface ForumRendering {
  body: string;
  /** Parts left out to fit the place's length limit, by the names the report gives them. */
  leftOut: string[];
  /** Clickable links in the body. */
  links: number;
}

export function renderForum(input: ReportDocument, opts: ForumOptions): ForumRendering {
  const doc = JSON.parse(JSON.stringify(input).replaceAll(REF_MARK, '')) as ReportDocument;
  const place = FORUM_PLACES[opts.target];
  const addresses = opts.addresses !== false;
  const links = opts.links === undefined ? place.defaultLinks : opts.links;
  const capped = opts.links === undefined && place.defaultLinks !== null;
  const titles = new Map<string, string>();
  const m = place.syntax === 'bbcode' ? forumBbcode(titles, addresses) : forumMarkdown(place, titles, addresses);
  const sections = reportSections(doc, m, { appendixFile: opts.appendixFile ?? null });
  const footer = footerLines(m, doc);
  const limit = place.maxChars;

  const build = (dropped: Set<string>): ForumRendering => {
    const kept = sections.filter((s) => !dropped.has(s.key));
    const leftOut = sections.filter((s) => dropped.has(s.key)).map((s) => s.cut!);
    const notice = leftOut.length
      ? [`${m.strong('Shortened')} to fit ${m.plain(place.name)} (${int(limit ?? 0)} characters): left out ${leftOut.join(', ')}. The whole report: ${m.code('zfs-advisor report --format md -o report.md')}, attached as a file.`, '']
      : [];
    const [head, ...rest] = kept;
    const { body, order } = resolveReferences([...(head?.lines ?? []), ...notice, ...rest.flatMap((s) => s.lines)].join('\n'),
      // [n] is no BB code; in Markdown the brackets are escaped so that no reference link can form.
      place.syntax === 'bbcode' ? (n) => `[${n}]` : (n) => `\\[${n}\\]`);
    const gathered = order.map((url) => ({ url, title: titles.get(url) ?? url }));
    const sources = addresses ? sourcesLines(m, place.syntax, gathered, links, place.name, capped) : [];
    const text = [body, ...sources, ...footer].join('\n');
    const clickable = links === null ? gathered.length : Math.min(links, gathered.length);
    return { body: text, leftOut, links: addresses ? clickable : 0 };
  };

  const dropped = new Set<string>();
  let out = build(dropped);
  for (const key of CUT_ORDER) {
    if (limit === null || out.body.length <= limit) break;
    if (!sections.some((s) => s.key === key)) continue;
    dropped.add(key);
    out = build(dropped);
  }
  return out;
}

/** What a rendered forum export is served as. */
export function forumContentType(target: ForumTarget): string {
  return FORUM_PLACES[target].syntax === 'bbcode' ? 'text/plain; charset=utf-8' : 'text/markdown; charset=utf-8';
}
export function forumFileExtension(target: ForumTarget): 'md' | 'txt' {
  return FORUM_PLACES[target].syntax === 'bbcode' ? 'txt' : 'md';
}
