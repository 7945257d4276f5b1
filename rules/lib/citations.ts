/**
 * Citations every rule shares, each one a link a reader can open: the five published sources the
 * project's advice rests on (by their public address), the primary sources of the fact sheet's
 * numbered facts (OpenZFS source at a release tag, man pages, docs; `fact-sources.ts`), OpenZFS
 * man pages, and the project's own knowledge pages (`docs/kb/`, shipped with the app).
 */
import type { Citation } from '../../server/src/model/finding.ts';
import { FACT_SOURCES } from './fact-sources.ts';
import { KB_PAGES, kbSectionUrl, type KbPageId } from '../../server/src/kb/catalog.ts';

const MAN = 'https://openzfs.github.io/openzfs-docs/man/master';

/** The five published documents, by the short number rules used to name them. */
export const REFERENCES = {
  '000': { title: 'Intel Optane P1600X & P4800X as ZFS SLOG/ZIL (Austin\'s Nerdy Things)', url: 'https://austinsnerdythings.com/tag/nvme' },
  '001': { title: 'ZFS Raidz Performance, Capacity and Integrity (calomel.org)', url: 'https://calomel.org/zfs_raid_speed_capacity.html' },
  '002': { title: 'OpenZFS zvol performance issues (a Proxmox study on coda.io)', url: 'https://coda.io/@ff0/zvol-performance-issues' },
  '003': { title: 'Allocation Classes Feature: benchmarks and use case on OmniOS (napp-it)', url: 'https://www.napp-it.org/doc/downloads/special-vdev.pdf' },
  '004': { title: 'A bit about SSD performance and Optane SSDs (TrueNAS Community resource)', url: 'https://www.truenas.com/community/resources/a-bit-about-ssd-perfomance-and-optane-ssds-when-youre-planning-your-next-ssd.149/' },
} as const;
export type ReferenceId = keyof typeof REFERENCES;

export const DOC_000: ReferenceId = '000';
export const DOC_001: ReferenceId = '001';
export const DOC_002: ReferenceId = '002';
export const DOC_003: ReferenceId = '003';
export const DOC_004: ReferenceId = '004';

/** One of the five documents, with where in it (a section, table or quote). */
export function doc(id: ReferenceId, locator: string | null = null): Citation {
  const r = REFERENCES[id];
  if (!r) throw new Error(`unknown reference document "${String(id)}"`);
  return { source: r.title, locator, url: r.url };
}

/**
 * A numbered fact of the fact sheet, cited by its first primary source (the fact sheet is an
 * internal research file; its sources are public). Throws on an unknown number so a typo fails
 * the rule's tests instead of printing a dead citation.
 */
export function fact(id: string): Citation {
  const s = FACT_SOURCES[id]?.[0];
  if (!s) throw new Error(`fact ${id} has no linkable source in rules/lib/fact-sources.ts`);
  return { source: s.source, locator: s.locator, url: s.url };
}

/**
 * Facts of the fact sheet as Markdown links to their first public source, for text that is not a
 * finding (planner reasons and warnings, sizing notes): "[OpenZFS zpoolconcepts(7) at zfs-2.4.4](https://…)".
 * One link per distinct source; throws on an unknown number, like `fact`.
 */
export function factLinks(...ids: string[]): string {
  const seen = new Set<string>();
  const links: string[] = [];
  for (const id of ids) {
    const c = fact(id);
    const url = c.url ?? '';
    if (seen.has(url)) continue;
    seen.add(url);
    links.push(`[${c.source}${c.locator ? `, ${c.locator}` : ''}](${url})`);
  }
  return links.join(', ');
}

export const man = (page: string, section: 1 | 4 | 5 | 7 | 8, locator: string | null = null): Citation => ({
  source: `${page}(${section})`, locator, url: `${MAN}/${section}/${page}.${section}.html`,
});

/** A section of one of our knowledge pages: the paragraph a finding rests on. */
export function kb(page: KbPageId, section: string): Citation {
  const p = KB_PAGES[page];
  return { source: `ZFS Advisor knowledge base: ${p.title}`, locator: section, url: kbSectionUrl(page, section) };
}
