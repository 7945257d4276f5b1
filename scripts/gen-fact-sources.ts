/**
 * Generates rules/lib/fact-sources.ts: for every numbered fact of the shared fact sheet
 * (../shared/reference/zfs-facts.md), the primary sources it names, as links a reader can open.
 * The fact sheet itself is not shipped; its sources are.
 *
 *   npx tsx scripts/gen-fact-sources.ts [--facts FILE] [--zfs-git DIR]
 *
 * `zfs@TAG:path` becomes the file at that tag on GitHub; with --zfs-git (a clone of openzfs/zfs)
 * a named symbol (`zio_alloc_zil`) or man-page item gets its line number at that tag. `HEAD`
 * (the fact sheet's master snapshot) is linked at the newest release tag when the file and
 * symbol exist there, else at the snapshot commit. `docs:Path` becomes the rendered OpenZFS
 * documentation page, `commit SHA` and `#NNNN` the openzfs/zfs commit and issue.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { facts: { type: 'string' }, 'zfs-git': { type: 'string' } } });
const factsFile = values.facts ?? join(root, '..', 'shared', 'reference', 'zfs-facts.md');
const git = values['zfs-git'];

const HEAD_COMMIT = 'be7657e3f2788c4e5edb635d0bc5c24eff9eb2db';
const LATEST_TAG = 'zfs-2.4.4';
const GH = 'https://github.com/openzfs/zfs';
const DOCS = 'https://openzfs.github.io/openzfs-docs';

interface Source { source: string; locator: string | null; url: string }

const fileCache = new Map<string, string | null>();
function fileAt(ref: string, path: string): string | null {
  if (!git) return null;
  const key = `${ref}:${path}`;
  if (!fileCache.has(key)) {
    try { fileCache.set(key, execFileSync('git', ['-C', git, 'show', key], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'ignore'] })); } catch { fileCache.set(key, null); }
  }
  return fileCache.get(key)!;
}

/** The line defining `symbol`: a C function at column 0, a struct/enum/typedef, or a man-page item. */
function lineOf(text: string, symbol: string): number | null {
  const lines = text.split('\n');
  const esc = symbol.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const patterns = [
    new RegExp(`^${esc}\\(`), new RegExp(`^(typedef )?(enum|struct) ${esc}\\b`), new RegExp(`\\}\\s*${esc};`),
    new RegExp(`^\\.It Sy ${esc}\\b`), new RegExp(`^\\.It ${esc}\\b`), new RegExp(`^\\.It Sy ${esc}=`), new RegExp(`^\\.Ss .*${esc}`),
    new RegExp(`\\b${esc}\\b`),
  ];
  for (const p of patterns) {
    const i = lines.findIndex((l) => p.test(l));
    if (i >= 0) return i + 1;
  }
  return null;
}

