/**
 * Forum exports (`report --for PLACE`, report/forum.ts) of the demo snapshots and of real OpenZFS
 * lab captures (tests/fixtures/lab), checked the way each place would read them:
 *
 * - links counted as Discourse counts them: every <a href> of the cooked post
 *   (discourse/discourse app/models/post_analyzer.rb `raw_links`), i.e. Markdown links and
 *   images, <autolinks>, HTML anchors, and the bare addresses its linkify turns into links
 *   (scheme or www., and host names ending in a TLD of `markdown_linkify_tlds`,
 *   config/site_settings.yml) — outside code, which Discourse never links;
 * - Markdown structure: fences closed, table rows as wide as their header, no HTML (GitHub:
 *   <details> only), every [n] a numbered source and every source used;
 * - BB code: tags balanced and nested, no Markdown table or fence, no bare address;
 * - commands: every line of a shell block is a `#` comment or a command of a program the app
 *   tells people to run, and `bash -n` parses the block.
 * This file counts links with its own patterns, not the renderer's.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import type { ReportDocument } from '../../server/src/report/document.ts';
import { FORUM_PLACES, renderForum, type ForumOptions } from '../../server/src/report/forum.ts';
import { mdText } from '../../server/src/report/markdown.ts';
import { renderReport, reportDocument } from '../../server/src/report/render.ts';
import { benchHistory, loadDemo, reportInput } from './support.ts';

const LAB = join(import.meta.dirname, '..', 'fixtures', 'lab');
/** Every lab capture: OpenZFS version directory / case. */
const LAB_CASES = readdirSync(LAB).flatMap((v) => readdirSync(join(LAB, v)).map((c) => `${v}/${c}`));

async function labDoc(name: string): Promise<ReportDocument> {
  return reportDocument(reportInput(await loadSnapshotInventory(join(LAB, name), false)));
}
async function demoDoc(name: '000-hdd-mirror-optane' | '001-raidz2-12disk'): Promise<ReportDocument> {
  return reportDocument(reportInput(await loadDemo(name), name === '000-hdd-mirror-optane' ? benchHistory() : []));
}

