/**
 * Every citation a reader meets can be followed: each one in every rule (meta and the findings
 * the rules produce on every demo and reference snapshot), in every Optane verdict and on every
 * knowledge page is an https URL (its form checked here, not fetched) or a knowledge-page section
 * whose anchor exists in the shipped pages. And no user-facing text names a file a user cannot open.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALL_RULES as RULES } from '../../rules/index.ts';
import { FACT_SOURCES } from '../../rules/lib/fact-sources.ts';
import { KB_PAGE_IDS, parseKbUrl } from '../../server/src/kb/catalog.ts';
import { KB_DIR, kbAnchors, readKbMarkdown } from '../../server/src/kb/pages.ts';
import { parseInline } from '../../server/src/text/markdown.ts';
import { demoSnapshot, loadAndAssess, referenceSnapshot, SNAPSHOTS_DIR } from '../golden/golden-support.ts';

const anchors = new Map(KB_PAGE_IDS.map((p) => [p, new Set(kbAnchors(p))]));

/** Why `url` is not a link a reader can follow, or null when it is. */
function problem(url: string | null | undefined): string | null {
  if (!url) return 'no url';
  const kb = parseKbUrl(url) ?? (/^[a-z-]+\.md(#[\w-]+)?$/.test(url) ? parseKbUrl(`docs/kb/${url}`) : null);
  if (kb) {
    if (!kb.anchor) return null;
    return anchors.get(kb.page)!.has(kb.anchor) ? null : `anchor #${kb.anchor} not on ${kb.page}.md`;
  }
  let u: URL;
  try { u = new URL(url); } catch { return 'not a URL'; }
  if (u.protocol !== 'https:') return `not https (${u.protocol})`;
  if (!u.hostname.includes('.') || /\s/.test(url)) return 'malformed host or whitespace';
  return null;
}

/** Links written into text (our Markdown subset): each must be followable too. */
function textLinks(text: string): string[] {
  return parseInline(text).flatMap((t) => (t.kind === 'link' ? [t.href] : []));
}

const UNOPENABLE = /\b00[0-4]_[0-9a-f]{16}\.txt\b|zfs-facts(\.md)?|\(00[0-4]\)|\b00[0-4] (study|measured|reports|chose|used)\b|The 00[0-4] study/;

const snapshots = [
  ...['000-hdd-mirror-optane', '001-raidz2-12disk'].map(demoSnapshot),
  ...readdirSync(SNAPSHOTS_DIR, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => referenceSnapshot(d.name)),
];

describe('citations a reader can follow', () => {
  it('every rule: meta citations are links and the description links its knowledge-page section', () => {
    expect(RULES.length).toBeGreaterThan(25);
    for (const r of RULES) {
      for (const c of r.meta.citations) expect(problem(c.url), `${r.meta.id}: ${c.source}`).toBeNull();
      const links = textLinks(r.meta.description);
      expect(links.some((l) => parseKbUrl(l)), `${r.meta.id}: description links a knowledge page`).toBe(true);
      for (const l of links) expect(problem(l), `${r.meta.id}: ${l}`).toBeNull();
      expect(r.meta.description, r.meta.id).not.toMatch(UNOPENABLE);
      expect(r.meta.citations.some((c) => c.url && parseKbUrl(c.url)), `${r.meta.id} cites its knowledge-page paragraph`).toBe(true);
    }
  });

  it('every fact source is an https link', () => {
    for (const [id, sources] of Object.entries(FACT_SOURCES)) for (const s of sources) expect(problem(s.url), `${id}: ${s.url}`).toBeNull();
  });

  it.each(snapshots)('findings and the verdict of %s: every citation and text link followable, no file name a user cannot open', async (dir) => {
    const { result } = await loadAndAssess(dir);
    for (const f of result.assessment.findings) {
      for (const c of f.citations) expect(problem(c.url), `${f.ruleId}: ${c.source}`).toBeNull();
      const texts = [f.title, f.explanation, f.action?.summary ?? '', f.action?.reversibleWhy ?? '', ...f.evidence.map((e) => `${e.label} ${String(e.value)}`)];
      for (const t of texts) {
        expect(t, f.ruleId).not.toMatch(UNOPENABLE);
        for (const l of textLinks(t)) expect(problem(l), `${f.ruleId}: ${l}`).toBeNull();
      }
    }
    const v = result.optane;
    if (v) {
      const texts = [v.headline, ...v.reasons, ...v.evidence.map((e) => `${e.label} ${String(e.value)}`), ...v.candidates.flatMap((c) => [c.role, c.layout]), ...v.purchase.map((p) => p.why)];
      for (const t of texts) {
        expect(t, 'verdict').not.toMatch(UNOPENABLE);
        for (const l of textLinks(t)) expect(problem(l), `verdict: ${l}`).toBeNull();
      }
    }
  });

  it.each(KB_PAGE_IDS)('knowledge page %s: shipped, every link an https URL or an existing anchor, no internal file names', (page) => {
    const md = readKbMarkdown(page);
    expect(KB_DIR).toMatch(/docs[\\/]kb$/);
    const links = [...md.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(links.length, `${page} cites its sources`).toBeGreaterThan(3);
    for (const l of links) expect(problem(l), `${page}: ${l}`).toBeNull();
    expect(md).not.toMatch(UNOPENABLE);
  });

  it('the checker itself rejects what it must', () => {
    expect(problem('http://example.com/x')).toMatch(/not https/);
    expect(problem('zfs-facts.md')).not.toBeNull();
    expect(problem('docs/kb/slog.md#no-such-section')).toMatch(/anchor/);
    expect(problem('docs/kb/slog.md#when-a-slog-helps')).toBeNull();
    expect(problem(null)).toBe('no url');
    expect('The 002 study measured').toMatch(UNOPENABLE);
  });
});