function zfsSource(tag: string, path: string, symbol: string | null): Source {
  let ref = tag === 'HEAD' ? HEAD_COMMIT : tag;
  let text = fileAt(ref, path);
  if (tag === 'HEAD') {
    const released = fileAt(LATEST_TAG, path);
    if (released !== null && (!symbol || lineOf(released, symbol) !== null)) { ref = LATEST_TAG; text = released; }
  }
  const line = text !== null && symbol ? lineOf(text, symbol) : null;
  const man = /^man\/man(\d)\/(.+)\.\d$/.exec(path);
  const name = man ? `OpenZFS ${man[2]}(${man[1]})` : `OpenZFS ${path}`;
  const at = ref === HEAD_COMMIT ? 'master snapshot' : ref;
  return { source: `${name} at ${at}`, locator: symbol, url: `${GH}/blob/${ref}/${path}${line ? `#L${line}` : ''}` };
}

function sourcesOf(raw: string): Source[] {
  const body = raw.replace(/\s*\n\s*/g, ' ');
  const out: Source[] = [];
  const re = /`zfs@([^:`]+):([^`]+)`(?:\s*\(`([^`]+)`)?|`docs:([^`]+)`(?:\s*\(([^)]+)\))?|\bcommit ([0-9a-f]{7,40})\b|(?:issue|PR|PRs|issues|#)\s*#?(\d{3,5})\b|(https:\/\/[^\s)>"'`;,]+[^\s)>"'`;,.])|FreeBSD r(\d{6})\b|\b(truenas\/documentation)@([\w./-]+\.md)/g;
  for (const m of body.matchAll(re)) {
    if (m[1] && m[2]) {
      if (m[1] === 'TAG' || m[2].includes('…') || m[1].includes('/')) continue;
      out.push(zfsSource(m[1], m[2], m[3]?.replace(/[=\s].*$/, '') ?? null));
    } else if (m[4]) {
      if (m[4] === 'path') continue;
      const title = m[4].split('/').at(-1)!;
      out.push({ source: `OpenZFS docs: ${title}`, locator: m[5] ?? null, url: `${DOCS}/${m[4].split('/').map(encodeURIComponent).join('/')}.html` });
    } else if (m[6]) out.push({ source: `OpenZFS commit ${m[6].slice(0, 10)}`, locator: null, url: `${GH}/commit/${m[6]}` });
    else if (m[7]) out.push({ source: `OpenZFS issue #${m[7]}`, locator: null, url: `${GH}/issues/${m[7]}` });
    else if (m[8]) out.push({ source: new URL(m[8]).hostname.replace(/^www\./, ''), locator: null, url: m[8] });
    else if (m[10] && m[11]) out.push({ source: 'TrueNAS documentation source', locator: m[11].split('/').at(-1)!, url: `https://github.com/${m[10]}/blob/master/${m[11]}` });
    else if (m[9]) out.push({ source: `FreeBSD r${m[9]} (commit message)`, locator: null, url: `https://svnweb.freebsd.org/base?view=revision&revision=${m[9]}` });
  }
  const seen = new Set<string>();
  const unique = out.filter((s) => (seen.has(s.url) ? false : (seen.add(s.url), true)));
  // OpenZFS's own source, man pages and docs first: fact() cites the first one.
  const openzfs = (s: Source) => s.url.startsWith(GH) || s.url.startsWith(DOCS);
  // A dataset that merely quotes a source is a last resort.
  const quoted = (s: Source) => s.url.startsWith('https://huggingface.co/');
  return [...unique.filter(openzfs), ...unique.filter((s) => !openzfs(s) && !quoted(s)), ...unique.filter(quoted)];
}

const text = readFileSync(factsFile, 'utf8');
const facts = new Map<string, string>();
let current: string | null = null;
for (const line of text.split('\n')) {
  const start = /^(?:#### )?([A-G](?:-T)?\d+)\.\s/.exec(line);
  if (start) { current = start[1]!; facts.set(current, line); continue; }
  if (/^#{1,3} /.test(line) || line.startsWith('---')) { current = null; continue; }
  if (current) facts.set(current, `${facts.get(current)!}\n${line}`);
}

/** Derived facts whose inputs are named by parameter, not by fact number. */
const IMPLICIT_REFS: Record<string, string[]> = {
  A16: ['A12'], 'C-T1': ['C1', 'C6'], 'C-T2': ['C1', 'C6'], 'C-T3': ['C1', 'C6'], C17: ['C16', 'C15'], D3: ['D1', 'A12'],
};

const table: Record<string, Source[]> = {};
for (const [id, body] of facts) {
  const s = sourcesOf(body);
  if (s.length) table[id] = s.slice(0, 4);
}
// Derived facts and pitfalls cite other facts ("(B7)", "see G9"): they inherit those facts' sources.
for (const [id, body] of facts) {
  if (table[id]) continue;
  const refs = [...(IMPLICIT_REFS[id] ?? []), ...[...body.slice(id.length + 1).matchAll(/\b([A-G](?:-T)?\d+)\b/g)].map((m) => m[1]!)].filter((r) => r !== id && table[r]);
  const inherited = sourcesOf('').concat(...[...new Set(refs)].map((r) => table[r]!));
  const seen = new Set<string>();
  const unique = inherited.filter((s) => (seen.has(s.url) ? false : (seen.add(s.url), true)));
  if (unique.length) table[id] = unique.slice(0, 4);
}
const missing = [...facts.keys()].filter((id) => !table[id]);
const out = `/**
 * GENERATED by scripts/gen-fact-sources.ts from the shared fact sheet (zfs-facts.md) — do not edit.
 * Each fact's primary sources as links: OpenZFS source and man pages at a release tag (with the
 * line of the named symbol), OpenZFS documentation pages, commits, issues and other public pages.
 * Facts without a linkable source: ${missing.length ? missing.join(', ') : 'none'}.
 */
export interface FactSource { source: string; locator: string | null; url: string }

export const FACT_SOURCES: Readonly<Record<string, readonly FactSource[]>> = ${JSON.stringify(table, null, 2)};
`;
writeFileSync(join(root, 'rules', 'lib', 'fact-sources.ts'), out);
console.log(`${Object.keys(table).length} facts with sources, ${missing.length} without: ${missing.join(', ')}`);