interface Block { lang: string; lines: string[] }
/** Prose lines and fenced blocks; throws when a fence is left open. */
function parseMarkdown(md: string): { prose: string[]; blocks: Block[] } {
  const prose: string[] = [];
  const blocks: Block[] = [];
  let open: { fence: string; block: Block } | null = null;
  for (const line of md.split('\n')) {
    if (open) {
      if (line === open.fence) { blocks.push(open.block); open = null; } else open.block.lines.push(line);
      continue;
    }
    const m = /^(`{3,})([\w-]*)$/.exec(line);
    if (m) { open = { fence: m[1]!, block: { lang: m[2]!, lines: [] } }; continue; }
    prose.push(line);
  }
  if (open) throw new Error(`unclosed fence ${open.fence}${open.block.lang}`);
  return { prose, blocks };
}

/** Discourse's `markdown_linkify_tlds` default (config/site_settings.yml). */
const LINKIFY_TLDS = ['com', 'net', 'org', 'io', 'onion', 'co', 'tv', 'ru', 'cn', 'us', 'uk', 'me', 'de', 'fr', 'fi', 'gov'];
const BARE = new RegExp(`\\b(?:https?|ftp)://\\S+|\\bwww\\.\\S+|\\b[a-z0-9-]+(?:\\.[a-z0-9-]+)*\\.(?:${LINKIFY_TLDS.join('|')})\\b`, 'gi');

/** How many <a href> Discourse would make of this Markdown (every occurrence counts). */
function discourseLinks(md: string): number {
  let n = 0;
  const take = (s: string, re: RegExp): string => s.replace(re, () => { n++; return ' '; });
  for (const raw of parseMarkdown(md).prose) {
    let line = raw.replace(/\\`/g, ' ');
    line = line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, ' '); // code spans are never linked
    line = line.replace(/\\[\\`*_{}[\]()#+\-.!<>|~]/g, ' '); // escaped characters are literal
    line = take(line, /!?\[[^\]]*\]\([^)\s]+\)/g);
    line = take(line, /<(?:https?|ftp):[^>\s]+>/gi);
    line = take(line, /<a\s[^>]*href/gi);
    take(line, BARE);
  }
  return n;
}

/** Programs the app tells people to run; anything else at the start of a shell line is prose. */
const PROGRAMS = new Set(['zpool', 'zfs', 'zfs-advisor', 'midclt', 'smartctl', 'sudo', 'dd', 'nvme', 'lsblk', 'wipefs', 'blkdiscard', 'sgdisk', 'zdb', 'fio', 'qm', 'pvesm', 'arc_summary']);

/** Every shell block: each line a `#` comment or a command of a known program, and bash parses it. */
function expectPasteableShell(blocks: Block[], where: string): number {
  const shell = blocks.filter((b) => b.lang === 'sh');
  for (const b of shell) {
    const text = b.lines.join('\n');
    const logical = text.replace(/\\\n/g, ' ').split('\n');
    for (const line of logical) {
      if (line.startsWith('#')) continue;
      expect(PROGRAMS.has(line.split(/\s+/)[0]!), `${where}: not a command: ${line}`).toBe(true);
    }
    // A <placeholder> the rules write for what is not there yet (a device still to buy, "<6 disks
    // by id>") is a blank to fill in, which no shell could run as is; with it filled, the block parses.
    const filled = text.replace(/<[A-Za-z0-9][^<>\n]*>/g, 'FILLED');
    const r = spawnSync('bash', ['-n'], { input: filled, encoding: 'utf8' });
    expect(r.status, `${where}: bash -n: ${r.stderr}\n${text}`).toBe(0);
  }
  return shell.length;
}

/** Markdown that renders as intended: tables, no stray HTML, references and sources that match. */
function expectWellFormedMarkdown(md: string, doc: ReportDocument, opts: { details: boolean }): void {
  const { prose } = parseMarkdown(md);
  let cols = 0;
  let row = 0;
  for (const line of prose) {
    if (!line.startsWith('|')) { cols = 0; row = 0; continue; }
    const n = line.replace(/\\\|/g, '').split('|').length - 2;
    row++;
    if (row === 1) cols = n;
    else expect(n, line).toBe(cols);
    if (row === 2) expect(line, 'delimiter row').toMatch(/^\|(?: --- \|)+$/);
  }
  const html = prose.map((l) => l.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, '')).filter((l) => /(?<!\\)<\/?[A-Za-z][^>]*>/.test(l));
  if (opts.details) for (const l of html) expect(l, l).toMatch(/^(?:<details>|<\/details>|<summary>[^<]*<\/summary>)$/);
  else expect(html).toEqual([]);
  expect(prose.filter((l) => l === '<details>').length).toBe(prose.filter((l) => l === '</details>').length);
  // One author: every finding of the document is there, in the words of the Markdown report.
  for (const f of doc.findings.filter((x) => x.severity === 'critical' || x.severity === 'warning')) expect(md).toContain(`. ${mdText(f.title)}`);
  // References [n] and the numbered sources.
  const refs = new Set([...md.matchAll(/\\\[(\d+)\\\]/g)].map((m) => Number(m[1])));
  const start = prose.indexOf('## Sources');
  const entries = start < 0 ? [] : prose.slice(start).filter((l) => /^\d+\. /.test(l));
  expect(entries.map((l) => Number(/^(\d+)\./.exec(l)![1]))).toEqual(entries.map((_, i) => i + 1));
  expect([...refs].sort((a, b) => a - b)).toEqual(entries.map((_, i) => i + 1));
  const urls = entries.map((l) => /\]\(([^)]+)\)$|: `([^`]+)`$/.exec(l)).map((m) => m?.[1] ?? m?.[2]);
  expect(urls.every(Boolean), entries.join('\n')).toBe(true);
  expect(new Set(urls).size, 'each address once').toBe(urls.length);
}

describe('report --for truenas-forum (Discourse)', () => {
  const cases: [string, () => Promise<ReportDocument>][] = [
    ['demo 000', () => demoDoc('000-hdd-mirror-optane')],
    ['demo 001', () => demoDoc('001-raidz2-12disk')],
    ...LAB_CASES.map((c): [string, () => Promise<ReportDocument>] => [`lab ${c}`, () => labDoc(c)]),
  ];

  it.each(cases)('%s: at most 2 links as Discourse counts them, well-formed, commands that paste into a shell', async (name, load) => {
    const doc = await load();
    const post = renderForum(doc, { target: 'truenas-forum' });
    expect(discourseLinks(post.body), name).toBeLessThanOrEqual(2);
    expect(discourseLinks(post.body)).toBe(post.links);
    expect(post.body.length).toBeLessThanOrEqual(32000);
    expectWellFormedMarkdown(post.body, doc, { details: false });
    expectPasteableShell(parseMarkdown(post.body).blocks, name);
  });

  it('the demo cites more than 2 addresses: the first 2 are links, the others code to copy, each once, and the post says why', async () => {
    const doc = await demoDoc('000-hdd-mirror-optane');
    const md = renderForum(doc, { target: 'truenas-forum' }).body;
    expect(md).toContain('The first 2 addresses are links, the others are written as code to copy: a new member of the TrueNAS forum (Discourse) may post 2 links (`--links N` sets how many).');
    expect(md).toMatch(/\n1\. \[[^\]]+\]\(https:\/\/[^)]+\)\n2\. \[[^\]]+\]\(https:\/\/[^)]+\)\n3\. .+: `https:\/\/[^`]+`\n/);
    // The Markdown report links every citation at each finding; the post numbers each address once.
    expect(discourseLinks((await renderReport(reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory()), { format: 'md' })).body as string)).toBeGreaterThan(2);
    // The pasted-into-shell defect of the issue: the comment is no longer part of the command.
    const d001 = renderForum(await demoDoc('001-raidz2-12disk'), { target: 'truenas-forum' }).body;
    expect(d001).toContain('```sh\n# Current sync-write latency of storage (the "now" figures are a model estimate)\nzfs-advisor bench sync-write-4k-qd1 --pool storage\n# Does storage receive sync writes, and how many per second? Observe during normal use\nzfs-advisor observe --duration 10m\n```');
    expect(d001).not.toContain('(during normal use)`');
  });

  it('--links N and --no-links', async () => {
    const doc = await labDoc('2.4/all-classes');
    const all = renderForum(doc, { target: 'truenas-forum', links: null });
    expect(all.links).toBeGreaterThan(5);
    expect(discourseLinks(all.body)).toBe(all.links);
    const five = renderForum(doc, { target: 'truenas-forum', links: 5 });
    expect(discourseLinks(five.body)).toBe(5);
    expect(five.body).toContain('The first 5 addresses are links, the others are written as code to copy (`--links N` sets how many).');
    const none = renderForum(doc, { target: 'truenas-forum', links: 0 });
    expect(discourseLinks(none.body)).toBe(0);
    expect(none.body).toContain('No address is a link, each is written as code to copy (`--links N` sets how many).');
    const bare = renderForum(doc, { target: 'truenas-forum', addresses: false });
    expect(discourseLinks(bare.body)).toBe(0);
    expect(bare.body).not.toMatch(/https?:\/\//);
    expect(bare.body).not.toContain('## Sources');
    expect(bare.body).not.toMatch(/\\\[\d+\\\]/);
    expectWellFormedMarkdown(bare.body, doc, { details: false });
  });

  it('a host name or address in prose is written as code, so Discourse does not link it', async () => {
    const doc = await demoDoc('000-hdd-mirror-optane');
    expect(doc.host.hostname).toMatch(/\.net$/);
    const md = renderForum(doc, { target: 'truenas-forum' }).body;
    expect(md).toContain(`- Host: \`${doc.host.hostname}\``);
    const withUrl: ReportDocument = { ...doc, gaps: [...doc.gaps, { artifact: 'Report', source: 'test', message: 'see https://example.com/x and www.example.org, or docs.example.io', line: null, severity: 'info' }] };
    const post = renderForum(withUrl, { target: 'truenas-forum', links: 0 });
    expect(discourseLinks(post.body)).toBe(0);
    expect(post.body).toContain('see `https://example.com/x` and `www.example.org`, or `docs.example.io`');
  });
});

