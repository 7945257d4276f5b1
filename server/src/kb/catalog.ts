/**
 * The knowledge pages (`docs/kb/*.md`, shipped with the app and served at `/docs/kb/<id>`):
 * which exist and how a section is addressed. Pure, so rules can cite a section.
 * A citation's url is the repository path with the section anchor (`docs/kb/slog.md#…`);
 * the UI turns it into the served page, reports into the public copy (`publicKbUrl`).
 */
import { slugify } from '../text/markdown.ts';

export const KB_PAGES = {
  slog: { title: 'SLOG and the ZFS intent log' },
  'special-vdev': { title: 'Special vdevs' },
  'special-small-blocks': { title: 'special_small_blocks' },
  'raidz-space': { title: 'raidz space, padding and resilience' },
  'zvol-sync': { title: 'zvols, sync and the page cache' },
  'device-classes': { title: 'Device classes: Optane, PLP, consumer flash' },
} as const;
export type KbPageId = keyof typeof KB_PAGES;
export const KB_PAGE_IDS = Object.keys(KB_PAGES) as KbPageId[];

/** Where the project publishes its sources (the repository the packages are built from). */
export const PUBLIC_REPO = 'https://github.com/zfs-advisor/zfs-advisor';

export function kbSectionUrl(page: KbPageId, section: string): string {
  return `docs/kb/${page}.md#${slugify(section)}`;
}

const KB_URL = /^docs\/kb\/([a-z-]+)\.md(#[\w-]+)?$/;

/** `docs/kb/slog.md#x` → `{page, anchor}`; null for any other url. */
export function parseKbUrl(url: string): { page: KbPageId; anchor: string | null } | null {
  const m = KB_URL.exec(url);
  if (!m || !(m[1]! in KB_PAGES)) return null;
  return { page: m[1] as KbPageId, anchor: m[2] ? m[2].slice(1) : null };
}

/** The public address of a knowledge-page url (reports leave the app: a forum reader opens this). */
export function publicKbUrl(url: string): string {
  return parseKbUrl(url) ? `${PUBLIC_REPO}/blob/main/${url}` : url;
}

/** The served page, relative to the app's base path (`docs/kb/slog#x`). */
export function servedKbUrl(url: string): string {
  const k = parseKbUrl(url);
  return k ? `docs/kb/${k.page}${k.anchor ? `#${k.anchor}` : ''}` : url;
}
