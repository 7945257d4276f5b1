/**
 * A list of citations as every view lists it: each page once. Several facts can rest on the same
 * page (the same URL with different sections), and a man page is cited from its source and from
 * the docs site; the later mentions add their section (locator) to the first instead of a second
 * line. Pure and dependency-free: the UI bundles it, the reports and the CLI use it through
 * report/format.ts reportCitations.
 */

export interface CitationLike { source: string; locator: string | null; url: string | null }
export interface MergedCitation { source: string; url: string | null; locators: string[] }

/** The man page a citation names ("zpoolconcepts(7)"), whichever copy it links to (GitHub source or the docs site). */
const manPage = (source: string): string | null => /\b([a-z][\w.-]*\(\d\))/.exec(source)?.[1] ?? null;

/** `toUrl` maps a citation's URL to the one the view links (e.g. the public copy of a knowledge page). */
export function mergeCitations(citations: readonly CitationLike[], toUrl: (url: string) => string = (u) => u): MergedCitation[] {
  const seen = new Map<string, MergedCitation>();
  const out: MergedCitation[] = [];
  for (const c of citations) {
    const url = c.url ? toUrl(c.url) : null;
    const keys = [url ?? (c.locator ? `${c.source}\u0000${c.locator}` : c.source), manPage(c.source)].filter((k): k is string => k !== null);
    const first = keys.map((k) => seen.get(k)).find((e) => e !== undefined);
    if (first) { if (c.locator && !first.locators.includes(c.locator)) first.locators.push(c.locator); continue; }
    const entry: MergedCitation = { source: c.source, url, locators: c.locator ? [c.locator] : [] };
    for (const k of keys) seen.set(k, entry);
    out.push(entry);
  }
  return out;
}