/** BB code: a stack of the tags the renderer writes; CODE, ICODE and PLAIN hold raw text. */
const BB_TAGS = ['B', 'I', 'U', 'SIZE', 'QUOTE', 'LIST', 'CODE', 'ICODE', 'PLAIN', 'URL'];
function checkBbcode(text: string): { urls: number; outside: string } {
  const stack: string[] = [];
  let urls = 0;
  let outside = '';
  const re = /\[(\/?)([A-Za-z]+|\*)(?:=[^\]]*)?\]/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    const tag = m[2]!.toUpperCase();
    const raw = stack.at(-1);
    if (raw === 'CODE' || raw === 'ICODE' || raw === 'PLAIN') {
      if (m[1] === '/' && tag === raw) { stack.pop(); last = m.index + m[0].length; }
      continue;
    }
    outside += text.slice(last, m.index);
    last = m.index + m[0].length;
    if (tag === '*') { expect(stack.at(-1), `[*] outside a list at ${m.index}`).toBe('LIST'); continue; }
    if (!BB_TAGS.includes(tag)) continue; // not a tag: [1], [7] stay text
    if (m[1] === '/') expect(stack.pop(), `[/${tag}] at ${m.index}: ${text.slice(Math.max(0, m.index - 80), m.index + 20)}`).toBe(tag);
    else { stack.push(tag); if (tag === 'URL') urls++; }
  }
  outside += text.slice(last);
  expect(stack, 'every tag closed').toEqual([]);
  return { urls, outside };
}

describe('report --for proxmox-forum (XenForo BB code)', () => {
  it.each([['demo 000'], ['lab 2.4/all-classes'], ['lab 2.1/errors-and-faulted-log']])('%s: balanced tags, tables as preformatted text, no Markdown, no bare address', async (name) => {
    const doc = name === 'demo 000' ? await demoDoc('000-hdd-mirror-optane') : await labDoc(name.slice(4));
    const post = renderForum(doc, { target: 'proxmox-forum' });
    const { urls, outside } = checkBbcode(post.body);
    expect(urls).toBe(post.links);
    for (const line of outside.split('\n')) {
      expect(line, 'a Markdown table row').not.toMatch(/^\s*\|.*\|\s*$/);
      expect(line, 'a Markdown fence').not.toMatch(/^```/);
      expect(line, 'a Markdown heading').not.toMatch(/^#{1,6} /);
      expect(line.replace(/\[URL=[^\]]*\]/g, ''), 'a bare address XenForo would link').not.toMatch(/\bhttps?:\/\//);
    }
    // The evidence of a finding is a padded text table inside [CODE].
    expect(post.body).toMatch(/\[CODE\]\nEvidence {2,}Value\n-+ {2}-+\n/);
    // Commands: the same shell blocks as the Markdown (one walk), in [CODE].
    const md = renderForum(doc, { target: 'github' }).body;
    for (const b of parseMarkdown(md).blocks.filter((x) => x.lang === 'sh')) expect(post.body).toContain(`[CODE]\n${b.lines.join('\n')}\n[/CODE]`);
  });

  it('a name with BB code or Markdown in it stays text', async () => {
    const doc = await demoDoc('000-hdd-mirror-optane');
    const hostile: ReportDocument = { ...doc, gaps: [{ artifact: 'Report', source: 'test', message: 'pool [B]x[/B] and **y** [/PLAIN] [URL=javascript:1]z[/URL]', line: null, severity: 'info' }] };
    const post = renderForum(hostile, { target: 'proxmox-forum' });
    expect(checkBbcode(post.body).urls).toBe(post.links);
    expect(post.body).toContain('[*][PLAIN]info: Report from test: pool [B]x[/B] and [/PLAIN][B]y[/B][PLAIN] [/PLAIN\u200b] [URL=javascript:1]z[/URL][/PLAIN]');
  });
});

describe('report --for reddit and github: length limits', () => {
  /** A host with many findings: the all-classes capture with its findings repeated under new titles. */
  async function bigDoc(times: number): Promise<ReportDocument> {
    const doc = await labDoc('2.1/all-classes');
    const findings = Array.from({ length: times }, (_, i) => doc.findings.map((f) => ({ ...f, title: `${f.title} (copy ${i + 1})` }))).flat();
    return { ...doc, findings };
  }

  it('reddit: a post too long for 40,000 characters is cut, and says what was left out', async () => {
    const doc = await bigDoc(4);
    const full = renderForum(doc, { target: 'reddit', links: null });
    expect(FORUM_PLACES.reddit.maxChars).toBe(40000);
    expect(full.body.length).toBeLessThanOrEqual(40000);
    expect(full.leftOut.length).toBeGreaterThan(0);
    expect(full.body).toContain(`**Shortened** to fit a reddit post (40,000 characters): left out ${full.leftOut.join(', ')}. The whole report: \`zfs-advisor report --format md -o report.md\`, attached as a file.`);
    if (full.leftOut.includes('the datasets table')) expect(full.body).not.toContain('## Datasets');
    if (full.leftOut.includes('the suggestions')) expect(full.body).not.toContain('### Suggestion (');
    // Critical findings and warnings are never left out.
    expectWellFormedMarkdown(full.body, doc, { details: false });
    expectPasteableShell(parseMarkdown(full.body).blocks, 'reddit');
    // A post that fits is not cut and says nothing about it.
    const small = renderForum(await demoDoc('001-raidz2-12disk'), { target: 'reddit' });
    expect(small.leftOut).toEqual([]);
    expect(small.body).not.toContain('Shortened');
  });

  it('github: long evidence folded in <details>, within 65,536 characters', async () => {
    const doc = await labDoc('2.4/all-classes');
    const post = renderForum(doc, { target: 'github' });
    expect(post.body).toMatch(/<details>\n<summary>Evidence \(\d+\)<\/summary>\n\n\| Evidence \| Value \|/);
    expect(post.body.length).toBeLessThanOrEqual(65536);
    expectWellFormedMarkdown(post.body, doc, { details: true });
    const big = renderForum(await bigDoc(8), { target: 'github' });
    expect(big.body.length).toBeLessThanOrEqual(65536);
    expect(big.leftOut.length).toBeGreaterThan(0);
  });
});

describe('renderReport with a forum', () => {
  it('serves Markdown places as text/markdown and XenForo as text/plain, named for the place', async () => {
    const input = reportInput(await loadDemo('000-hdd-mirror-optane'));
    const forum: ForumOptions = { target: 'proxmox-forum' };
    const bb = await renderReport(input, { format: 'md', forum });
    expect(bb.contentType).toBe('text/plain; charset=utf-8');
    expect(bb.fileName).toMatch(/^zfs-advisor-report-bench-pool-2025-01-01\.proxmox-forum\.txt$/);
    const tn = await renderReport(input, { format: 'md', forum: { target: 'truenas-forum' } });
    expect(tn.contentType).toBe('text/markdown; charset=utf-8');
    expect(tn.forum).toEqual({ chars: (tn.body as string).length, links: 2, leftOut: [] });
    await expect(renderReport(input, { format: 'html', forum })).rejects.toThrow(/from the Markdown report/);
  });
});
